import FolioFiles
import Foundation

/// The lock every process holds while it reads, changes and writes a book's `shelf.json`: an
/// exclusive `flock` on `.shelf.json.lock` in the book's folder. The app and `folio books` each
/// keep a copy of the entry; without it one could write its older copy over a name or colour the
/// other had just written. Never the book's `.folio.lock`: the app holds that while the book is open.
/// Released when dropped.
struct EntryLock: ~Copyable {
    static let fileName = ".shelf.json.lock"
    /// How long a change the person made waits for another process's write (a few milliseconds).
    static let changePatience = 2.0
    /// How long a listing's repair of a stale index waits before leaving it for next time.
    static let repairPatience = 0.25

    private let fd: Int32

    /// Takes the lock of the book in `folder`, waiting at most `patience` seconds. A link or
    /// anything but a regular file at the lock's name is refused, never followed.
    init(_ folder: String, patience: Double) throws(ShelfError) {
        let path = folder + "/" + Self.fileName
        // O_NONBLOCK: a fifo planted at the name must not hang the open.
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            guard errno != ELOOP else { throw .io(path: path, reason: "is a symbolic link, which Folio neither follows nor replaces") }
            throw .io(path: path, reason: "cannot open the lock file: \(errnoText())")
        }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw .io(path: path, reason: "is not a regular file, so it cannot be the lock of shelf.json")
        }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, patience) * 1e9)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(fd)
                throw .io(path: path, reason: "flock: \(String(cString: strerror(code)))")
            }
            guard DispatchTime.now().uptimeNanoseconds < deadline else {
                close(fd)
                throw .io(path: path, reason: "another Folio has held it for over \(Self.seconds(patience)) s, so shelf.json is left as it is")
            }
            usleep(2000)
        }
        self.fd = fd
    }

    deinit {
        close(fd)
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
