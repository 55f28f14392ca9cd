import Foundation

/// What can go wrong with a sketchbook on disk; each says what and where in one line.
public enum BookError: Error, CustomStringConvertible, Equatable {
    /// The file exists but cannot be read as a book. It is left exactly as it is.
    case damaged(path: String, reason: String)
    /// Reading or writing failed (permissions, a full disk, …); the saved book is unchanged.
    case io(path: String, reason: String)

    public var description: String {
        switch self {
        case let .damaged(path, reason): "\(path) is damaged and was left untouched: \(reason)"
        case let .io(path, reason): "\(path): \(reason)"
        }
    }
}

/// A sketchbook folder (`$XDG_DATA_HOME/folio/` by default) holding `book.json`.
/// Saves are atomic: a new file is written and synced beside the old one, then renamed over
/// it, so a crash or a full disk leaves either the old book or the new one, never a mix.
public struct BookStore: Sendable {
    public let directory: URL
    public var file: URL { directory.appendingPathComponent("book.json") }

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

    /// The saved book; a new empty one when the folder holds none yet.
    public func load() throws -> Sketchbook {
        let path = file.path
        guard FileManager.default.fileExists(atPath: path) else { return Sketchbook() }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw BookError.io(path: path, reason: "cannot read: \(error.localizedDescription)")
        }
        return try BookFile.decode(data, path: path)
    }

    /// Saves atomically: temp file, fsync, rename, fsync of the folder.
    public func save(_ book: Sketchbook) throws {
        let data = try BookFile.encode(book)
        let path = file.path
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw BookError.io(path: directory.path, reason: "cannot create the folder: \(error.localizedDescription)")
        }
        let temporary = directory.appendingPathComponent(".book.json.\(getpid()).tmp").path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw BookError.io(path: path, reason: "cannot save: \(errnoText())") }
        var failure: String?
        data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count, failure == nil {
                let written = write(fd, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno != EINTR { failure = errnoText() }
                } else {
                    offset += written
                }
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = errnoText() }
        if close(fd) != 0, failure == nil { failure = errnoText() }
        if failure == nil, rename(temporary, path) != 0 { failure = errnoText() }
        if let failure {
            unlink(temporary)
            throw BookError.io(path: path, reason: "cannot save (the previous save is kept): \(failure)")
        }
        let directoryFD = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
    }
}

private func errnoText() -> String {
    String(cString: strerror(errno))
}
