import FolioPixels

/// One book on the shelf, as the shelf view shows it and `folio books` lists it.
public struct ShelfBook: Sendable, Equatable {
    /// The book's folder name under the shelf folder: stable across renames.
    public var id: String
    /// The name shown on the cover, chosen by the person (dated when the book is made).
    public var name: String
    /// The cover's colour, `0x00RRGGBB`.
    public var coverColor: UInt32
    /// The book's folder, absolute.
    public var path: String
    public var sheets: Int
    public var strokes: Int
    /// When the book was last opened, in the shelf's own order (later is larger); nil: never.
    public var opened: Int64?

    public init(id: String, name: String, coverColor: UInt32, path: String, sheets: Int, strokes: Int, opened: Int64? = nil) {
        self.id = id
        self.name = name
        self.coverColor = coverColor
        self.path = path
        self.sheets = sheets
        self.strokes = strokes
        self.opened = opened
    }
}

/// The books a person keeps, in shelf order. The shelf view and the app work through this
/// seam, so they run the same against the books folder and an in-memory double in tests.
public protocol BookShelf: AnyObject {
    /// The books in shelf order (newest first).
    var books: [ShelfBook] { get }
    /// Makes an empty book, named with today's date, first on the shelf.
    func createBook() throws -> ShelfBook
    /// Moves a book to the trash; `undoDelete` brings it back until the app quits.
    func deleteBook(id: String) throws
    /// Brings back the most recently deleted book; nil when there is none.
    func undoDelete() throws -> ShelfBook?
    func rename(id: String, to name: String) throws
    func setCoverColor(id: String, _ color: UInt32) throws
    /// The picture of the book's first sheet for its cover, premultiplied ARGB, kept fresh
    /// with the book; nil when the book has no picture yet (the cover is then drawn plain).
    func coverPicture(id: String) -> Bitmap?
    /// The book was saved or closed: its counts and cover are brought up to date, in the background.
    func bookChanged(id: String)
    /// The book was opened: the app starts inside it next time, unless another is opened after it.
    func bookOpened(id: String)
    /// The app is quitting: deleted books are removed for good, and undo ends.
    func close()
}

extension BookShelf {
    /// The book the app starts inside: the one opened last, else the newest; nil on an empty shelf.
    public var startingBook: ShelfBook? {
        books.filter { $0.opened != nil }.max { ($0.opened ?? 0) < ($1.opened ?? 0) } ?? books.first
    }

    /// A shelf with nothing kept besides its books (an in-memory double) has nothing to refresh.
    public func bookChanged(id: String) {}
    /// A shelf that keeps no trash has nothing to empty.
    public func close() {}
}
