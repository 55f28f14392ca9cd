import Glibc

/// A value shared between the main thread and a background queue (the autosaver's, the picture
/// keeper's), behind a pthread mutex.
///
/// Not Synchronization's `Mutex`: on Linux a contended `Mutex` is handed over inside the kernel
/// (a priority-inheriting futex), where ThreadSanitizer cannot see it, so it reported every
/// contended access as a data race and stopped the app under `make sanitize`. pthread mutexes
/// are what the sanitizer understands.
public final class Locked<Value: ~Copyable>: @unchecked Sendable {
    private let lock = SerialLock()
    private var value: Value

    public init(_ value: consuming Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}

/// A pthread mutex guarding work rather than a value: one file writer at a time.
///
/// Not `Locked<Void>`: an empty value lies just past the end of its object, in bytes a freed
/// object of another thread may have used, so ThreadSanitizer took each access to it for a race.
public final class SerialLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
