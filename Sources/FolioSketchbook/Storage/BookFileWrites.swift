import FolioFiles
import Foundation

extension BookError {
    /// A failed write of one of the book's files (`AtomicFile`), in the book's words: `failure`
    /// says what was not done and what is kept.
    public init(_ error: FileWriteError, failure: String) {
        self = error.kind == .symbolicLink ? .symlink(path: error.path) : .io(path: error.path, reason: error.message(failure: failure))
    }
}

func isLink(_ status: stat) -> Bool {
    status.st_mode & S_IFMT == S_IFLNK
}
