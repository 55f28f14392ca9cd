/// Listener plumbing: libwayland keeps the listener pointer and hands back `data` on every
/// event, so listeners live at stable heap addresses and `data` is the owning object.

/// A C listener struct at a stable heap address, freed with its owner.
final class HeapListener<Listener> {
    let pointer: UnsafeMutablePointer<Listener>

    init(_ listener: Listener) {
        pointer = UnsafeMutablePointer<Listener>.allocate(capacity: 1)
        pointer.initialize(to: listener)
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}

/// The user data to register with a listener: `object`, not retained (its owner keeps it alive
/// and destroys the proxy before it goes).
func userData(_ object: AnyObject) -> UnsafeMutableRawPointer {
    Unmanaged.passUnretained(object).toOpaque()
}

/// The object behind a listener's user data.
func owner<T: AnyObject>(_ data: UnsafeMutableRawPointer?, as type: T.Type = T.self) -> T? {
    guard let data else { return nil }
    return Unmanaged<T>.fromOpaque(data).takeUnretainedValue()
}

/// Turns the 32-bit millisecond timestamps of Wayland events (and frame callbacks) into an
/// ever-growing Double, surviving the wrap every 49.7 days. Input and frame callbacks share
/// one clock, so the session sees one timeline.
struct EventClock {
    private var last: UInt32?
    private var epochs: Double = 0

    mutating func milliseconds(_ time: UInt32) -> Double {
        if let last, time < last, last - time > UInt32.max / 2 { epochs += 1 }
        last = time
        return epochs * 4_294_967_296 + Double(time)
    }

    /// The latest time seen (for events that carry none, like wl_touch.frame).
    var latest: Double {
        guard let last else { return 0 }
        return epochs * 4_294_967_296 + Double(last)
    }
}
