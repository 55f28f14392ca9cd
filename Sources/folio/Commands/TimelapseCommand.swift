import ArgumentParser
import Foundation
import FolioVideo

/// `folio timelapse`: a sheet drawn again, stroke by stroke, as an H.264 MP4.
struct TimelapseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timelapse",
        abstract: "Write a video of one sheet being drawn again, stroke by stroke (H.264 in MP4).")

    @Option(help: ArgumentHelp("The sketchbook folder.", valueName: "dir"))
    var book: String

    @Option(parsing: .unconditional, help: "The sheet, counting from 1 (default: the sheet the book is open at).")
    var sheet: Int?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("The video's size in pixels, one per logical pixel: even sides from 16 to 4096.", valueName: "WxH"))
    var size: String

    @Option(parsing: .unconditional, help: "The video's length in seconds, 1 to 600.")
    var seconds: Double = 30

    @Option(parsing: .unconditional, help: "Frames per second, 1 to 60.")
    var fps: Int = 30

    @Option(help: ArgumentHelp("The MP4 to write.", valueName: "file"))
    var out: String

    func run() throws {
        let size: PixelSize
        do {
            size = try PixelSize.parse(self.size)
        } catch {
            let sides = Timelapse.sides
            throw FolioError("--size \(self.size): give WxH, each side an even number from \(sides.lowerBound) to \(sides.upperBound)")
        }
        let timelapse = Timelapse(width: size.width, height: size.height, seconds: seconds, fps: fps)
        if let problem = timelapse.problem { throw FolioError(problem) }
        let store = try existingBookStore(at: book)
        guard !out.isEmpty else { throw FolioError("--out is empty; give the MP4 to write") }
        // A video written into the book folder could take a name the book needs: refused outright.
        guard !store.holds(out) else { throw FolioError("\(out) is inside the book folder \(store.directory.path); write it somewhere else") }
        let sketchbook = try store.load(warning: warn)
        let index = (sheet ?? sketchbook.currentSheet + 1)
        guard index >= 1 else { throw FolioError("--sheet counts from 1") }
        guard index <= sketchbook.sheets.count else {
            throw FolioError("the book has \(sketchbook.sheets.count) sheet(s); there is no sheet \(index)")
        }
        var bar = ProgressBar(shown: isatty(STDERR_FILENO) == 1)
        defer { bar.end() }
        do {
            let sheet = sketchbook.sheets[index - 1]
            try timelapse.write(sheet.strokes, on: sheet.paper, to: out) { bar.show($0, of: $1) }
        } catch {
            bar.end()
            throw FolioError(error.description)
        }
    }
}

/// A one-line progress bar on stderr, drawn only on a terminal and only when its text changes.
struct ProgressBar {
    let shown: Bool
    private var last = ""

    init(shown: Bool) {
        self.shown = shown
    }

    mutating func show(_ done: Int, of total: Int) {
        guard shown, total > 0 else { return }
        let width = 30, filled = done * width / total
        let text = "\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
            + "] \(done * 100 / total)% \(done)/\(total) frames"
        guard text != last else { return }
        last = text
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Ends the bar's line, once.
    mutating func end() {
        guard shown, !last.isEmpty else { return }
        last = ""
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
