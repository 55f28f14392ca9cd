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
