import FolioPixels

/// A shelf held in memory, the same seam as the books folder: what `folio bench` times the
/// shelf with, and what tests drive the shelf view through. Deleted books wait in a trash of
/// their own for `undoDelete`, as they do on disk.
public final class InMemoryShelf: BookShelf {
    public private(set) var books: [ShelfBook]
    private var trash: [(book: ShelfBook, index: Int)] = []
    private var pictures: [String: Bitmap]
    private var made = 0
    /// Books opened so far: each open is later than the one before.
    private var opens: Int64 = 0
    /// The name a new book is given (on disk: the date it was made).
    public var newName: String

    public init(books: [ShelfBook] = [], pictures: [String: Bitmap] = [:], newName: String = "Book") {
        self.books = books
        self.pictures = pictures
        self.newName = newName
    }

    public func createBook() throws -> ShelfBook {
        made += 1
        var id = "book-\(made)"
        while books.contains(where: { $0.id == id }) || trash.contains(where: { $0.book.id == id }) {
            made += 1
            id = "book-\(made)"
        }
        let book = ShelfBook(id: id, name: newName, coverColor: 0x3A5A8C, path: "/memory/\(id)", sheets: 1, strokes: 0)
        books.insert(book, at: 0)
        return book
    }

    public func deleteBook(id: String) throws {
        guard let index = books.firstIndex(where: { $0.id == id }) else { throw MissingBook(id: id) }
        trash.append((books.remove(at: index), index))
    }

    public func undoDelete() throws -> ShelfBook? {
        guard let (book, index) = trash.popLast() else { return nil }
        books.insert(book, at: min(index, books.count))
        return book
    }

    public func rename(id: String, to name: String) throws {
        guard let index = books.firstIndex(where: { $0.id == id }) else { throw MissingBook(id: id) }
        books[index].name = name
    }

    public func setCoverColor(id: String, _ color: UInt32) throws {
        guard let index = books.firstIndex(where: { $0.id == id }) else { throw MissingBook(id: id) }
        books[index].coverColor = color & 0xFF_FFFF
    }

    public func coverPicture(id: String) -> Bitmap? { pictures[id] }

    public func bookOpened(id: String) {
        opens += 1
        if let index = books.firstIndex(where: { $0.id == id }) { books[index].opened = opens }
    }

    /// Gives book `id` a new cover picture (its first sheet changed).
    public func setCoverPicture(id: String, _ picture: Bitmap?) {
        pictures[id] = picture
    }

    /// No book by that id is on this shelf.
    public struct MissingBook: Error, CustomStringConvertible {
        public let id: String
        public var description: String { "no book \(id) on the shelf" }
    }
}
