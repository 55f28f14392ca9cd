import FolioFiles
import FolioSketchbook
import Foundation

/// A book's own record on the shelf, `shelf.json` in its folder: what the person chose (name,
/// cover colour), when it was made (shelf order), and its index: the sheet and stroke counts and
/// the key of the cover picture, with the stamp of the book file they were taken from, so the
/// shelf lists a book without reading its journal while that stamp still matches.
struct ShelfEntry: Codable, Equatable, Sendable {
    static let fileName = "shelf.json"
    /// The largest `shelf.json` read: anything bigger is not one Folio wrote.
    static let maximumSize = 64 * 1024

    var name: String
    /// `0x00RRGGBB`.
    var coverColor: UInt32
    /// Milliseconds since 1970 when the book was made: the shelf shows newest first.
    var created: Int64
    /// Milliseconds since 1970 when the book was last opened: the app starts inside the latest.
    var opened: Int64?
    /// Set on the book moved from the single book of Folio 0.1, so a move cut short is finished
    /// rather than done twice.
    var migrated: Bool?
    var index: Index?

    /// Counts and cover key taken from the book file `journal` describes.
    struct Index: Codable, Equatable, Sendable {
        var journal: BookStamp
        var sheets: Int
        var strokes: Int
        /// `SheetPicture.key` of the first sheet's strokes, in hex: the cover shows them.
        var coverKey: String
    }

    /// The entry in `folder`; nil when there is none. A damaged entry, a link or an oversized
    /// file is an error naming it.
    static func read(in folder: String) throws -> ShelfEntry? {
        let path = folder + "/" + fileName
        guard let bytes = try BookStore.readFile(path) else { return nil }
        guard bytes.count <= maximumSize else { throw ShelfError.io(path: path, reason: "is larger than \(maximumSize) bytes") }
        do {
            return try JSONDecoder().decode(ShelfEntry.self, from: Data(bytes))
        } catch {
            throw ShelfError.io(path: path, reason: "is not a shelf entry: \(error)")
        }
    }

    /// Writes the entry into `folder` through the safe writer (0600).
    func write(in folder: String) throws(ShelfError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(self)
        } catch {
            throw .io(path: folder + "/" + Self.fileName, reason: "cannot encode: \(error)")
        }
        do {
            try AtomicFile.replace(folder + "/" + Self.fileName, with: data, mode: 0o600)
        } catch {
            throw ShelfError(error, failure: "cannot write (the book's name and colour are as before)")
        }
    }
}

/// Which book file an index was taken from, as the file system stamps it: a save appends to the
/// journal (size and time change), a compaction or migration renames a new one in (the inode
/// changes), so an index whose stamp differs is taken again.
struct BookStamp: Codable, Equatable, Sendable {
    /// `book.folio`, `book.json`, or empty when the folder holds no book yet.
    var file: String
    var inode: UInt64
    var size: Int64
    var seconds: Int64
    var nanoseconds: Int64

    static let none = BookStamp(file: "", inode: 0, size: 0, seconds: 0, nanoseconds: 0)

    /// The stamp of the book in `folder` now (links are not followed: a link stamps as itself).
    static func of(_ folder: String) -> BookStamp {
        for file in BookFiles.books {
            var status = stat()
            guard lstat(folder + "/" + file, &status) == 0 else { continue }
            return BookStamp(file: file, inode: UInt64(status.st_ino), size: Int64(status.st_size),
                             seconds: Int64(status.st_mtim.tv_sec), nanoseconds: Int64(status.st_mtim.tv_nsec))
        }
        return .none
    }
}
