import FolioFiles
import FolioSketchbook
import Foundation

/// Moving the single book of Folio 0.1 (`book.folio` or `book.json`, and its sheet pictures,
/// in the data folder itself) onto the shelf, so that a kill at any moment loses nothing:
/// 1. the files are copied into `books/.migrating/` through the safe writer (each synced, and
///    the folder), with a `shelf.json` marked `migrated`;
/// 2. that folder is renamed to `books/ID` and `books/` synced;
/// 3. only then are the old files removed, the book last, and the data folder synced.
/// A start that finds the old book finishes a move cut short after step 2 (a migrated book on
/// the shelf holds the same bytes: only step 3 is left) or redoes it from step 1.
enum Migration {
    /// Where a move is assembled before it is put on the shelf.
    static let staging = ".migrating"

    /// The points between steps, where tests stop the move as a kill would.
    enum Step: Equatable, Sendable {
        case copied(String)
        case staged
        case placed
        case removed(String)
    }

    /// Moves the book in `dataFolder` onto the shelf `books`, if one is there; returns its id.
    /// `entry` makes the new book's shelf entry (its name and colour), given the shelf's books.
    static func run(from dataFolder: String, into books: String, id: () -> String,
                    entry: () -> ShelfEntry, step: (Step) throws -> Void) throws -> String? {
        let stagingFolder = books + "/" + staging
        guard let primary = BookFiles.books.first(where: { BookFiles.isRegularFile(dataFolder + "/" + $0) }) else {
            // Nothing left to move: a staging folder is only ever a copy of what was there.
            try BookFiles.removeTree(stagingFolder)
            return nil
        }
        let lock = try BookLock(dataFolder, action: "moved onto the shelf of books")
        let old = try BookStore.readFile(dataFolder + "/" + primary) ?? []
        var placed = try alreadyPlaced(primary: primary, bytes: old, books: books)
        if placed == nil {
            try BookFiles.removeTree(stagingFolder)
            try BookFiles.makeFolder(stagingFolder)
            for name in files(in: dataFolder) {
                guard let bytes = try BookStore.readFile(dataFolder + "/" + name) else { continue }
                do {
                    try AtomicFile.replace(stagingFolder + "/" + name, with: Data(bytes), mode: 0o600)
                } catch {
                    throw ShelfError(error, failure: "cannot copy the book onto the shelf (the book stays where it was)")
                }
                try step(.copied(name))
            }
            var made = entry()
            made.migrated = true
            made.index = try? BookIndex.take(in: stagingFolder).0
            try made.write(in: stagingFolder)
            try step(.staged)
            let newID = id()
            try BookFiles.move(stagingFolder, to: books + "/" + newID)
            try step(.placed)
            placed = newID
        }
        // The book goes last: while it is there, the next start finds the move unfinished.
        for name in files(in: dataFolder).filter({ $0 != primary }) + [primary] {
            guard unlink(dataFolder + "/" + name) == 0 || errno == ENOENT else {
                throw ShelfError.io(path: dataFolder + "/" + name, reason: "moved onto the shelf, but cannot remove it here: \(errnoText())")
            }
            try step(.removed(name))
        }
        try BookFiles.sync(dataFolder)
        _ = consume lock
        return placed
    }

    /// The files of the old book in `folder`: the book and its sheet pictures, regular files only.
    private static func files(in folder: String) -> [String] {
        BookFiles.names(in: folder).filter { name in
            (BookFiles.books.contains(name) || (name.hasPrefix("sheet-") && name.hasSuffix(".picture")))
                && BookFiles.isRegularFile(folder + "/" + name)
        }.sorted()
    }

    /// The id of a migrated book on the shelf whose `primary` holds `bytes`: the old book was
    /// placed already, and only its removal is left.
    private static func alreadyPlaced(primary: String, bytes: [UInt8], books: String) throws -> String? {
        for id in BookFiles.names(in: books) where !id.hasPrefix(".") && BookFiles.isFolder(books + "/" + id) {
            let folder = books + "/" + id
            guard (try? ShelfEntry.read(in: folder))??.migrated == true,
                  let copy = try? BookStore.readFile(folder + "/" + primary), copy == bytes else { continue }
            return id
        }
        return nil
    }
}
