#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file too large to hold in memory (a video), written the way `AtomicFile` writes: into a new
/// temporary beside the target (`O_EXCL | O_NOFOLLOW`, an unpredictable name), synced and renamed
/// over the target only when `commit()` is called. Until then the target is as it was, and
/// `discard()` (or a failed commit) removes the temporary, so nothing partial is ever left.
public final class StreamedFile {
    /// The target.
    public let path: String
    /// The temporary's path, where the bytes go until `commit()`.
    public let temporaryPath: String
    /// The temporary, open for reading and writing (a muxer may go back to rewrite its headers).
    public let descriptor: Int32
    private let permissions: mode_t?
    private var open = true

    /// Creates the temporary for `path`; refuses a link or anything but a regular file at `path`.
    /// `mode` as in `AtomicFile.replace`: nil keeps an existing file's bits.
    public init(_ path: String, mode: mode_t?) throws(FileWriteError) {
        let (folder, name) = AtomicFile.split(path)
        let existing = try AtomicFile.existingMode(of: path, named: name)
        permissions = mode ?? existing
        // Read and write: a muxer reads back what it wrote (to move an index to the front).
        let (fd, temporary) = try AtomicFile.createTemporary(in: folder, for: name, mode: permissions ?? 0o666, target: path,
                                                             access: O_RDWR)
        self.path = path
        temporaryPath = temporary
        descriptor = fd
    }

    deinit {
        if open { discard() }
    }

    /// Syncs the temporary, renames it over the target and syncs the folder; on failure the
    /// temporary is removed and the target is as it was.
    public func commit() throws(FileWriteError) {
        guard open else { return }
        open = false
        var problem: String?
        if let permissions, fchmod(descriptor, permissions) != 0 { problem = "fchmod: \(String(cString: strerror(errno)))" }
        if problem == nil, fsync(descriptor) != 0 { problem = "fsync: \(String(cString: strerror(errno)))" }
        if close(descriptor) != 0, problem == nil { problem = "close: \(String(cString: strerror(errno)))" }
        if problem == nil, rename(temporaryPath, path) != 0 { problem = "rename: \(String(cString: strerror(errno)))" }
        if let problem {
            unlink(temporaryPath)
            throw FileWriteError(path: path, kind: .failed, reason: problem)
        }
        try AtomicFile.syncFolder(AtomicFile.split(path).folder, for: path)
    }

    /// Closes and removes the temporary: the target stays as it was.
    public func discard() {
        guard open else { return }
        open = false
        close(descriptor)
        unlink(temporaryPath)
    }
}
