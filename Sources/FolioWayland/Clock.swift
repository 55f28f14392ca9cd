import Glibc

/// One timeline for the session: our CLOCK_MONOTONIC in milliseconds. Compositors stamp input
/// and frame callbacks in ms "with an undefined base", and not always the same base (KWin 5.27's
/// frame callbacks and its input events differ by hours), so every time is brought onto ours.
public func monotonicMilliseconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1_000_000
}

/// Maps the 32-bit millisecond stamps of input events onto `monotonicMilliseconds()`, keeping the
/// compositor's spacing between events (what smoothing and the 300 ms pinch window care about).
/// An event is read after it happened, so the offset is the smallest (arrival − stamp) seen: the
/// least-delayed event. A mapped time never lies in the future. Survives the 49.7-day wrap.
struct InputClock {
    private var last: UInt32?
    private var epochs: Double = 0
    private var offset: Double?
    private(set) var latest: Double = 0

    mutating func milliseconds(_ stamp: UInt32, arrivedAt now: Double = monotonicMilliseconds()) -> Double {
        if let last, stamp < last, last - stamp > UInt32.max / 2 { epochs += 1 }
        last = stamp
        let time = epochs * 4_294_967_296 + Double(stamp)
        offset = min(offset ?? .infinity, now - time)
        latest = time + (offset ?? 0)
        return latest
    }
}
