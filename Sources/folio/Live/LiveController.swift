import Foundation
import FolioCore
import FolioInput
import FolioRender
import FolioShelf
import FolioSketchbook
import FolioWayland

/// Wires a `Session` to the Wayland client: compositor events go into a `FrameLoop` (which
/// decides when to draw) with the window as its surface; session requests go to the window or
/// the saver.
final class LiveController {
    private let client: WaylandClient
    private let session: Session
    /// Decides when to draw: input, frame callbacks and buffer releases go here, the demo's too.
    private let frameLoop: FrameLoop
    private let demo: DemoPlayer?
    /// The open book's saver: nil when nothing is saved (the demo without --book, or the shelf
    /// showing with no book open).
    private var saver: AutoSaver?
    private var bookPath: String?
    /// The shelf of books when the app started on it (no --book): books open and close on it.
    private let library: Library?
    /// Covers the shelf drew again in the background, shown when they arrive.
    private let covers: CoverNews?
    /// Refreshes the big sheet's kept picture in the background when the app is idle; nil when
    /// nothing is saved (each book opened from the shelf has its own).
    private var pictureKeeper: SheetPictureKeeper?
    /// The pictures of the book open from the shelf, read as it opens.
    private var openBookPictures: SheetPictureCache?
    private var savedRevision: Int
    /// Whether the compositor's cycle was known at the last frame line: a debug line says when that changes.
    private var cycleKnown = false

    /// Nil when settings are neither read nor written (the demo without --book).
    private let settings: SettingsKeeper?

    init(client: WaylandClient, demo: DemoPlayer?, book: Sketchbook, writer: BookWriter?, library: Library? = nil,
         covers: CoverNews? = nil, settings: SettingsKeeper?) {
        self.client = client
        self.demo = demo
        self.library = library
        self.covers = covers
        saver = writer.map { AutoSaver(writer: $0, report: { warn($0) }) }
        bookPath = writer?.store.file.path
        let size = client.size
        let pictures = writer.map { SheetPictureCache(store: $0.store, warning: { warn($0) }) }
        pictureKeeper = pictures.map { SheetPictureKeeper(cache: $0, report: { warn($0) }) }
        session = Session(book: book, width: size.width, height: size.height, scale: size.scale, pictures: pictures)
        // Hours of drawing must not grow the timeline without end: nothing in the app reads far back.
        session.timelineCapacity = 256
        // Session times are the monotonic clock's; strokes keep the wall clock's time.
        session.clockEpoch = Date().timeIntervalSince1970 - monotonicMilliseconds() / 1000
        // Fold frames split their columns over two threads where there are two cores.
        session.pageOptions.threads = min(2, max(1, ProcessInfo.processInfo.activeProcessorCount))
        self.settings = settings
        settings?.apply(to: session)
        frameLoop = FrameLoop(session: session, surface: WindowSurface(client: client))
        frameLoop.lateCommits = settings?.lateCommits ?? true
        savedRevision = session.revision
    }

    /// Fingers never draw (`--pen-only`).
    var penOnly: Bool {
        get { session.penOnly }
        set { session.penOnly = newValue }
    }

    func run() throws {
        if let library { openShelf(library) }
        client.onInput = { [unowned self] event, time in
            pictureKeeper?.inputArrived()
            drive { try frameLoop.inputArrived(event, at: time) }
            saveIfChanged()
        }
        client.onResize = { [unowned self] width, height, scale in
            drive { try frameLoop.configured(width: width, height: height, scale: scale) }
            // The first configure too: a big sheet opened without a fresh picture gets one.
            pictureMayLag()
        }
        client.onFrame = { [unowned self] time in
            drive { try frameLoop.frameCallback(at: time) }
            // After the loop's turn: demo events played now wait for the next frame, as real input would.
            demo?.frameShown(at: time, size: client.size, player: self)
            demo?.checkFinished(player: self)
        }
        client.onBufferReleased = { [unowned self] in drive { try frameLoop.bufferReleased() } }
        client.onDrawTime = { [unowned self] in drive { try frameLoop.drawTimeReached() } }
        client.onWake = { [unowned self] in
            for id in covers?.take() ?? [] { drive { try frameLoop.coverRefreshed(id: id) } }
        }
        covers?.connect(client.wakeup)
        // A frame carrying input was seen: presentation feedback judges a late frame, and one
        // debug line says how long its newest input took to be seen.
        client.onFrameShown = { [unowned self] input, shown, presented in
            if presented { frameLoop.framePresented(input: input, at: shown) }
            func ms(_ value: Double) -> String { String(format: "%.2f", value) }
            let cycle = client.repaintCycle
            if (cycle != nil) != cycleKnown {
                cycleKnown = cycle != nil
                let commits = frameLoop.lateCommits ? "live strokes are committed late" : "late commits are off"
                log.debug(cycle.map { "frame: the compositor's cycle is known (\(ms($0.interval)) ms): \(commits)" }
                    ?? "frame: the compositor's cycle is not known: frames are drawn at each callback")
            }
            log.debug("frame: newest input \(ms(input)) ms, \(presented ? "presented" : "callback returned") at \(ms(shown)) ms (\(ms(shown - input)) ms later)")
        }
        client.onClose = { [unowned self] in quit() }
        client.onWarning = { message in warn(message) }
        client.onQuit = { [unowned self] in quit() }
        client.onTimer = { [unowned self] in demo?.timerFired(player: self) }
        session.onRequest = { [unowned self] request in
            switch request {
            case .toggleFullscreen:
                client.toggleFullscreen()
            case .quit:
                quit()
            case .save:
                saver?.save(session.book)  // every change is saved already; this makes it explicit
            case let .warn(message):
                warn(message)
            case .exportSheet:
                exportSheet()
            case .choicesChanged:
                settings?.choicesChanged(in: session)
            case let .textInput(text):
                client.setTextInput(text)
            }
        }
        try client.run()
        if library == nil { try saver?.finish(session.book) }
        // A book open from the shelf is saved as closing it would.
        try session.saveOpenShelfBook()
        library?.close()
        keepPicture()
    }

