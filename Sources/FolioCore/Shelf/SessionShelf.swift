import FolioGeometry
import FolioRender
import FolioShelf
import FolioSketchbook

/// How a session reaches the books of a shelf: the shelf itself, how one book's sheets are read
/// when it opens and written when it closes (the app: the book's folder, locked while open;
/// tests: memory), and the pictures of its big sheets kept with it (none in memory).
public struct ShelfAccess {
    public let shelf: BookShelf
    public let open: (ShelfBook) throws -> Sketchbook
    public let save: (ShelfBook, Sketchbook) throws -> Void
    public let pictures: (ShelfBook) -> SheetPictureCache?

    public init(shelf: BookShelf, open: @escaping (ShelfBook) throws -> Sketchbook,
                save: @escaping (ShelfBook, Sketchbook) throws -> Void,
                pictures: @escaping (ShelfBook) -> SheetPictureCache? = { _ in nil }) {
        self.shelf = shelf
        self.open = open
        self.save = save
        self.pictures = pictures
    }
}

/// The shelf a session shows between books: its access, its view, and the book now open on the
/// easel (nil while the shelf shows).
public final class SessionShelf {
    public let access: ShelfAccess
    public let view: ShelfView
    public internal(set) var openBook: ShelfBook?
    /// Books deleted in this session and not brought back: what undo can restore.
    public internal(set) var deletions = 0

    init(access: ShelfAccess, view: ShelfView) {
        self.access = access
        self.view = view
    }
}

extension SessionShelf {
    /// The shelf as `folio replay` reports it: whether it `shown`, its books in order, the open one.
    public func summary(shown: Bool) -> [String: Any] {
        var summary: [String: Any] = [
            "shown": shown,
            "books": access.shelf.books.map { book -> [String: Any] in
                ["id": book.id, "name": book.name, "color": HexColor.format(book.coverColor)]
            },
        ]
        if let openBook { summary["open"] = openBook.id }
        return summary
    }
}
