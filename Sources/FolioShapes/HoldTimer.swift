import FolioGeometry

/// Tells when a stroke's end has been held still: it stays within `radius` of where it last
/// stopped for `duration`. A held finger sends no events, so whoever keeps the clock (the frame
/// loop) asks for `deadline` and checks again then.
public struct HoldTimer: Hashable, Sendable {
    /// How far (logical px) the end may wander and still be held: a fingertip's tremor.
    public static let radius = 4.0
    /// How long (ms) it is held before the stroke is recognised.
    public static let duration = 500.0

    private var anchor: Point
    private var since: Double
    private var spent = false

    /// A stroke that began at `p` at `time` (ms).
    public init(at p: Point, time: Double) {
        anchor = p
        since = time
    }

    /// The end moved to `p` at `time`: farther than `radius` from where it stopped, a new hold begins there.
    public mutating func moved(to p: Point, at time: Double) {
        guard p.distance(to: anchor) > Self.radius else { return }
        anchor = p
        since = time
        spent = false
    }

    /// When (ms) the current hold completes; nil once it has been used.
    public var deadline: Double? { spent ? nil : since + Self.duration }

    /// The hold has been acted on: nothing more until the end moves on and stops again.
    public mutating func spend() {
        spent = true
    }
}
