import FolioFiles
import Foundation

/// The files of a book folder the shelf moves, and the folder operations it needs, none of which
/// follows a symbolic link.
enum BookFiles {
    /// The book itself: the journal, or the version-1 file an older Folio wrote.
    static let books = ["book.folio", "book.json"]
    /// The lock a Folio writing the book holds.
    static let lock = ".folio.lock"

    /// Whether `path` is a regular file (not a link to one).
    static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// Whether `path` is a folder (not a link to one).
    static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// The UTF-8 names in `folder`, `.` and `..` left out; empty when it cannot be listed.
    static func names(in folder: String) -> [String] {
        guard let stream = opendir(folder) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            // A name that is not UTF-8 could not be named again exactly: such an entry is left alone.
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(validating: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let name, name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Makes `path` a folder of this user's only (0700) unless it is one already; a link or
    /// anything but a folder there is refused.
    static func makeFolder(_ path: String) throws(ShelfError) {
        if mkdir(path, 0o700) == 0 {
            guard chmod(path, 0o700) == 0 else { throw .io(path: path, reason: "chmod: \(errnoText())") }
            return
        }
        guard errno == EEXIST else { throw .io(path: path, reason: "cannot create the folder: \(errnoText())") }
        do {
            try OutputFolder.check(path)
        } catch {
            throw ShelfError(error, failure: "cannot use the folder")
        }
    }

    /// Renames the folder `from` to `to` (which must not exist) and makes both names durable.
    static func move(_ from: String, to: String) throws(ShelfError) {
        guard rename(from, to) == 0 else { throw .io(path: from, reason: "cannot move it to \(to): \(errnoText())") }
        try sync((to as NSString).deletingLastPathComponent)
        try sync((from as NSString).deletingLastPathComponent)
    }

    /// fsync of a folder or file, so what is in it, or its names, survive a power cut.
    static func sync(_ path: String) throws(ShelfError) {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw .io(path: path, reason: "cannot open to sync: \(errnoText())") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw .io(path: path, reason: "fsync: \(errnoText())") }
    }

    /// Removes the temporaries the safe writer left in `folder` for `targets` when a write was
    /// killed: regular files with exactly its temporary names, nothing else.
    static func removeTemporaries(in folder: String, for targets: [String]) {
        for name in names(in: folder) where targets.contains(where: { TemporaryName.isTemporary(name, for: $0) }) {
            if isRegularFile(folder + "/" + name) { unlink(folder + "/" + name) }
        }
    }

    /// Removes `path` and everything in it; links in it are removed, never followed.
    static func removeTree(_ path: String) throws(ShelfError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        if status.st_mode & S_IFMT == S_IFDIR {
            for name in names(in: path) { try removeTree(path + "/" + name) }
            guard rmdir(path) == 0 || errno == ENOENT else { throw .io(path: path, reason: "cannot remove: \(errnoText())") }
        } else {
            guard unlink(path) == 0 || errno == ENOENT else { throw .io(path: path, reason: "cannot remove: \(errnoText())") }
        }
    }
}

/// The write lock of a book folder, as `BookStore` takes it (`flock` on `.folio.lock`), held
/// while the shelf moves the book so that no Folio opens it meanwhile; released when dropped.
struct BookLock: ~Copyable {
    private let fd: Int32

    /// Takes the lock of the book in `folder`, or throws `.inUse` at once when a Folio holds it;
    /// `action` says what was refused ("deleted", "moved onto the shelf").
    init(_ folder: String, action: String) throws(ShelfError) {
        let path = folder + "/" + BookFiles.lock
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io(path: path, reason: "cannot open the lock file: \(errnoText())") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let pid = Self.holder(fd)
            close(fd)
            guard code == EWOULDBLOCK else { throw .io(path: path, reason: "flock: \(String(cString: strerror(code)))") }
            throw .inUse(path: folder, pid: pid, action: action)
        }
        self.fd = fd
    }

    deinit {
        close(fd)
    }

    /// The pid the holder wrote at the start of the lock file.
    private static func holder(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
