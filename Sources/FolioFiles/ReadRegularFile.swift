#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file a person named (a trace, a settings file) that cannot be read, in one line naming it.
public struct FileReadError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path) \(reason)" }
}

/// The whole regular file at `path` (links followed), or nil when nothing is there; an empty
/// path is refused rather than read as the current folder. A folder, a FIFO, a device or a
/// socket is refused by its kind before it is opened, and the open does not block: a FIFO
/// swapped in meanwhile cannot hang the read.
public func readRegularFile(_ path: String) throws(FileReadError) -> [UInt8]? {
    guard !path.isEmpty else { throw FileReadError(path: "\"\"", reason: "is an empty path, which names no file") }
    var status = stat()
    guard stat(path, &status) == 0 else {
        if errno == ENOENT { return nil }
        throw FileReadError(path: path, reason: "cannot be read: \(errnoText())")
    }
    try requireRegular(status, path)
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { throw FileReadError(path: path, reason: "cannot be read: \(errnoText())") }
    defer { close(fd) }
    guard fstat(fd, &status) == 0 else { throw FileReadError(path: path, reason: "cannot be read: \(errnoText())") }
    try requireRegular(status, path)
    do {
        return try readFully(fd, sizeHint: Int(status.st_size))
    } catch {
        throw FileReadError(path: path, reason: "cannot be read: \(error.words)")
    }
}

private func requireRegular(_ status: stat, _ path: String) throws(FileReadError) {
    let kind: String?
    switch status.st_mode & S_IFMT {
    case S_IFREG: return
    case S_IFDIR: throw FileReadError(path: path, reason: "is a folder, not a file")
    case S_IFIFO: kind = "a FIFO"
    case S_IFCHR: kind = "a character device"
    case S_IFBLK: kind = "a block device"
    case S_IFSOCK: kind = "a socket"
    default: kind = nil
    }
    throw FileReadError(path: path, reason: kind.map { "is \($0), not a regular file" } ?? "is not a regular file")
}
