import Foundation
import FolioCore
import FolioInput
import FolioPixels
import FolioRender
import FolioSketchbook

/// Plays a trace through a `Session` on a simulated 60 Hz clock: the in-memory double of the
/// live app (the Wayland connection is the only thing replaced), so results are deterministic.
public final class Replay {
    public static let frameInterval = 1000.0 / 60.0

    public struct Options: Sendable {
        public var width: Int
        public var height: Int
        public var scale: Int
        /// Stop at this moment of the trace (ms) instead of after the last event and animation.
        public var stopTime: Double?

        public init(width: Int, height: Int, scale: Int = 1, stopTime: Double? = nil) {
            self.width = width
            self.height = height
            self.scale = scale
            self.stopTime = stopTime
        }
    }

    public let session: Session
    private let trace: Trace
    private let options: Options
    public private(set) var frameCount = 0
    public private(set) var frameMilliseconds: [Double] = []

    public init(trace: Trace, options: Options, book: Sketchbook = Sketchbook()) {
        self.trace = trace
        self.options = options
        session = Session(book: book, width: options.width, height: options.height, scale: options.scale)
    }

    /// Runs the trace; `onFrame` sees every frame the screen would show, with its time and damage.
    public func run(onFrame: (_ index: Int, _ time: Double, _ frame: Bitmap) throws -> Void) rethrows {
        var next = 0
        var tick = 0
        let events = trace.events
        let stop = options.stopTime
        while true {
            let now = Double(tick) * Self.frameInterval
            let limit = stop.map { min($0, now) } ?? now
            let clock = ContinuousClock.now
            while next < events.count, events[next].time <= limit {
                session.handle(events[next].event, at: events[next].time)
                next += 1
            }
            session.advance(to: limit)
            if session.needsFrame {
                _ = session.renderFrame()
                frameMilliseconds.append((ContinuousClock.now - clock).milliseconds)
                try onFrame(frameCount, limit, session.frame)
                frameCount += 1
            }
            if let stop, now >= stop { break }
            if next >= events.count && !session.isAnimating { break }
            tick += 1
        }
    }

    /// The summary `folio replay` prints (`docs/trace-format.md`), as a JSON object.
    public func summary() -> [String: Any] {
        let sorted = frameMilliseconds.sorted()
        return [
            "frames": frameCount,
            "strokes": session.book.sheet.strokes.count,
            "sheet": session.book.currentSheet + 1,
            "fold": ["state": session.mode.foldState, "scale": session.foldScale],
            "events": session.timeline.map { ["t": $0.time, "event": $0.name] as [String: Any] },
            "frameMs": ["p50": percentile(sorted, 0.5), "p99": percentile(sorted, 0.99)],
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
