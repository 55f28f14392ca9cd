import FolioCore
import FolioInput
import FolioWayland

/// Drives a `Session` from the Wayland client with foot's frame discipline: input goes into the
/// session at once; a frame is drawn when the session has damage and no frame is in flight, so
/// input that arrives meanwhile accumulates and is drawn at the next frame callback.
final class LiveController {
    private let client: WaylandClient
    private let session: Session
    private let demo: DemoPlayer?
    private var warnedAboutSaving = false

    init(client: WaylandClient, demo: DemoPlayer?) {
        self.client = client
        self.demo = demo
        let size = client.size
        session = Session(width: size.width, height: size.height, scale: size.scale)
    }

    func run() throws {
        client.onInput = { [unowned self] event, time in
            session.handle(event, at: time)
            drawIfReady()
        }
        client.onResize = { [unowned self] width, height, scale in
            session.handle(.resize(width: width, height: height, scale: scale), at: 0)
            drawIfReady()
        }
        client.onFrame = { [unowned self] time in
            session.advance(to: time)
            demo?.frameShown(at: time, size: client.size, player: self)
            drawIfReady()
            demo?.checkFinished(player: self)
        }
        client.onBufferReleased = { [unowned self] in drawIfReady() }
        client.onClose = { [unowned self] in quit() }
        client.onTimer = { [unowned self] in demo?.timerFired(player: self) }
        session.onRequest = { [unowned self] request in
            switch request {
            case .toggleFullscreen:
                client.toggleFullscreen()
            case .quit:
                quit()
            case .save:
                if !warnedAboutSaving {
                    warn("saving is not built yet: the sketchbook storage arrives in a later version")
                    warnedAboutSaving = true
                }
            }
        }
        try client.run()
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

    /// The line to print when the compositor went away; the stroke in progress is finished first.
    func compositorLost(_ error: WaylandError) -> String {
        session.finishActiveStroke()
        let count = session.book.sheet.strokes.count
        return "\(error); the compositor is gone, so Folio stops. The stroke in progress was finished and kept with the others "
            + "(\(count) stroke\(count == 1 ? "" : "s") in memory), but this version cannot save them to disk yet"
    }

    // MARK: - For the demo player

    var isIdle: Bool { !session.isAnimating && !session.needsFrame && !client.isFrameInFlight }

    func play(_ event: InputEvent, at time: Double) {
        session.handle(event, at: time)
    }

    func redraw() { drawIfReady() }

    func armTimer(after milliseconds: Double?) { client.armTimer(after: milliseconds) }

    func finish() { quit() }
}
