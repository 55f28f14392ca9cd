import Foundation

/// What can go wrong with a sketchbook on disk; each says what and where in one line.
public enum BookError: Error, CustomStringConvertible, Equatable {
    /// The file exists but cannot be read as a book. It is left exactly as it is.
    case damaged(path: String, reason: String)
    /// Reading or writing failed (permissions, a full disk, …); the saved book is unchanged.
    case io(path: String, reason: String)
    /// A symbolic link where Folio keeps a file: refused, never followed or replaced.
    case symlink(path: String)
    /// Another Folio holds the book's write lock; `pid` is nil when it could not be read.
    case inUse(path: String, pid: Int32?)

    public var description: String {
        switch self {
        case let .damaged(path, reason): "\(path) is damaged and was left untouched: \(reason)"
        case let .io(path, reason): "\(path): \(reason)"
        case let .symlink(path): "\(path) is a symbolic link, which Folio neither follows nor replaces"
        case let .inUse(path, pid): "\(path) is in use by another Folio (pid \(pid.map(String.init) ?? "unknown"))"
        }
    }
}

/// A sketchbook folder (`$XDG_DATA_HOME/folio/` by default) holding `book.json`.
/// Anyone may read it (`load`); writing goes through `openForWriting`, which locks the book.
public struct BookStore: Sendable {
    public let directory: URL
    public var file: URL { directory.appendingPathComponent("book.json") }
    /// Locked with `flock` by the one Folio writing the book; holds that Folio's pid.
    public var lockFile: URL { directory.appendingPathComponent(".folio.lock") }

    public init(directory: URL) {
        self.directory = directory
    }

    /// The default folder: `$XDG_DATA_HOME/folio`, or `~/.local/share/folio`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return URL(fileURLWithPath: data).appendingPathComponent("folio")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/folio")
    }

    /// The saved book; a new empty one when the folder holds none yet. Reads without locking:
    /// saves rename a complete file into place, so this sees one whole save.
    public func load() throws -> Sketchbook {
        let path = file.path
        // O_NONBLOCK: a FIFO planted here must not hang the open; it is refused below.
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            var status = stat()
            if code == ELOOP, lstat(path, &status) == 0, isLink(status) { throw BookError.symlink(path: path) }
            if code == ENOENT { return Sketchbook() }
            throw BookError.io(path: path, reason: "cannot read: \(String(cString: strerror(code)))")
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw BookError.io(path: path, reason: "cannot read: fstat: \(errnoText())") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw BookError.io(path: path, reason: "cannot read: not a regular file") }
        let data: Data
        do {
            data = try handle.readToEnd() ?? Data()
        } catch {
            throw BookError.io(path: path, reason: "cannot read: \(error.localizedDescription)")
        }
        return try BookFile.decode(data, path: path)
    }

    /// Whether `path` names a file in this book's folder (links in the folders resolved): where
    /// an export must never go, since it could replace `book.json`.
    public func holds(_ path: String) -> Bool {
        guard let parent = Self.resolved(URL(fileURLWithPath: path).deletingLastPathComponent().path) else { return false }
        let book = Self.resolved(directory.path) ?? directory.standardizedFileURL.path
        return parent == book || parent.hasPrefix(book + "/")
    }

    private static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// Takes the book for writing: creates the folder (0700) if missing, takes its lock — or fails
    /// at once with `.inUse` — and removes temporary files a crashed save left behind.
    public func openForWriting() throws -> BookWriter {
        try createFolder()
        let writer = BookWriter(store: self, lock: try lock())
        try removeOrphanedTemporaries()
        return writer
    }

    private func createFolder() throws {
        let path = directory.path
        do {
            try FileManager.default.createDirectory(at: directory.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw BookError.io(path: path, reason: "cannot create the folder: \(error.localizedDescription)")
        }
        if mkdir(path, 0o700) == 0 {
            // chmod, not mkdir's mode alone: the umask may have removed bits.
            guard chmod(path, 0o700) == 0 else { throw BookError.io(path: path, reason: "chmod: \(errnoText())") }
        } else if errno != EEXIST {
            throw BookError.io(path: path, reason: "cannot create the folder: \(errnoText())")
        }
    }

    /// The locked lock file's descriptor, with this process's pid written in it.
    private func lock() throws -> Int32 {
        let path = lockFile.path
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == ELOOP { throw BookError.symlink(path: path) }
            throw BookError.io(path: path, reason: "cannot open the lock file: \(errnoText())")
        }
        var failure: String?
        var status = stat()
        if fstat(fd, &status) != 0 {
            failure = "fstat: \(errnoText())"
        } else if status.st_mode & S_IFMT != S_IFREG {
            failure = "not a regular file"
        } else if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EWOULDBLOCK {
                let holder = Self.holder(of: fd)
                close(fd)
                throw BookError.inUse(path: directory.path, pid: holder)
            }
            failure = "flock: \(errnoText())"
        } else if fchmod(fd, 0o600) != 0 {
            failure = "fchmod: \(errnoText())"
        } else if ftruncate(fd, 0) != 0 {
            failure = "ftruncate: \(errnoText())"
        } else {
            let pid = Data("\(getpid())\n".utf8)
            let written = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
            if written != pid.count { failure = "cannot write the pid: \(errnoText())" }
        }
        if let failure {
            close(fd)
            throw BookError.io(path: path, reason: failure)
        }
        return fd
    }

    /// The pid in a lock file another Folio holds. It writes the pid just after locking, so an
    /// empty file is read again for a moment before giving up.
    private static func holder(of fd: Int32) -> Int32? {
        for _ in 0..<50 {
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
            if count > 0, let pid = Int32(String(decoding: buffer[..<count], as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)) {
                return pid
            }
            usleep(10_000)
        }
        return nil
    }

    /// Removes the temporary files of saves that never finished (a crash, kill -9). Only regular
    /// files with Folio's temporary names; links are left alone. Called with the lock held, so no
    /// save is under way.
    private func removeOrphanedTemporaries() throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw BookError.io(path: directory.path, reason: "cannot list the folder: \(error.localizedDescription)")
        }
        for name in names where AtomicFile.isTemporary(name, for: file.lastPathComponent) {
            let path = directory.appendingPathComponent(name).path
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            guard unlink(path) == 0 else {
                throw BookError.io(path: path, reason: "cannot remove this temporary file of an unfinished save: \(errnoText())")
            }
        }
    }
}

/// A book open for writing: holds the book's lock until it is released (at exit at the latest),
/// so no other Folio writes the book meanwhile.
public final class BookWriter: Sendable {
    public let store: BookStore
    private let lockDescriptor: Int32

    fileprivate init(store: BookStore, lock: Int32) {
        self.store = store
        lockDescriptor = lock
    }

    deinit {
        // Closing the descriptor releases the flock; the lock file stays for the next writer.
        close(lockDescriptor)
    }

    /// Saves atomically (temporary file, fsync, rename, fsync of the folder); `book.json` is 0600.
    public func save(_ book: Sketchbook) throws {
        try AtomicFile.replace(store.file.path, with: try BookFile.encode(book), mode: 0o600,
                               failure: "cannot save (the previous save is kept)")
    }
}
