import Foundation

/// The compositor's repaint cycle as frame callbacks show it, where no presentation feedback
/// does (KWin 5.27 sends a surface's callbacks as it repaints). Read from the callbacks' own
/// timestamps (ms, the compositor's base), which keep its grid however late each one reaches
/// the client, brought onto our timeline by the smallest (arrival − stamp) seen: the
/// least-delayed callback. Trusted once enough in a row lie on the grid of the two before them
/// that stamps at random would fit so by chance less than once in 500 (four at 60 Hz, seven at
/// 120 Hz: a finer grid is easier to hit); a compositor that answers at once (no clock) answers
/// when the client commits, off any grid, and is never trusted.
///
/// What a real compositor's stamps do, and how each is taken (KWin 5.27 headless, recorded):
/// - a second callback within one refresh carries the same stamp: the same vblank, skipped;
/// - an idle pause keeps the grid: a gap of many refreshes is judged against a refresh known
///   from a run long enough that its error over the gap stays within the tolerance;
/// - one stamp off the grid (a repaint outside the cycle) suspends trust for that callback only;
///   a second in a row means the grid moved, and it is learned again.
/// Times are ms on `monotonicMilliseconds()`'s timeline.
struct CallbackCadence {
    /// The first stamp of the current run on one grid, the newest stamp on it, and the refreshes between.
    private var anchor: Double?
    private var last: Double?
    private var refreshes = 0
    /// The refresh: the shortest gap seen (4–100 ms, 250 Hz to 10 Hz), then the run's mean.
    private var interval: Double?
    private var offset = Double.infinity
    /// Callbacks in a row on the grid.
    private var steady = 0
    /// A stamp off the trusted grid and when it came, while the newest callback is off it.
    private var stray: (stamp: Double, arrival: Double)?

    static let intervals = 4.0...100.0
    /// Stamps are whole ms: a callback within this of the grid is on it.
    static let tolerance = 1.5
    /// The chance a run of random stamps may have of passing for a grid.
    static let chanceFit = 0.002
    /// Refreshes a gap may span while the run is short; a run of n refreshes judges gaps of up
    /// to n/2 (its mean's error, under 1 ms over n, then adds under 0.5 ms to the gap's).
    static let shortReach = 8

    /// Callbacks in a row on a grid of `interval` ms before it is trusted: each random stamp lands
    /// within the tolerance of it with a chance of 2·tolerance/interval (kept below 1 for the log).
    static func trustedAfter(interval: Double) -> Int {
        let hit = min(2 * tolerance / interval, 0.9)
        return max(4, Int((log(chanceFit) / log(hit)).rounded(.up)))
    }

    private var trusted: Bool {
        guard let interval else { return false }
        return steady >= Self.trustedAfter(interval: interval)
    }

    mutating func arrived(at time: Double, stamp: UInt32) {
        let stamp = Double(stamp)
        guard let last, let anchor, stamp >= last - Self.tolerance else {
            restart(at: stamp, arrival: time)
            return
        }
        let gap = stamp - last
        // The same vblank again: nothing new about the grid.
        if gap <= Self.tolerance || abs(stamp - (stray?.stamp ?? -.infinity)) <= Self.tolerance { return }
        if Self.intervals.contains(gap), gap < (interval ?? .infinity) - Self.tolerance, !trusted {
            // A shorter refresh than thought: a new grid, from the callback before (a trusted
            // grid is left only after two callbacks off it).
            restart(at: last, arrival: time - gap)
            interval = gap
            refreshes = 1
            self.last = stamp
            return
        }
        guard let interval else {
            guard Self.intervals.contains(gap) else { return restart(at: stamp, arrival: time) }
            self.interval = gap
            refreshes = 1
            self.last = stamp
            offset = min(offset, time - stamp)
            return
        }
        let step = (gap / interval).rounded()
        let reach = Double(max(Self.shortReach, refreshes / 2))
        guard step >= 1, step <= reach, abs(gap - step * interval) <= Self.tolerance else {
            strayed(at: stamp, arrival: time)
            return
        }
        stray = nil
        refreshes += Int(step)
        self.interval = (stamp - anchor) / Double(refreshes)
        self.last = stamp
        offset = min(offset, time - stamp)
        steady += 1
    }

    /// A stamp off a trusted grid is passed over once (trust suspended until the grid shows
    /// again); a second in a row means the grid moved: learned again from the first. Off a grid
    /// not yet trusted, it is learned again at once.
    private mutating func strayed(at stamp: Double, arrival: Double) {
        guard trusted else { return restart(at: stamp, arrival: arrival) }
        guard let first = stray else {
            stray = (stamp, arrival)
            return
        }
        restart(at: first.stamp, arrival: first.arrival)
        arrived(at: arrival, stamp: UInt32(stamp))
    }

    private mutating func restart(at stamp: Double, arrival: Double) {
        anchor = stamp
        last = stamp
        refreshes = 0
        steady = 0
        stray = nil
        offset = min(offset, arrival - stamp)
    }

    /// The newest callback's place on our timeline and the refresh, once steady; nil before,
    /// and while the newest callback was off the grid.
    var cycle: (time: Double, interval: Double)? {
        guard trusted, stray == nil, let last, let interval, offset.isFinite else { return nil }
        return (last + offset, interval)
    }
}
