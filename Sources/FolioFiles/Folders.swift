#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Making the folders Folio writes into, with errors in the system's words (never Foundation's
/// error domains) naming the folder given.
public enum Folders {
    /// mkdir -p: `path` and each missing folder above it, made from the top down with `mode`
    /// (less the umask). An existing folder is fine; the caller checks what it found there.
    public static func make(_ path: String, mode: mode_t = 0o777) throws(FileWriteError) {
        try make(OutputFolder.trimmed(path), mode: mode, reported: path)
    }

    private static func make(_ name: String, mode: mode_t, reported path: String) throws(FileWriteError) {
        if mkdir(name, mode) == 0 || errno == EEXIST { return }
        guard errno == ENOENT else { throw failure(path) }
        let (parent, _) = AtomicFile.split(name)
        guard parent != name, parent != "." else { throw failure(path) }
        try make(parent, mode: mode, reported: path)
        guard mkdir(name, mode) == 0 || errno == EEXIST else { throw failure(path) }
    }

    private static func failure(_ path: String) -> FileWriteError {
        FileWriteError(path: path, kind: .failed, reason: "cannot create the folder: \(errnoText())")
    }
}
