#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A read(2) that failed, in strerror(3)'s words.
public struct ReadFailure: Error, Equatable {
    public let words: String
}

/// Everything `fd` holds from its position to its end. `sizeHint` (fstat's size) sizes the
/// buffer at once; a file that grows meanwhile is still read to its end. A read interrupted by a
/// signal (EINTR) is repeated; any other failure stops it.
public func readFully(_ fd: Int32, sizeHint: Int) throws(ReadFailure) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: max(sizeHint, 0))
    var filled = 0
    while true {
        if filled == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(4096, bytes.count / 4))) }
        let count = bytes.withUnsafeMutableBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            return read(fd, base + filled, buffer.count - filled)
        }
        if count < 0 {
            if errno == EINTR { continue }
            throw ReadFailure(words: errnoText())
        }
        if count == 0 { break }
        filled += count
    }
    bytes.removeSubrange(filled...)
    return bytes
}

/// strerror(3)'s words for the current errno.
public func errnoText() -> String {
    String(cString: strerror(errno))
}
