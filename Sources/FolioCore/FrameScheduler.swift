/// When to draw a live stroke's frame: not as soon as the compositor is ready, but just before
/// the repaint deadline of the vblank it will make, so it carries the newest input and is seen
/// no later than a frame drawn at once. The deadline comes from a `PresentationForecast`; the
/// margin before it is learned from the frame loop's own render costs.
///
/// Margin: the slowest of the last 64 frames' costs (their 99th percentile) plus 1 ms, plus 2 ms
/// for each vblank missed (a compositor whose deadline is earlier than forecast), clamped to
/// 1 ms … half a refresh (half a refresh before any cost is known). The slowest recent cost
/// rather than a mean: a frame drawn late has no second chance, and one cost spike must not cost
/// a vblank; 1 ms covers the wake-up delay and the hand-over to the compositor.
public struct FrameScheduler: Sendable {
    /// Frame costs remembered (ms), oldest first.
    private var costs: [Double] = []
    /// Extra margin (ms) after missed vblanks, kept: a compositor's deadline does not move back.
    private var missAllowance = 0.0
    /// Vblanks a late frame aimed for and missed.
    public private(set) var missedFrames = 0
    /// Frames committed late, for the vblank they aimed at.
    public private(set) var lateFrames = 0

    static let remembered = 64
    static let constant = 1.0
    static let missPenalty = 2.0
    /// A render cost taken in (ms): longer ones are clamped, not trusted to mean anything.
    static let costRange = 0.0...1000.0

    public init() {}

    /// The margin (ms) to commit ahead of a deadline on a display refreshing every `interval` ms.
    /// Before any frame's cost is known, the most it may be.
    public func margin(interval: Double) -> Double {
        let most = max(Self.constant, interval / 2)
        guard let slowest = costs.max() else { return most }
        return min(max(slowest + Self.constant + missAllowance, Self.constant), most)
    }

    /// The vblank (ms) to draw the next frame for, and when to start drawing it if not now (nil:
    /// now). The frame `forecast` says a commit now would make is drawn at its deadline less the
    /// margin; from then the wake-up's own slack (1 ms) still makes it, and later it would risk
    /// the deadline, so the frame waits for the next vblank's moment instead.
    public func plan(for forecast: PresentationForecast, now: Double) -> (vblank: Double, wake: Double?) {
        let interval = forecast.refreshInterval
        guard forecast.time.isFinite, interval > 0, interval.isFinite, now.isFinite else { return (forecast.time, nil) }
        let start = forecast.time - forecast.repaintWindow - margin(interval: interval)
        if now < start { return (forecast.time, start) }
        if now <= start + Self.constant { return (forecast.time, nil) }
        return (forecast.time + interval, start + interval > now ? start + interval : nil)
    }

    /// A frame cost `milliseconds` to draw and commit.
    public mutating func rendered(cost milliseconds: Double) {
        guard !milliseconds.isNaN else { return }
        if costs.count == Self.remembered { costs.removeFirst() }
        costs.append(min(max(milliseconds, Self.costRange.lowerBound), Self.costRange.upperBound))
    }

    /// A late frame aimed at the vblank `target` (ms) was seen at `presented`, on a display
    /// refreshing every `interval` ms: more than half a refresh later is a missed vblank.
    public mutating func presented(target: Double, at presented: Double, interval: Double) {
        lateFrames += 1
        guard presented > target + interval / 2 else { return }
        missedFrames += 1
        missAllowance = min(missAllowance + Self.missPenalty, interval)
    }
}
