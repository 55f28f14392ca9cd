@testable import FolioShelf
import FolioFiles
import Foundation
import XCTest

/// Two Folios with the same shelf open (or the app and `folio books`) each keep a copy of a
/// book's entry: a change either writes starts from the entry as it is on disk, under the
/// book's entry lock, so neither writes its older copy over the other's change.
final class EntryLockTests: ShelfTestCase {
    private func entry(_ book: ShelfBook) throws -> ShelfEntry {
        try XCTUnwrap(ShelfEntry.read(in: book.path))
    }

    func testAChangeKeepsWhatAnotherLibraryWroteMeanwhile() throws {
        let app = try library()
        let book = try app.createBook()
        let other = try library()
        try other.rename(id: book.id, to: "Sketches")
        try app.setCoverColor(id: book.id, 0x123456)
        XCTAssertEqual(try entry(book).name, "Sketches", "the recolour wrote its older copy of the name over the rename")
        XCTAssertEqual(try entry(book).coverColor, 0x123456)
        XCTAssertEqual(app.books.first?.name, "Sketches", "the app shows what it wrote")
        try other.setCoverColor(id: book.id, 0x654321)
        app.bookOpened(id: book.id)
        XCTAssertEqual(try entry(book).coverColor, 0x654321, "marking the book opened wrote an older colour")
        XCTAssertNotNil(try entry(book).opened)
        other.close()
        app.close()
    }

    func testATakenIndexKeepsARenameMadeMeanwhile() throws {
        let app = try library()
        let book = try app.createBook()
        try save(Self.book(strokes: 3), in: book.path)
        let other = try library()
        try other.rename(id: book.id, to: "Made elsewhere")
        app.bookChanged(id: book.id)
        app.waitForCovers()
        XCTAssertEqual(try entry(book).name, "Made elsewhere", "the index was written with an older name")
        XCTAssertEqual(try entry(book).index?.strokes, 3)
        other.close()
        app.close()
    }

    func testALinkPlantedAsTheLockIsNeitherFollowedNorReplaced() throws {
        let app = try library()
        let book = try app.createBook()
        let outside = (data as NSString).deletingLastPathComponent + "/outside"
        let lock = book.path + "/" + EntryLock.fileName
        XCTAssertEqual(symlink(outside, lock), 0)
        XCTAssertThrowsError(try app.rename(id: book.id, to: "Renamed")) { error in
            XCTAssertEqual("\(error)", "\(lock): is a symbolic link, which Folio neither follows nor replaces")
        }
        XCTAssertEqual(app.books.first?.name, book.name)
        XCTAssertEqual(try entry(book).name, book.name)
        // A listing finding the book stale leaves its index for next time, with one line.
        try save(Self.book(strokes: 2), in: book.path)
        let lister = try library()
        XCTAssertEqual(lister.books.first?.strokes, 2, "listed with the counts it read")
        XCTAssertEqual(warnings.all.filter { $0.contains(lock) }.count, 1, "\(warnings.all)")
        lister.close()
        XCTAssertFalse(FileManager.default.fileExists(atPath: outside), "the link was followed")
        var status = stat()
        XCTAssertEqual(lstat(lock, &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFLNK, "the link was replaced")
        XCTAssertEqual(try entry(book).index?.strokes, 0, "written without the lock")
        app.close()
    }

    func testALockHeldTooLongRefusesTheChangeInOneLineAndLosesNothing() throws {
        let app = try library()
        let book = try app.createBook()
        let fd = open(book.path + "/" + EntryLock.fileName, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(flock(fd, LOCK_EX), 0)
        let started = Date()
        XCTAssertThrowsError(try app.rename(id: book.id, to: "Late")) { error in
            XCTAssertEqual("\(error)", "\(book.path)/\(EntryLock.fileName): another Folio has held it for over 2 s, so shelf.json is left as it is")
        }
        let waited = Date().timeIntervalSince(started)
        XCTAssertGreaterThanOrEqual(waited, EntryLock.changePatience)
        XCTAssertLessThan(waited, EntryLock.changePatience + 3, "waited far beyond its patience")
        XCTAssertEqual(try entry(book).name, book.name)
        XCTAssertEqual(app.books.first?.name, book.name)
        close(fd)
        try app.rename(id: book.id, to: "In time")
        XCTAssertEqual(try entry(book).name, "In time")
        app.close()
    }
}
