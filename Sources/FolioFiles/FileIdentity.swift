#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file or folder as the kernel knows it (device and inode): the same for every path that
/// reaches it, links, `..` and bind mounts included, where comparing paths is not.
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    /// What `path` names, links followed; nil when there is nothing there.
    public init?(_ path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    /// The file `status` describes.
    public init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    /// The folders `path` lies in, from its own folder up to `/`, followed the way the kernel
    /// follows them (`..` of each), so every other path to them is covered too.
    public static func folders(containing path: String) -> [FileIdentity] {
        var found: [FileIdentity] = []
        var folder = AtomicFile.split(path).folder
        while let identity = FileIdentity(folder), !found.contains(identity) {
            found.append(identity)
            folder += "/.."
        }
        return found
    }
}
