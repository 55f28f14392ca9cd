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

        public init(width: Int, height: Int, scale: BufferScale = 1, stopTime: Double? = nil) {
            self.width = width
            self.height = height
            self.scale = scale
            self.stopTime = stopTime
        }
    }

    public let session: Session
    public let compositor = SimulatedCompositor()
    private let loop: FrameLoop
    private let trace: Trace
    private let options: Options
    public var frameCount: Int { compositor.framesPresented }
    /// Per frame, the time the loop took to render and commit it (input is handled as it
    /// arrives, outside frames; the fold preparation at the first frame is not counted).
    public private(set) var frameMilliseconds: [Double] = []

    public init(trace: Trace, options: Options, book: Sketchbook = Sketchbook()) {
        self.trace = trace
        self.options = options
        session = Session(book: book, width: options.width, height: options.height, scale: options.scale)
        loop = FrameLoop(session: session, surface: compositor)
        loop.onFramePresented = { [unowned self] duration in frameMilliseconds.append(duration.milliseconds) }
    }

    /// Runs the trace: events at their times, display refreshes every 1/60 s, in time order (an
    /// event at a refresh's instant first). `onFrame` sees every frame committed, with its time
    /// (the session's frame: `screen` adds the toolbar over it).
    public func run(onFrame: (_ index: Int, _ time: Double, _ frame: Bitmap) throws -> Void) throws {
        // Each step tells the loop one thing; it commits at most one frame (one frame in flight).
        func step(at time: Double, _ body: () throws -> Void) throws {
            let before = compositor.framesPresented
            try body()
            if compositor.framesPresented > before { try onFrame(before, time, session.frame) }
        }
        let events = trace.events
        let stop = options.stopTime ?? .infinity
        var next = 0
        compositor.configure()
        try step(at: 0) { try loop.configured(width: options.width, height: options.height, scale: options.scale) }
        while true {
            if next < events.count, loop.isIdle { compositor.skipRefreshes(before: min(events[next].time, stop)) }
            let refresh = compositor.nextRefresh
            if next < events.count, events[next].time <= min(refresh, stop) {
                let event = events[next]
                next += 1
                compositor.advance(to: event.time)
                try step(at: event.time) { try loop.inputArrived(event.event, at: event.time) }
            } else if refresh <= stop, next < events.count || !loop.isIdle {
                try step(at: refresh) { try compositor.refresh(loop) }
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
        return [
            "frames": frameCount,
            "strokes": session.book.sheet.strokes.count,
            "sheet": session.book.currentSheet + 1,
            "sheets": session.book.sheets.count,
            "fold": ["state": session.mode.foldState, "scale": session.foldScale],
            "events": session.timeline.map { ["t": $0.time, "event": $0.name] as [String: Any] },
            "frameMs": ["p50": percentile(sorted, 0.5), "p99": percentile(sorted, 0.99)],
            "toolbar": ["shown": session.toolbar.isShown, "color": HexColor.format(session.ink.color), "width": session.ink.width],
        ]
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
