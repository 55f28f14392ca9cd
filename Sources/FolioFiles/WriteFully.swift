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
    writeFully(bytes) { base, done, count in
        if let offset { pwrite(fd, base, count, off_t(offset + done)) } else { write(fd, base, count) }
    }
}

/// The loop of `writeFully`, over any write call (`base`, bytes already written, bytes left) →
/// bytes taken or −1 with errno. A call that takes nothing, or claims more than it was given,
/// would make the loop spin or run past the buffer: it ends the write as a failure instead.
func writeFully(_ bytes: UnsafeRawBufferPointer, using write: (UnsafeRawPointer, Int, Int) -> Int) -> String? {
    guard let base = bytes.baseAddress else { return nil }
    var done = 0
    while done < bytes.count {
        let left = bytes.count - done
        let written = write(base + done, done, left)
        if written > 0 && written <= left {
            done += written
        } else if written == 0 {
            return "the file took no bytes"
        } else if written > left {
            return "the system reported writing more bytes than it was given"
        } else if errno != EINTR {
            return String(cString: strerror(errno))
        }
    }
    return nil
}
