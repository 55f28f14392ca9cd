import FolioCore
import FolioShelf
import FolioSketchbook

/// The books of an in-memory shelf, opened and saved in memory: what a replay on a shelf reads
/// and writes, and what tests look at afterwards.
final class MemoryBooks {
    var books: [String: Sketchbook] = [:]
    var opened: [String] = []
    var saved: [String] = []

    func access(_ shelf: BookShelf) -> ShelfAccess {
        ShelfAccess(shelf: shelf, open: { [unowned self] book in
            opened.append(book.id)
            return books[book.id] ?? Sketchbook()
        }, save: { [unowned self] book, sketchbook in
            saved.append(book.id)
            books[book.id] = sketchbook
        })
    }
}
