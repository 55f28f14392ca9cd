/// The compositor's repaint cycle as frame callbacks show it, where no presentation feedback
/// does (KWin 5.27 sends a surface's callbacks as it repaints). Read from the callbacks' own
/// timestamps (ms, the compositor's base), which keep its grid however late each one reaches
/// the client, brought onto our timeline by the smallest (arrival − stamp) seen: the
/// least-delayed callback. Trusted once four in a row lie on the grid of the two before them;
/// a compositor that answers at once (no clock) answers when the client commits, off any grid,
/// and is never trusted.
/// Times are ms on `monotonicMilliseconds()`'s timeline.
struct CallbackCadence {
    /// The first stamp of the current run on one grid, the newest stamp, and the refreshes between.
    private var anchor: Double?
    private var last: Double?
    private var refreshes = 0
    /// The refresh: the shortest gap seen (4–100 ms, 250 Hz to 10 Hz), then the run's mean.
    private var interval: Double?
    private var offset = Double.infinity
    /// Callbacks in a row on the grid.
    private var steady = 0

    static let intervals = 4.0...100.0
    /// Stamps are whole ms: a callback within this of the grid is on it.
    static let tolerance = 1.5
    static let trustedAfter = 4

    mutating func arrived(at time: Double, stamp: UInt32) {
        let stamp = Double(stamp)
        guard let last, let anchor, stamp > last else {
            restart(at: stamp, arrival: time)
            return
        }
        let gap = stamp - last
        if Self.intervals.contains(gap), gap < (interval ?? .infinity) - Self.tolerance {
            // A shorter refresh than thought: a new grid, from the callback before.
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
        guard (1...8).contains(step), abs(gap - step * interval) <= Self.tolerance else {
            restart(at: stamp, arrival: time)
            return
        }
        refreshes += Int(step)
        self.interval = (stamp - anchor) / Double(refreshes)
        self.last = stamp
        offset = min(offset, time - stamp)
        steady += 1
    }

    private mutating func restart(at stamp: Double, arrival: Double) {
        anchor = stamp
        last = stamp
        refreshes = 0
        steady = 0
        offset = min(offset, arrival - stamp)
    }

    /// The newest callback's place on our timeline and the refresh, once steady; nil before.
    var cycle: (time: Double, interval: Double)? {
        guard steady >= Self.trustedAfter, let last, let interval, offset.isFinite else { return nil }
        return (last + offset, interval)
    }
}
