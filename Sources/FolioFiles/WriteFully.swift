#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes every byte of `bytes` to `fd`: at `offset` with pwrite(2) when one is given, else at the
/// file's position. A write may take fewer bytes than asked, or be interrupted by a signal before
/// taking any (EINTR), so it is repeated until all are written; any other failure stops it.
/// Returns strerror(3)'s words for that failure, or nil once everything is written.
public func writeFully(_ bytes: UnsafeRawBufferPointer, to fd: Int32, at offset: Int? = nil) -> String? {
    guard let base = bytes.baseAddress else { return nil }
    var done = 0
    while done < bytes.count {
        let written = if let offset {
            pwrite(fd, base + done, bytes.count - done, off_t(offset + done))
        } else {
            write(fd, base + done, bytes.count - done)
        }
        if written >= 0 {
            done += written
        } else if errno != EINTR {
            return String(cString: strerror(errno))
        }
    }
    return nil
}
