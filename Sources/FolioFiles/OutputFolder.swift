#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder Folio is told to write files into (`replay --out DIR`): made if missing, and used
/// only when nobody else can swap what is in it. A symbolic link is refused (the folder given
/// must be the folder written), and so is a folder that others may write into (group or world
/// writable) unless it belongs to this user.
public enum OutputFolder {
    /// Makes `path` and any missing parents, then checks it as above; `user` is who Folio runs as.
    public static func prepare(_ path: String, user: uid_t = geteuid()) throws(FileWriteError) {
        try Folders.make(path)
        try check(path, user: user)
    }

    /// Checks an existing `path` as `prepare` does.
    public static func check(_ path: String, user: uid_t = geteuid()) throws(FileWriteError) {
        var status = stat()
        // lstat of the name itself: a trailing slash would make it look through a link.
        guard lstat(trimmed(path), &status) == 0 else {
            throw FileWriteError(path: path, kind: .failed, reason: "lstat: \(errnoText())")
        }
        switch status.st_mode & S_IFMT {
        case S_IFLNK: throw FileWriteError(path: path, kind: .symbolicLink)
        case S_IFDIR: break
        default: throw FileWriteError(path: path, kind: .notAFolder)
        }
        if status.st_mode & (S_IWGRP | S_IWOTH) != 0, status.st_uid != user {
            throw FileWriteError(path: path, kind: .sharedFolder(owner: UInt32(status.st_uid)))
        }
    }

    /// `path` without trailing slashes (`/` stays `/`).
    static func trimmed(_ path: String) -> String {
        var name = Substring(path)
        while name.count > 1, name.hasSuffix("/") { name = name.dropLast() }
        return String(name)
    }
}
