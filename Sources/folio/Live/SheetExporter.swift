import Foundation
import FolioCore
import FolioFiles
import FolioRender
import FolioSketchbook

/// The toolbar's export: the sheet on the easel as a PNG in the pictures folder
/// (`PicturesFolder`), or in `fallback` (the book's folder) when there is none. The file is named
/// `Folio sheet N.png`, or `Folio sheet N (2).png` and so on: an export never replaces a picture.
struct SheetExporter {
    var fallback: String?
    var folders = UserFolders.current()

    /// Writes the sheet at 1 pixel per logical pixel of a `width`×`height` window; returns the
    /// path written.
    func export(_ book: Sketchbook, width: Int, height: Int) throws -> String {
        let pictures = try PicturesFolder.resolve(in: folders)
        guard let folder = pictures ?? fallback else {
            throw FolioError("there is no pictures folder (XDG_PICTURES_DIR) and no book folder to export into")
        }
        // The pictures folder may not exist yet (xdg-user-dirs makes it on login; not everywhere).
        if pictures != nil {
            do { try Folders.make(folder) } catch { throw FolioError(error.describe(failure: "cannot export the sheet")) }
        }
        let canvas = CanvasRenderer(width: width, height: height, scale: 1)
        canvas.rebuild(strokes: book.sheet.strokes, paper: book.sheet.paper)
        let data = try PNG.encode(canvas.frame)
        let number = book.currentSheet + 1
        var path = "\(folder)/Folio sheet \(number).png"
        var copy = 1
        while FileManager.default.fileExists(atPath: path) || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil {
            copy += 1
            path = "\(folder)/Folio sheet \(number) (\(copy)).png"
        }
        // In the book's folder, private like the book; in the pictures folder, as the umask says.
        do {
            try AtomicFile.replace(path, with: data, mode: pictures == nil ? 0o600 : nil)
        } catch {
            throw FolioError(error.describe(failure: "cannot export the sheet"))
        }
        return path
    }

    /// Exports the session's sheet at its window size; the session's confirmation on screen says
    /// whether it worked, and a line in the log says where or why not.
    func export(from session: Session) {
        do {
            let path = try export(session.book, width: session.width, height: session.height)
            warn("exported the sheet to \(path)")
            session.exportFinished(succeeded: true)
        } catch {
            warn("\(error)")
            session.exportFinished(succeeded: false)
        }
    }
}
