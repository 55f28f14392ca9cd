#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The shelf's scroll as a finger moves it: it follows the finger at once, and when the finger
/// lifts moving it glides on, slowing exponentially (as iOS's scroll views do), stopping at
/// either end. Times are ms, distances logical px; the offset is how far the shelf is scrolled down.
public struct ShelfScroller: Equatable, Sendable {
    /// How fast a glide slows: its speed falls by e each this many ms.
    public static let glideTimeConstant = 325.0
    /// Below this speed (px/ms) a glide stops.
    public static let stopSpeed = 0.02
    /// The finger's speed is measured over its last moves within this many ms.
    public static let velocityWindow = 100.0

    public private(set) var offset = 0.0
    /// How far the shelf scrolls at most (0: it all fits).
    public private(set) var limit = 0.0
    /// The glide's speed (px/ms, positive scrolling down) and when it was last advanced.
    public private(set) var velocity = 0.0
    private var glideTime = 0.0
    private var drag: Drag?

    private struct Drag: Equatable {
        var startOffset: Double
        var startY: Double
        var samples: [Sample]
    }

    private struct Sample: Equatable {
        var time: Double
        var y: Double
    }

    public init() {}

    /// Whether the shelf glides on its own (frames are wanted without input).
    public var isGliding: Bool { velocity != 0 && drag == nil }

    /// A new limit (the window or the books changed): the offset stays within it.
    public mutating func setLimit(_ limit: Double) {
        self.limit = max(0, limit.isFinite ? limit : 0)
        offset = min(max(offset, 0), self.limit)
    }

    /// A finger landed at height `y`: any glide stops under it.
    public mutating func begin(y: Double, at time: Double) {
        velocity = 0
        drag = Drag(startOffset: offset, startY: y, samples: [Sample(time: time, y: y)])
    }

    /// The finger moved to height `y`; returns whether the offset changed.
    public mutating func move(y: Double, at time: Double) -> Bool {
        guard var drag else { return false }
        drag.samples.append(Sample(time: time, y: y))
        drag.samples.removeAll { $0.time < time - Self.velocityWindow }
        self.drag = drag
        let old = offset
        offset = min(max(drag.startOffset - (y - drag.startY), 0), limit)
        return offset != old
    }

    /// The finger lifted at `time`: the shelf glides on at the finger's recent speed.
    public mutating func end(at time: Double) {
        guard let drag else { return }
        self.drag = nil
        let recent = drag.samples.filter { $0.time >= time - Self.velocityWindow }
        guard let first = recent.first, let last = recent.last, last.time > first.time else { return }
        let speed = -(last.y - first.y) / (last.time - first.time)
        velocity = abs(speed) >= Self.stopSpeed && speed.isFinite ? speed : 0
        glideTime = time
    }

    /// The glide at `time`; returns whether the offset changed.
    public mutating func advance(to time: Double) -> Bool {
        guard isGliding, time > glideTime else { return false }
        let dt = time - glideTime, tau = Self.glideTimeConstant
        let decay = exp(-dt / tau)
        let old = offset
        offset += velocity * tau * (1 - decay)
        velocity *= decay
        glideTime = time
        if offset <= 0 || offset >= limit || abs(velocity) < Self.stopSpeed {
            offset = min(max(offset, 0), limit)
            velocity = 0
        }
        return offset != old
    }
}