    /// Starts on the shelf, inside the book opened last (a new one on an empty shelf): each book opened
    /// from it is saved in the background while it is open, as a --book one, and whole on closing.
    private func openShelf(_ library: Library) {
        let access = ShelfAccess(shelf: library, open: { [unowned self] book in
            let (writer, opened) = try openBook(at: book.path)
            saver = AutoSaver(writer: writer, report: { warn($0) })
            bookPath = writer.store.file.path
            let pictures = SheetPictureCache(store: writer.store, warning: { warn($0) })
            openBookPictures = pictures
            pictureKeeper = SheetPictureKeeper(cache: pictures, report: { warn($0) })
            return opened
        }, save: { [unowned self] book, sketchbook in
            guard let saver else { throw FolioError("\(book.name) was not open, so it was not saved") }
            // No picture of it is written after this: the session keeps the closing sheet's own.
            pictureKeeper?.close()
            pictureKeeper = nil
            openBookPictures = nil
            try saver.finish(sketchbook)
            self.saver = nil
            bookPath = nil
            library.bookChanged(id: book.id)
        }, pictures: { [unowned self] _ in openBookPictures })
        do {
            let first = try library.startingBook ?? library.createBook()
            session.showShelf(access, opening: first)
        } catch {
            warn("\(error); the shelf shows")
            session.showShelf(access)
        }
        savedRevision = session.revision
    }

    /// A big sheet's picture goes with the book, so it opens at once next time; only a cache, so
    /// a failure is said and nothing more.
    private func keepPicture() {
        pictureKeeper?.close()
        do {
            try session.keepPicture()
        } catch {
            warn("\(error); the sheet will be drawn from its strokes next time")
        }
    }

    /// The toolbar's export, into the pictures folder or beside the book; the confirmation on
    /// screen says whether it worked, and a line in the log says where or why not.
    private func exportSheet() {
        SheetExporter(fallback: bookPath.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path })
            .export(from: session)
    }

    /// Hands a changed book to the saver, which writes it in the background.
    private func saveIfChanged() {
        guard session.revision != savedRevision else { return }
        savedRevision = session.revision
        saver?.save(session.book)
        pictureMayLag()
    }

    /// The book or the canvas changed: the keeper refreshes the sheet's picture once things stay so.
    private func pictureMayLag() {
        pictureKeeper?.changed(session.book, canvas: .init(width: session.width, height: session.height, scale: session.scale.factor))
    }

    /// Runs a frame loop step; a frame that cannot be committed stops the app with its error.
    private func drive(_ step: () throws -> Void) {
        do {
            try step()
        } catch {
            client.fail(error)
        }
    }

    private func quit() {
        session.finishActiveStroke()
        client.stop()
    }

    /// The line to print when the compositor went away: the stroke in progress is finished and
    /// the book saved first, and the line says where it is (or why it could not be saved, with
    /// `saved` false).
    func compositorLost(_ error: WaylandError) -> (line: String, saved: Bool) {
        session.finishActiveStroke()
        let count = session.book.sheet.strokes.count
        let cause: String
        if case let .connectionLost(reason) = error { cause = "the compositor closed the connection (\(reason))" } else { cause = "\(error)" }
        let strokes = "\(count) stroke\(count == 1 ? "" : "s")"
        guard let saver, let bookPath else {
            if library != nil { return ("\(cause); no book was open", true) }
            return ("\(cause); the stroke in progress was finished; \(strokes) on this sheet (the demo saves nothing)", true)
        }
        do {
            try saver.finish(session.book)
            keepPicture()
            return ("\(cause); the stroke in progress was finished and the book saved: \(strokes) on this sheet, in \(bookPath)", true)
        } catch {
            return ("\(cause); the book could not be saved: \(error)", false)
        }
    }

    // MARK: - For the demo player

    var isIdle: Bool { frameLoop.isIdle }

    /// A demo event, handed over as real input would be.
    func play(_ event: InputEvent, at time: Double) {
        drive { try frameLoop.inputArrived(event, at: time) }
        saveIfChanged()
    }

    func armTimer(after milliseconds: Double?) { client.armTimer(after: milliseconds) }

    func finish() { quit() }
}
