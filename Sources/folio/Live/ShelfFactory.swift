import FolioCore
import FolioFiles
import FolioRender
import FolioShelf
import FolioSketchbook

/// The shelf of books in Folio's data folder `dataFolder` (the app's is `$XDG_DATA_HOME/folio`;
/// its books are in `books/`, and a single book left there by Folio 0.1 moves onto the shelf).
/// `hint` ends the error line, if any: what else the person can do. `covers` hears of each cover
/// drawn again in the background.
func makeLibrary(dataFolder: String?, hint: String? = nil, covers: CoverNews? = nil) throws -> Library {
    let refreshed: @Sendable (String) -> Void = { id in covers?.post(id) }
    do {
        if let dataFolder { return try Library(dataFolder: dataFolder, warning: { warn($0) }, coverRefreshed: refreshed) }
        return try Library(folders: UserFolders.current(), warning: { warn($0) }, coverRefreshed: refreshed)
    } catch {
        throw FolioError("\(error)" + (hint.map { "; \($0)" } ?? ""))
    }
}

/// The shelf with its books opened and saved as `--book` opens and saves one: each open book's
/// folder stays locked until it is saved on closing, and the shelf then takes its new cover; a
/// big sheet's picture is read from the book and kept in it as in the app.
func makeShelfAccess(_ library: Library) -> ShelfAccess {
    final class Writers {
        var open: [String: BookWriter] = [:]
    }
    let writers = Writers()
    return ShelfAccess(shelf: library, open: { book in
        let (writer, sketchbook) = try openBook(at: book.path)
        writers.open[book.id] = writer
        return sketchbook
    }, save: { book, sketchbook in
        guard let writer = writers.open.removeValue(forKey: book.id) else {
            throw FolioError("\(book.name) was not open, so it was not saved")
        }
        try writer.save(sketchbook)
        library.bookChanged(id: book.id)
    }, pictures: { book in
        writers.open[book.id].map { SheetPictureCache(store: $0.store, warning: { warn($0) }) }
    })
}
