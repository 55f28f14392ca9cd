import Foundation
import FolioCore
import FolioInput
import FolioLog
import FolioSettings
import FolioSketchbook
import FolioWayland
import Logging

/// The app in a Wayland session: opens the window, wires it to a `Session`, and turns how the
/// session ended into an exit status (a thrown `FolioError` is one line on stderr and exit 1).
struct LiveApp {
    var options: LiveOptions

    func run() throws {
        // The demo draws on a fresh sheet and saves nothing, unless a book is named. A named book
        // is locked for as long as the app runs: a second Folio on it fails at once. Without one,
        // the app opens on the shelf of books, inside the book opened last.
        let covers = CoverNews()
        let library = options.demo || options.bookDirectory != nil ? nil
            : try makeLibrary(dataFolder: nil, hint: "give --book DIR", covers: covers)
        let (writer, book): (BookWriter?, Sketchbook) = options.demo && options.bookDirectory == nil || library != nil
            ? (nil, Sketchbook()) : try openBook(at: options.bookDirectory)
        // A bad trace is reported before anything opens.
        let trace: Trace? = try options.demoTrace.map { try Trace.load(contentsOf: URL(fileURLWithPath: $0)) }
        let client: WaylandClient
        do {
            client = try WaylandClient(fullscreen: options.fullscreen)
        } catch let error as WaylandError {
            throw FolioError(error.description)
        }
        let size = client.size
        let bookPath = writer?.store.file.path ?? library.map { "from the shelf in \($0.folder)" } ?? "none (the demo saves nothing)"
        log.info("connected: a \(size.width)x\(size.height) window at scale \(size.scale); book \(bookPath): \(book.sheets.count) sheets")
        let demo: DemoPlayer? = options.demo ? DemoPlayer(trace: trace) : nil
        // Settings go with the book: the demo on a fresh sheet plays with the defaults.
        let settings = writer == nil && library == nil ? nil : SettingsKeeper.forDefaultFile()
        let controller = LiveController(client: client, demo: demo, book: book, writer: writer, library: library, covers: covers,
                                        settings: settings)
        // --pen-only turns finger drawing off whatever the settings say.
        if options.penOnly { controller.penOnly = true }
        do {
            try controller.run()
        } catch let error as WaylandError {
            // A compositor that goes away (killed, crashed, or ending the connection over a
            // protocol error) ends the session normally once the book is saved: one line, status 0.
            let (line, saved) = controller.compositorLost(error)
            guard saved, case .connectionLost = error else { throw FolioError(line) }
            log.error("\(line)")
        } catch let error as BookError {
            throw FolioError("\(error); the drawing could not be saved")
        }
    }
}

/// Folio's logger (FolioLog sets where it writes and at which level).
let log = Logger(label: FolioLog.label)

/// Something went wrong and Folio coped: one warning line saying what happened and what it did.
func warn(_ message: String) {
    log.warning("\(message)")
}
