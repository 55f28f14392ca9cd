/// Why a file or folder Folio writes was refused or could not be written. Callers with words of
/// their own (the book's "the previous save is kept") put them in through `message(failure:)`.
public struct FileWriteError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// A symbolic link where the file or folder goes: never followed or replaced.
        case symbolicLink
        /// Something there that is not a regular file (a folder, a FIFO, a device): never replaced.
        case notRegularFile
        /// Something there that is not a folder, where a folder was asked for.
        case notAFolder
        /// A folder others may write into (group or world writable) that belongs to someone else.
        case sharedFolder(owner: UInt32)
        /// A step failed; `reason` names it with the system's words.
        case failed
        /// The file is in place, but its folder could not be synced: it may not survive a power cut.
        case folderNotSynced
    }

    public var path: String
    public var kind: Kind
    /// The failed step and the system's words for it (`write: No space left on device`).
    public var reason: String

    public init(path: String, kind: Kind, reason: String = "") {
        self.path = path
        self.kind = kind
        self.reason = reason
    }

    /// What the writer's own words say went wrong, after `PATH: `, opening with `failure`
    /// when nothing was written.
    public func message(failure: String) -> String {
        switch kind {
        case .symbolicLink: "is a symbolic link, which Folio neither follows nor replaces"
        case .notRegularFile: "\(failure): not a regular file, which Folio never replaces"
        case .notAFolder: "is not a folder"
        case let .sharedFolder(owner):
            "is writable by others and belongs to another user (uid \(owner)); Folio writes only into folders of its user or that others cannot change"
        case .failed: "\(failure): \(reason)"
        case .folderNotSynced: "written, but the folder could not be synced: \(reason)"
        }
    }

    /// One line: the path, then `message(failure:)` with the words every output but the book's uses.
    public var description: String { describe(failure: "cannot write (nothing was replaced)") }

    /// One line naming the path, with `failure` as the words for a write that did not happen.
    public func describe(failure: String) -> String {
        switch kind {
        case .symbolicLink, .notAFolder, .sharedFolder: "\(path) \(message(failure: failure))"
        case .notRegularFile, .failed, .folderNotSynced: "\(path): \(message(failure: failure))"
        }
    }
}
