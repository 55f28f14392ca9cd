import Foundation
import FolioCore
import FolioInput
import FolioSketchbook
import FolioWayland

/// Drives a `Session` from the Wayland client with foot's frame discipline: input goes into the
/// session at once; a frame is drawn when the session has damage and no frame is in flight, so
/// input that arrives meanwhile accumulates and is drawn at the next frame callback.
final class LiveController {
    private let client: WaylandClient
    private let session: Session
    private let demo: DemoPlayer?
    /// Nil when nothing is saved (the demo without --book).
    private let saver: AutoSaver?
    private let bookPath: String?
    private var savedRevision: Int
    private var foldPrepared = false

    init(client: WaylandClient, demo: DemoPlayer?, book: Sketchbook, store: BookStore?) {
        self.client = client
        self.demo = demo
        saver = store.map { AutoSaver(store: $0) }
        bookPath = store?.file.path
        let size = client.size
        session = Session(book: book, width: size.width, height: size.height, scale: size.scale)
        // Fold frames split their columns over two threads where there are two cores.
        session.foldOptions.threads = min(2, max(1, ProcessInfo.processInfo.activeProcessorCount))
        savedRevision = session.revision
    }

    func run() throws {
        client.onInput = { [unowned self] event, time in
            session.handle(event, at: time)
            saveIfChanged()
            drawIfReady()
        }
        client.onResize = { [unowned self] width, height, scale in
            session.handle(.resize(width: width, height: height, scale: scale), at: 0)
            drawIfReady()
        }
        client.onFrame = { [unowned self] time in
            if !foldPrepared {
                // The window is up: make the fold renderer now rather than at the first pinch.
                session.prepareToFold()
                foldPrepared = true
            }
            session.advance(to: time)
            demo?.frameShown(at: time, size: client.size, player: self)
            drawIfReady()
            demo?.checkFinished(player: self)
        }
        client.onBufferReleased = { [unowned self] in drawIfReady() }
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
            }
        }
        try client.run()
        try saver?.finish(session.book)
    }

    /// Hands a changed book to the saver, which writes it in the background.
    private func saveIfChanged() {
        guard session.revision != savedRevision else { return }
        savedRevision = session.revision
        saver?.save(session.book)
    }

    /// Presents the session's frame if it changed and the compositor is ready for one; keeps
    /// frame callbacks coming while the fold animates.
    private func drawIfReady() {
        guard client.isConfigured, !client.isFrameInFlight else { return }
        if session.needsFrame {
            guard client.canPresent else { return }  // every buffer busy: the next release draws
            do {
                let damage = session.renderFrame()
                try client.present(session.frame, damage: damage)
            } catch {
                client.fail(error)
            }
        } else if session.isAnimating {
            client.requestTick()
        }
    }

    private func quit() {
        session.finishActiveStroke()
        client.stop()
    }

    /// The line to print when the compositor went away: the stroke in progress is finished and
    /// the book saved first, and the line says where it is (or why it could not be saved).
    func compositorLost(_ error: WaylandError) -> String {
        session.finishActiveStroke()
        let count = session.book.sheet.strokes.count
        let cause: String
        if case let .connectionLost(reason) = error { cause = "the compositor closed the connection (\(reason))" } else { cause = "\(error)" }
        let strokes = "\(count) stroke\(count == 1 ? "" : "s")"
        guard let saver, let bookPath else {
            return "\(cause); the stroke in progress was finished; \(strokes) on this sheet (the demo saves nothing)"
        }
        do {
            try saver.finish(session.book)
            return "\(cause); the stroke in progress was finished and the book saved: \(strokes) on this sheet, in \(bookPath)"
        } catch {
            return "\(cause); the book could not be saved: \(error)"
        }
    }

    // MARK: - For the demo player

    var isIdle: Bool { !session.isAnimating && !session.needsFrame && !client.isFrameInFlight }

    /// A trace event, handed over as real input would be. A trace's `resize` lines are skipped:
    /// in a window, the compositor decides the size.
    func play(_ event: InputEvent, at time: Double) {
        if case .resize = event { return }
        session.handle(event, at: time)
    }

    func redraw() { drawIfReady() }

    func armTimer(after milliseconds: Double?) { client.armTimer(after: milliseconds) }

    func finish() { quit() }
}
