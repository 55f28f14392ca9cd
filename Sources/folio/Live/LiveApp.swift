import Foundation
import FolioCore
import FolioInput
import FolioSettings
import FolioSketchbook
import FolioWayland

/// The app in a Wayland session: opens the window, wires it to a `Session`, and turns how the
/// session ended into an exit status (a thrown `FolioError` is one line on stderr and exit 1).
struct LiveApp {
    var options: LiveOptions

    func run() throws {
        // The demo draws on a fresh sheet and saves nothing, unless a book is named.
        // The book is locked for as long as the app runs: a second Folio on it fails at once.
        let (writer, book): (BookWriter?, Sketchbook) = options.demo && options.bookDirectory == nil
            ? (nil, Sketchbook()) : try openBook(at: options.bookDirectory)
        // A bad trace is reported before anything opens.
        let trace: Trace? = try options.demoTrace.map { try Trace.load(contentsOf: URL(fileURLWithPath: $0)) }
        let client: WaylandClient
        do {
            client = try WaylandClient(fullscreen: options.fullscreen)
        } catch let error as WaylandError {
            throw FolioError(error.description)
        }
        let demo: DemoPlayer? = options.demo ? DemoPlayer(trace: trace) : nil
        // Settings go with the book: the demo on a fresh sheet plays with the defaults.
        let settings = writer == nil ? nil : SettingsKeeper(file: SettingsFile(path: SettingsFile.defaultPath()))
        let controller = LiveController(client: client, demo: demo, book: book, writer: writer, settings: settings)
        // --pen-only turns finger drawing off whatever the settings say.
        if options.penOnly { controller.penOnly = true }
        do {
            try controller.run()
        } catch let error as WaylandError {
            throw FolioError(controller.compositorLost(error))
        } catch let error as BookError {
            throw FolioError("\(error); the drawing could not be saved")
        }
    }
}

/// One line on stderr, prefixed like the CLI's errors.
func warn(_ message: String) {
    FileHandle.standardError.write(Data("folio: \(message)\n".utf8))
}
