import FolioCore
import FolioGeometry
import FolioInput
import FolioPixels
import FolioSketchbook
import FolioToolbar

/// Plays a trace through the live app's `FrameLoop` against a `SimulatedCompositor`: the
/// in-memory double of the live app (the Wayland connection is the only thing replaced), so
/// results are deterministic and a frame is drawn only where the app would draw it.
public final class Replay {
    public struct Options: Sendable {
        public var width: Int
        public var height: Int
        public var scale: BufferScale
        /// Stop at this moment of the trace (ms) instead of after the last event and animation.
        public var stopTime: Double?
        /// The display's refresh rate and repaint window.
        public var display: DisplayClock
        /// Live strokes' frames drawn just before the repaint deadline (`FrameLoop.lateCommits`).
        public var lateCommits: Bool

        public init(width: Int, height: Int, scale: BufferScale = 1, stopTime: Double? = nil, display: DisplayClock = .standard,
                    lateCommits: Bool = true) {
            self.width = width
            self.height = height
            self.scale = scale
            self.stopTime = stopTime
            self.display = display
            self.lateCommits = lateCommits
        }
    }

    public let session: Session
    public let compositor: SimulatedCompositor
    private let loop: FrameLoop
    private let trace: Trace
    private let options: Options
    /// Frames the display presented (a commit still waiting for its vblank at `stopTime` is not one).
    public var frameCount: Int { compositor.framesPresented }
    /// Per frame, the time the loop took to render and commit it (input is handled as it
    /// arrives, outside frames; the fold preparation at the first frame is not counted).
    public private(set) var frameMilliseconds: [Double] = []
    /// The late frames' margin and the vblanks they missed.
    public var scheduler: FrameScheduler { loop.scheduler }

    public init(trace: Trace, options: Options, book: Sketchbook = Sketchbook()) {
        self.trace = trace
        self.options = options
        session = Session(book: book, width: options.width, height: options.height, scale: options.scale)
        compositor = SimulatedCompositor(clock: options.display)
        loop = FrameLoop(session: session, surface: compositor)
        loop.lateCommits = options.lateCommits
        loop.onFramePresented = { [unowned self] duration in frameMilliseconds.append(duration.milliseconds) }
    }

    /// Runs the trace: events at their times, the client's draw timer and display vblanks at
    /// theirs, in time order (at one instant: an event, then the timer, then the vblank). `onFrame` sees every frame presented, at its vblank;
    /// with `screens`, with the screen it showed (the buffer committed, as the client drew it, and
    /// the toolbar as of its commit).
    public func run(screens: Bool = false, onFrame: (SimulatedCompositor.Presentation, Bitmap?) throws -> Void = { _, _ in }) throws {
        // The screen of the commit waiting for its vblank (one frame in flight).
        var committedScreen: Bitmap?
        // Each step tells the loop one thing: it presents at most one frame, then commits at most one.
        func step(_ body: () throws -> Void) throws {
            let committed = compositor.framesCommitted, presented = compositor.framesPresented
            try body()
            if compositor.framesPresented > presented, let shown = compositor.lastPresentation {
                try onFrame(shown, committedScreen)
            }
            if screens, compositor.framesCommitted > committed {
                committedScreen = compositor.committedScreen(scale: session.scale.factor)
            }
        }
        let events = trace.events
        let stop = options.stopTime ?? .infinity
        var next = 0
        compositor.configure()
        try step { try loop.configured(width: options.width, height: options.height, scale: options.scale) }
        while true {
            if next < events.count, loop.isIdle { compositor.skipRefreshes(before: min(events[next].time, stop)) }
            let refresh = compositor.nextRefresh
            let wake = compositor.drawWake ?? .infinity
            if next < events.count, events[next].time <= min(refresh, wake, stop) {
                let event = events[next]
                next += 1
                compositor.advance(to: event.time)
                try step { try loop.inputArrived(event.event, at: event.time) }
            } else if wake <= min(refresh, stop) {
                try step { try compositor.wakeForDrawing(loop) }
            } else if refresh <= stop, next < events.count || !loop.isIdle {
                try step { try compositor.refresh(loop) }
            } else {
                break
            }
        }
    }

    /// The screen as the compositor shows it: the session's frame with the toolbar over it.
    public var screen: Bitmap { compositor.screen(session.frame, scale: session.scale.factor) }

    /// The summary `folio replay` prints (`docs/trace-format.md`), as a JSON object.
    public func summary() -> [String: Any] {
        let sorted = frameMilliseconds.sorted()
        var summary: [String: Any] = [
            "frames": frameCount,
            "strokes": session.book.sheet.strokes.count,
            "sheet": session.book.currentSheet + 1,
            "sheets": session.book.sheets.count,
            "fold": ["state": session.mode.foldState, "scale": session.foldScale],
            "events": session.timeline.map { ["t": $0.time, "event": $0.name] as [String: Any] },
            "frameMs": ["p50": percentile(sorted, 0.5), "p99": percentile(sorted, 0.99)],
            "toolbar": ["shown": session.toolbar.isShown, "color": HexColor.format(session.ink.color), "width": session.ink.width,
                        "paper": session.paper.kind.rawValue],
        ]
        if let shelf = session.shelf { summary["shelf"] = shelf.summary(shown: session.mode == .shelf) }
        if let box = session.selectionBox, let bar = session.selectionBar {
            func rect(_ r: Rect) -> [Double] { [r.minX, r.minY, r.width, r.height] }
            summary["selection"] = ["strokes": session.selectedStrokes.map { $0 + 1 }, "box": rect(box),
                                    "bar": bar.buttons.map { ["name": $0.action.name, "rect": rect($0.rect)] as [String: Any] }]
        }
        return summary
    }
}

/// The q-th percentile of sorted values (nearest rank); 0 for none.
public func percentile(_ sorted: [Double], _ q: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

extension Duration {
    /// The duration in milliseconds, the unit every Folio figure is given in.
    public var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
