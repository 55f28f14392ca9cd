import FolioGeometry
import FolioInput
import FolioWayland

/// Plays the demo trace live, in real time: one more input source. Each event reaches the frame
/// loop at its trace time after the window's first frame, exactly as real input would; when the
/// trace is over and the fold animation has settled, the last frame stays up a second and the
/// app exits.
final class DemoPlayer {
    static let holdMilliseconds = 1000.0

    private var trace: Trace?
    private var next = 0
    /// The session time (ms) of the first frame: trace time zero.
    private var start: Double?
    private var phase = Phase.waitingForFirstFrame

    private enum Phase { case waitingForFirstFrame, playing, settling, holding }

    /// With nil, the built-in demo is generated for the window's size at its first frame.
    init(trace: Trace?) {
        self.trace = trace
    }

    func frameShown(at time: Double, size: (width: Int, height: Int, scale: BufferScale), player: LiveController) {
        guard phase == .waitingForFirstFrame else { return }
        if trace == nil { trace = DemoTrace.trace(width: size.width, height: size.height) }
        start = time
        phase = .playing
        timerFired(player: player)
    }

    func timerFired(player: LiveController) {
        switch phase {
        case .waitingForFirstFrame, .settling:
            return
        case .holding:
            player.finish()
        case .playing:
            guard let trace, let start else { return }
            let elapsed = monotonicMilliseconds() - start
            let events = trace.events
            while next < events.count, events[next].time <= elapsed {
                let event = events[next]
                next += 1
                // In a window the compositor decides the size: a trace's resize lines are skipped.
                if case .resize = event.event { continue }
                player.play(event.event, at: start + event.time)
            }
            if next < events.count {
                player.armTimer(after: events[next].time - elapsed)
            } else {
                phase = .settling
                checkFinished(player: player)
            }
        }
    }

    /// Once the trace is played, the animation over and the last frame shown: hold it, then exit.
    func checkFinished(player: LiveController) {
        guard phase == .settling, player.isIdle else { return }
        phase = .holding
        player.armTimer(after: Self.holdMilliseconds)
    }
}
