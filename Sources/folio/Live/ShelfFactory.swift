import FolioCore
import FolioShelf
import FolioSketchbook

/// The shelf of books kept in `folder` (the app: `$XDG_DATA_HOME/folio/books`).
func makeBookShelf(folder: String) throws -> BookShelf {
    // The books folder's storage (FolioShelf's `Library`) is wired here.
    throw FolioError("the shelf of books in \(folder) cannot be read by this build of folio")
}

/// The shelf in `folder` with its books opened and saved as `--book` opens and saves one: each
/// open book's folder stays locked until it is saved on closing.
func makeShelfAccess(folder: String) throws -> ShelfAccess {
    let shelf = try makeBookShelf(folder: folder)
    final class Writers {
        var open: [String: BookWriter] = [:]
    }
    let writers = Writers()
    return ShelfAccess(shelf: shelf, open: { book in
        let (writer, sketchbook) = try openBook(at: book.path)
        writers.open[book.id] = writer
        return sketchbook
    }, save: { book, sketchbook in
        guard let writer = writers.open.removeValue(forKey: book.id) else {
            throw FolioError("\(book.name) was not open, so it was not saved")
        }
        try writer.save(sketchbook)
    })
}
