import FolioGeometry
import FolioShelf
import FolioSketchbook

/// How a session reaches the books of a shelf: the shelf itself, and how one book's sheets are
/// read when it opens and written when it closes (the app: the book's folder, locked while open;
/// tests: memory).
public struct ShelfAccess {
    public let shelf: BookShelf
    public let open: (ShelfBook) throws -> Sketchbook
    public let save: (ShelfBook, Sketchbook) throws -> Void

    public init(shelf: BookShelf, open: @escaping (ShelfBook) throws -> Sketchbook,
                save: @escaping (ShelfBook, Sketchbook) throws -> Void) {
        self.shelf = shelf
        self.open = open
        self.save = save
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
