import Foundation

/// The one way Folio writes a file: whole, so that readers see the old contents or the new,
/// never a mix, and so that nothing planted beside it is followed or destroyed. The bytes go to
/// a new file under an unpredictable name in the target's folder, created with
/// `O_EXCL | O_NOFOLLOW`, are synced, then renamed over the target, and the folder is synced.
/// A symbolic link or anything but a regular file at the target is refused and left as it is;
/// the only file ever removed is the temporary this call made, when a step fails.
public enum AtomicFile {
    /// The permission bits of the regular file at `path`, nil when there is none; a link or
    /// anything but a regular file there (or no name at all) is refused.
    static func existingMode(of path: String, named name: String) throws(FileWriteError) -> mode_t? {
        guard !name.isEmpty else { throw FileWriteError(path: path, kind: .notRegularFile) }
        var status = stat()
        guard lstat(path, &status) == 0 else {
            guard errno == ENOENT else { throw FileWriteError(path: path, kind: .failed, reason: "lstat: \(errnoText())") }
            return nil
        }
        guard status.st_mode & S_IFMT != S_IFLNK else { throw FileWriteError(path: path, kind: .symbolicLink) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw FileWriteError(path: path, kind: .notRegularFile) }
        return status.st_mode & 0o7777
    }

    /// Writes `data` to `path`. `mode` is the file's permission bits, set explicitly so the umask
    /// cannot widen them; nil keeps an existing file's bits, or gives a new file the umask's default.
    public static func replace(_ path: String, with data: Data, mode: mode_t?,
                               steps: some WriteSteps = SystemWriteSteps()) throws(FileWriteError) {
        let (folder, name) = split(path)
        let existing = try existingMode(of: path, named: name)
        let permissions = mode ?? existing
        let (fd, temporary) = try createTemporary(in: folder, for: name, mode: permissions ?? 0o666, target: path)
        var problem: String?
        // fchmod, not the open's mode: the umask may have removed bits, and this is what the file must have.
        if let permissions, fchmod(fd, permissions) != 0 { problem = "fchmod: \(errnoText())" }
        if problem == nil { problem = data.withUnsafeBytes { steps.write($0, to: fd) }.map { "write: \($0)" } }
        if problem == nil { problem = steps.sync(fd).map { "fsync: \($0)" } }
        if close(fd) != 0, problem == nil { problem = "close: \(errnoText())" }
        if problem == nil, rename(temporary, path) != 0 { problem = "rename: \(errnoText())" }
        if let problem {
            // Best effort: the error below is the one to report, and the temporary is this call's own.
            unlink(temporary)
            throw FileWriteError(path: path, kind: .failed, reason: problem)
        }
        // The rename is durable only once the folder is synced.
        try syncFolder(folder, for: path)
    }

    /// Makes the names in `folder` durable (a rename or a new file in it); the error names `path`.
    public static func syncFolder(_ folder: String, for path: String) throws(FileWriteError) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0, fsync(fd) == 0 else {
            let text = errnoText()
            if fd >= 0 { close(fd) }
            throw FileWriteError(path: path, kind: .folderNotSynced, reason: text)
        }
        close(fd)
    }

    /// The folder and the name of `path` (the folder is `.` for a bare name).
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    /// Opens a new file at `path` that did not exist before; a link or any file already there is an error.
    /// `access` is `O_WRONLY`, or `O_RDWR` for a writer that reads back what it wrote.
    public static func createExclusive(_ path: String, mode: mode_t, access: Int32 = O_WRONLY) -> Int32 {
        open(path, access | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
    }

    static func createTemporary(in folder: String, for name: String, mode: mode_t, target: String,
                                access: Int32 = O_WRONLY) throws(FileWriteError) -> (Int32, String) {
        // A clash with 64 random bits means something is planting names: a few tries, then give up.
        for _ in 0..<8 {
            let path = folder + "/" + TemporaryName.make(for: name)
            let fd = createExclusive(path, mode: mode, access: access)
            if fd >= 0 { return (fd, path) }
            guard errno == EEXIST else {
                throw FileWriteError(path: target, kind: .failed, reason: "cannot create a temporary file in \(folder): \(errnoText())")
            }
        }
        throw FileWriteError(path: target, kind: .failed, reason: "every temporary name tried in \(folder) was taken")
    }
}
