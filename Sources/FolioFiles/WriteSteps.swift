#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The two steps of a replace that put the bytes on disk: the seam where tests make a write or
/// an fsync fail as a full or failing disk would, without touching any device.
public protocol WriteSteps: Sendable {
    /// Writes every byte to `fd`; strerror(3)'s words for a failure, or nil.
    func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> String?
    /// Makes what was written to `fd` durable; strerror(3)'s words for a failure, or nil.
    func sync(_ fd: Int32) -> String?
}

/// The system's write(2) and fsync(2).
public struct SystemWriteSteps: WriteSteps {
    public init() {}

    public func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> String? {
        writeFully(bytes, to: fd)
    }

    public func sync(_ fd: Int32) -> String? {
        fsync(fd) == 0 ? nil : String(cString: strerror(errno))
    }
}
