/// The compositor's repaint cycle as frame callbacks show it, where no presentation feedback
/// does (KWin 5.27 sends a surface's callbacks as it repaints): the newest callback's arrival
/// and the refresh, trusted only once callbacks keep to one grid. A compositor that answers at
/// once (no clock) answers when the client commits, off any grid, and is never trusted.
/// Times are ms on `monotonicMilliseconds()`'s timeline.
struct CallbackCadence {
    private var last: Double?
    /// The shortest gap between two callbacks so far (4–100 ms, 250 Hz to 10 Hz): the refresh.
    private var interval: Double?
    /// Callbacks in a row whose gap was a whole number (1–8) of refreshes, to 1 ms.
    private var steady = 0

    static let intervals = 4.0...100.0
    static let tolerance = 1.0
    static let trustedAfter = 4

    mutating func arrived(at time: Double) {
        defer { last = time }
        guard let last, time > last else { return }
        let gap = time - last
        if Self.intervals.contains(gap), gap < (interval ?? .infinity) - Self.tolerance {
            interval = gap
            steady = 0
            return
        }
        if Self.intervals.contains(gap) { interval = min(interval ?? gap, gap) }
        guard let interval else { return }
        let refreshes = (gap / interval).rounded()
        steady = (1...8).contains(refreshes) && abs(gap - refreshes * interval) <= Self.tolerance ? steady + 1 : 0
    }

    /// The newest callback's time and the refresh, once steady; nil before.
    var cycle: (time: Double, interval: Double)? {
        guard steady >= Self.trustedAfter, let last, let interval else { return nil }
        return (last, interval)
    }
}
