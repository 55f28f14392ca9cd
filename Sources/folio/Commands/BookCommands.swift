import ArgumentParser
import Foundation
import FolioFiles
import FolioGeometry
import FolioRender
import FolioSketchbook

/// The book folder `path`, or the default one. An empty path is refused: it would mean the
/// current folder, which nobody names that way.
func bookStore(at path: String?) throws -> BookStore {
    guard let path else {
        do {
            return BookStore(directory: try BookStore.defaultDirectory(in: .current()))
        } catch {
            throw FolioError("\(error), so there is no default book folder; give --book DIR")
        }
    }
    guard !path.isEmpty else { throw ValidationError("--book is empty; give the sketchbook folder") }
    return BookStore(directory: URL(fileURLWithPath: path))
}

/// The book folder `path` for reading: it must exist, since a mistyped folder is not an empty book.
func existingBookStore(at path: String) throws -> BookStore {
    let store = try bookStore(at: path)
    var status = stat()
    guard stat(store.directory.path, &status) == 0 else {
        let code = errno
        guard code != ENOENT else { throw FolioError("\(path): no such book folder") }
        throw FolioError("\(path): cannot read the book folder (\(String(cString: strerror(code))))")
    }
    guard status.st_mode & S_IFMT == S_IFDIR else { throw FolioError("\(path) is not a folder; --book takes the sketchbook folder") }
    return store
}

/// The book in the existing folder `path`, read without locking it.
func loadBook(at path: String) throws -> Sketchbook {
    try existingBookStore(at: path).load(warning: warn)
}

/// The book in `path` (or the default folder), locked for writing until the writer is released.
func openBook(at path: String?) throws -> (BookWriter, Sketchbook) {
    let writer = try bookStore(at: path).openForWriting(warning: warn)
    return (writer, writer.book)
}

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Describe a sketchbook as JSON: {\"sheets\": [{\"strokes\": K, \"paper\": KIND}, ...]}.")

    @Option(help: ArgumentHelp("The sketchbook folder.", valueName: "dir"))
    var book: String

    func run() throws {
        let sketchbook = try loadBook(at: book)
        // Written out directly, a piece at a time: a million sheets as Foundation objects cost
        // seconds and hundreds of MB, and as one string tens of MB.
        var json = "{\"sheets\":["
        json.reserveCapacity(1 << 16)
        for (index, sheet) in sketchbook.sheets.enumerated() {
            json += index == 0 ? "{\"strokes\":" : ",{\"strokes\":"
            json += String(sheet.strokes.count)
            json += ",\"paper\":\""
            json += sheet.paper.kind.rawValue
            json += "\"}"
            if json.utf8.count >= 1 << 16 {
                print(json, terminator: "")
                json.removeAll(keepingCapacity: true)
            }
        }
        print(json + "]}")
    }
}

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export one sheet of a sketchbook as PNG or SVG, or the whole book as PDF.")

    @Option(help: ArgumentHelp("The sketchbook folder.", valueName: "dir"))
    var book: String

    @Option(parsing: .unconditional, help: "The sheet to export, counting from 1 (with --png or --svg).")
    var sheet: Int?

    @Option(help: ArgumentHelp("Write the sheet as a PNG image.", valueName: "out"))
    var png: String?

    @Option(help: ArgumentHelp("Write the sheet's ink as SVG.", valueName: "out"))
    var svg: String?

    @Option(help: ArgumentHelp("Write the whole book as PDF, one vector page per sheet.", valueName: "out"))
    var pdf: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Canvas size in logical pixels (default: just large enough for the drawing; with --pdf, for every sheet's).",
                               valueName: "WxH"),
            transform: PixelSize.parse)
    var size: PixelSize?

    mutating func validate() throws {
        guard [png, svg, pdf].compactMap({ $0 }).count == 1 else {
            throw ValidationError("give exactly one of --png OUT, --svg OUT and --pdf OUT")
        }
        if pdf != nil {
            guard sheet == nil else { throw ValidationError("--pdf writes every sheet; --sheet is for --png and --svg") }
        } else {
            guard let sheet else { throw ValidationError("--png and --svg need --sheet N") }
            guard sheet >= 1 else { throw ValidationError("--sheet counts from 1") }
        }
    }

    func run() throws {
        let store = try existingBookStore(at: book)
        let target = png ?? svg ?? pdf ?? ""
        // An export written into the book folder could replace book.json: refused outright.
        guard !store.holds(target) else {
            throw FolioError("\(target) is inside the book folder \(store.directory.path); export somewhere else")
        }
        let sketchbook = try store.load(warning: warn)
        if pdf != nil {
            let extent = size.map { Size(width: Double($0.width), height: Double($0.height)) } ?? PDFExport.extent(of: sketchbook)
            let data: Data
            do {
                data = try PDFExport.document(for: sketchbook, size: extent)
            } catch {
                throw FolioError("\(target): \(error) (nothing was replaced)")
            }
            return try AtomicFile.replace(target, with: data, mode: nil)
        }
        let sheet = self.sheet ?? 1
        guard sheet <= sketchbook.sheets.count else {
            throw FolioError("the book has \(sketchbook.sheets.count) sheet(s); there is no sheet \(sheet)")
        }
        let page = sketchbook.sheets[sheet - 1]
        let extent = size.map { Size(width: Double($0.width), height: Double($0.height)) } ?? SVGExport.extent(of: page)
        let data: Data
        if svg != nil {
            data = Data(SVGExport.document(for: page, size: extent).utf8)
        } else {
            // The bitmap stays within what Folio draws, whatever the strokes say: a drawing that
            // reaches farther is cut at the largest side, and the user is told.
            let side = Double(SurfaceLimits.maximumBufferSide)
            let width = Int(min(extent.width, side)), height = Int(min(extent.height, side))
            if Double(width) < extent.width || Double(height) < extent.height {
                warn("the drawing reaches \(Int(extent.width))x\(Int(extent.height)) px; the PNG holds its top-left "
                     + "\(width)x\(height) (bitmaps are at most \(SurfaceLimits.maximumBufferSide) px a side)")
            }
            let canvas = CanvasRenderer(width: width, height: height, scale: 1)
            canvas.rebuild(strokes: page.strokes, paper: page.paper)
            data = try PNG.encode(canvas.frame)
        }
        // Written beside the target and renamed over it: a failure leaves an existing file as it was.
        try AtomicFile.replace(target, with: data, mode: nil)
    }
}
