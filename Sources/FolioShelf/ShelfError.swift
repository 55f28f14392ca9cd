import FolioFiles
import FolioSketchbook

/// What the shelf refuses or cannot do, each in one line naming the book or file.
public enum ShelfError: Error, CustomStringConvertible, Equatable {
    /// A name a book cannot have; `reason` says what is wrong with it.
    case badName(reason: String)
    /// A cover colour outside `0x000000…0xFFFFFF`.
    case badColor(UInt32)
    /// No book on the shelf (or in the trash, for undo) has this id.
    case noSuchBook(id: String)
    /// A running Folio holds the book's lock: it is neither moved nor deleted.
    case inUse(path: String, pid: Int32?, action: String)
    /// Reading or writing failed; nothing on the shelf changed.
    case io(path: String, reason: String)

    public var description: String {
        switch self {
        case let .badName(reason): "bad book name: \(reason)"
        case let .badColor(color): "cover colour \(String(color, radix: 16)) is not a colour 0xRRGGBB (000000 to ffffff)"
        case let .noSuchBook(id): "no book \(id) on the shelf"
        case let .inUse(path, pid, action):
            "\(path) is open in a running Folio (pid \(pid.map(String.init) ?? "unknown")), so it is not \(action); close it there first"
        case let .io(path, reason): "\(path): \(reason)"
        }
    }

    /// A failed `AtomicFile` write, in the shelf's words.
    init(_ error: FileWriteError, failure: String) {
        self = .io(path: error.path, reason: error.message(failure: failure))
    }

    /// A book that cannot be read, in the shelf's words (its own message names the file).
    init(_ error: any Error, path: String) {
        if let shelf = error as? ShelfError { self = shelf; return }
        self = .io(path: path, reason: "\(error)")
    }
}
