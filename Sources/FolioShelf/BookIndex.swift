import FolioRender
import FolioSketchbook
import Foundation

/// Taking a book's index from its journal: what a stale or missing index costs, once.
enum BookIndex {
    /// The index of the book in `folder` and its first sheet (for the cover). The stamp is taken
    /// before the book is read, so a save landing meanwhile leaves the index stale, not wrong.
    static func take(in folder: String) throws -> (ShelfEntry.Index, Sheet) {
        let stamp = BookStamp.of(folder)
        let book = try BookStore(directory: URL(fileURLWithPath: folder)).load()
        let first = book.sheets[0]
        let index = ShelfEntry.Index(journal: stamp, sheets: book.sheets.count,
                                     strokes: book.sheets.reduce(0) { $0 + $1.strokes.count },
                                     coverKey: SheetPicture.key(of: first.strokes, paper: first.paper).hexKey)
        return (index, first)
    }
}
