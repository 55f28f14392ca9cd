import ArgumentParser
import Foundation
import FolioFiles
import FolioGeometry
import FolioInput
import FolioRender
import FolioReplay
import FolioSettings
import FolioSketchbook

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Play an input trace headlessly and render what the screen would show.")

    @Argument(help: ArgumentHelp("The input trace (JSON Lines of input events; see INPUT TRACES in folio(1)).",
                                 valueName: "trace"))
    var trace: String

    @OptionGroup var window: WindowOptions

    @Option(help: ArgumentHelp("Folder for final.png (and frames); nothing is written without it.", valueName: "dir"))
    var out: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Render the screen at this moment of the trace, in ms.", valueName: "ms"))
    var at: Double?

    @Flag(help: "Also write every frame presented as frame-NNNNN.png.")
    var frames = false

    @Option(parsing: .unconditional, help: ArgumentHelp("The display's refresh rate, 30 to 240 Hz.", valueName: "hz"))
    var refresh = 60.0

    @Option(parsing: .unconditional, help: ArgumentHelp("How long before each vblank the display stops taking commits for it, in ms: 0 to less than one refresh.",
                                                          valueName: "ms"))
    var repaintWindow: Double?

    @OptionGroup var look: PageLookOptions

    @Option(help: ArgumentHelp("Read settings from this config.toml and write the toolbar's choices back to it, as the app does.",
                               valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("Apply the trace to this sketchbook and save it, as the live app does.", valueName: "dir"))
    var book: String?

    @Option(help: ArgumentHelp("Start on the shelf of books in this folder, as the app does; the trace opens and closes them.",
                               valueName: "dir"))
    var shelf: String?

    mutating func validate() throws {
        if let at, !(at >= 0 && at.isFinite) { throw ValidationError("--at must be a time in ms, 0 or more") }
        if frames && out == nil { throw ValidationError("--frames needs --out DIR") }
        if book != nil && shelf != nil { throw ValidationError("--book and --shelf open one book or a shelf of them: give one") }
        _ = try display()
    }

    /// The display the trace plays on, from `--refresh` and `--repaint-window`.
    private func display() throws(ValidationError) -> DisplayClock {
        do throws(DisplayClock.InvalidClock) {
            return try DisplayClock(refreshRate: refresh, repaintWindow: repaintWindow ?? DisplayClock.standard.repaintWindow)
        } catch {
            switch error.field {
            case .refreshRate: throw ValidationError("--refresh \(error.requirement)")
            case .repaintWindow where repaintWindow == nil: throw ValidationError("--repaint-window (7 ms unless given) \(error.requirement)")
            case .repaintWindow: throw ValidationError("--repaint-window \(error.requirement)")
            }
        }
    }

    func run() throws {
        let parsed = try Trace.load(contentsOf: URL(fileURLWithPath: trace))
        // The trace is read whole before the book is touched: a malformed trace changes nothing.
        // The book stays locked until this run has saved it.
        let store = try book.map { try openBook(at: $0) }
        // Made if missing; a link, or a folder others can change, is refused before anything is written.
        if let out { try OutputFolder.prepare(out) }
        let settings = config.map { SettingsKeeper(file: SettingsFile(path: $0)) }
        let options = Replay.Options(width: window.size.width, height: window.size.height, scale: window.scale.scale, stopTime: at,
                                     display: try display(), lateCommits: settings?.lateCommits ?? true)
        let replay = Replay(trace: parsed, options: options, book: store?.1 ?? Sketchbook())
        replay.session.pageOptions = look.renderOptions
        settings?.apply(to: replay.session)
        let exporter = SheetExporter(fallback: book ?? out)
        replay.session.onRequest = { [unowned session = replay.session] request in
            switch request {
            case let .warn(message):
                warn(message)
            case .exportSheet:
                exporter.export(from: session)
            case .choicesChanged:
                settings?.choicesChanged(in: session)
            default:
                break
            }
        }
        let library = try shelf.map { try makeLibrary(dataFolder: $0) }
        defer { library?.close() }
        if let library { replay.session.showShelf(makeShelfAccess(library)) }
        var log = FrameLog()
        try replay.run(screens: frames) { shown, screen in
            log.append(shown)
            if let out, let screen {
                try PNG.write(screen, to: "\(out)/frame-\(String(format: "%05d", shown.index)).png")
            }
        }
        if let out {
            try PNG.write(replay.screen, to: "\(out)/final.png")
            try AtomicFile.replace("\(out)/frames.jsonl", with: Data(log.text.utf8), mode: nil)
        }
        if let (writer, _) = store {
            replay.session.finishActiveStroke()
            try writer.save(replay.session.book)
        }
        // A book still open from the shelf is saved as closing it would.
        try replay.session.saveOpenShelfBook()
        let json = try JSONSerialization.data(withJSONObject: replay.summary(), options: [.sortedKeys])
        print(String(decoding: json, as: UTF8.self))
    }
}
