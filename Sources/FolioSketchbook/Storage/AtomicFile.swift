import FolioFiles
import Foundation

/// Replaces a whole file so that readers see the old contents or the new, never a mix, and no
/// link planted beside it can redirect the write: the data goes to a new file under an
/// unpredictable name, created with `O_EXCL | O_NOFOLLOW`, is synced, then renamed over the target.
public enum AtomicFile {
    /// Writes `data` to `path`. `mode` is the file's permission bits, set explicitly so the umask
    /// cannot widen them; nil keeps an existing file's bits, or gives a new file the umask's
    /// default. A symbolic link at `path` is refused, never followed or replaced. Errors are
    /// `BookError`s whose reason starts with `failure`.
    public static func replace(_ path: String, with data: Data, mode: mode_t?, failure: String) throws {
        var status = stat()
        var existingMode: mode_t?
        if lstat(path, &status) == 0 {
            guard !isLink(status) else { throw BookError.symlink(path: path) }
            guard status.st_mode & S_IFMT == S_IFREG else {
                throw BookError.io(path: path, reason: "\(failure): not a regular file")
            }
            existingMode = status.st_mode & 0o7777
        } else if errno != ENOENT {
            throw BookError.io(path: path, reason: "\(failure): lstat: \(errnoText())")
        }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let permissions = mode ?? existingMode
        let (fd, temporary) = try createTemporary(in: folder, for: url.lastPathComponent,
                                                  mode: permissions ?? 0o666, failure: failure, target: path)
        var problem: String?
        // fchmod, not the open's mode: the umask may have removed bits, and this is what the file must have.
        if let permissions, fchmod(fd, permissions) != 0 { problem = "fchmod: \(errnoText())" }
        if problem == nil { problem = data.withUnsafeBytes { writeFully($0, to: fd) }.map { "write: \($0)" } }
        if problem == nil, fsync(fd) != 0 { problem = "fsync: \(errnoText())" }
        if close(fd) != 0, problem == nil { problem = "close: \(errnoText())" }
        if problem == nil, rename(temporary, path) != 0 { problem = "rename: \(errnoText())" }
        if let problem {
            // Best effort: the error below is the one to report, and a book's next open removes leftovers.
            unlink(temporary)
            throw BookError.io(path: path, reason: "\(failure): \(problem)")
        }
        // The rename is durable only once the folder is synced.
        try syncFolder(folder, for: path)
    }

    /// Makes the names in `folder` durable (a rename or a new file in it); the error names `path`.
    static func syncFolder(_ folder: String, for path: String) throws {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0, fsync(fd) == 0 else {
            let text = errnoText()
            if fd >= 0 { close(fd) }
            throw BookError.io(path: path, reason: "written, but the folder could not be synced: \(text)")
        }
        close(fd)
    }

    /// `.NAME.<16 random hex digits>.tmp`: a name nobody can plant a link under in advance.
    static func temporaryName(for name: String) -> String {
        let digits = String(UInt64.random(in: .min ... .max), radix: 16)
        return ".\(name).\(String(repeating: "0", count: 16 - digits.count))\(digits).tmp"
    }

    /// Whether `name` is a temporary file made for `target`: today's random names, and the
    /// `.NAME.PID.tmp` names of earlier Folios.
    static func isTemporary(_ name: String, for target: String) -> Bool {
        let prefix = ".\(target).", suffix = ".tmp"
        guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.count > prefix.count + suffix.count else { return false }
        return name.dropFirst(prefix.count).dropLast(suffix.count).allSatisfy { "0123456789abcdef".contains($0) }
    }

    /// Opens a new file at `path` that did not exist before; a link or any file already there is an error.
    static func createExclusive(_ path: String, mode: mode_t) -> Int32 {
        open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
    }

    private static func createTemporary(in folder: String, for name: String, mode: mode_t,
                                        failure: String, target: String) throws -> (Int32, String) {
        // A clash with 64 random bits means something is planting names: a few tries, then give up.
        for _ in 0..<8 {
            let path = folder + "/" + temporaryName(for: name)
            let fd = createExclusive(path, mode: mode)
            if fd >= 0 { return (fd, path) }
            guard errno == EEXIST else {
                throw BookError.io(path: target, reason: "\(failure): cannot create \(path): \(errnoText())")
            }
        }
        throw BookError.io(path: target, reason: "\(failure): every temporary name tried in \(folder) was taken")
    }
}

func isLink(_ status: stat) -> Bool {
    status.st_mode & S_IFMT == S_IFLNK
}

func errnoText() -> String {
    String(cString: strerror(errno))
}
