@testable import FolioShelf
import FolioFiles
import FolioSketchbook
import Foundation
import XCTest

/// Making, listing, naming, colouring, deleting and bringing back books.
final class LibraryTests: ShelfTestCase {
    func testNewBooksAreDatedNumberedColouredInTurnAndNewestFirst() throws {
        let shelf = try library()
        XCTAssertEqual(shelf.books, [])
        let first = try shelf.createBook(), second = try shelf.createBook(), third = try shelf.createBook()
        XCTAssertEqual(first.name, "Book 2026-11-27")
        XCTAssertEqual(second.name, "Book 2026-11-27 (2)")
        XCTAssertEqual(third.name, "Book 2026-11-27 (3)")
        XCTAssertEqual([first, second, third].map(\.coverColor), Array(CoverPalette.colors.prefix(3)))
        XCTAssertEqual(shelf.books.map(\.id), [third.id, second.id, first.id])
        XCTAssertEqual(first.path, data + "/books/" + first.id)
        XCTAssertEqual([first.sheets, first.strokes], [1, 0])
        XCTAssertTrue(BookFiles.isRegularFile(first.path + "/shelf.json"))
        shelf.close()
        // Another library reads the same shelf from the files alone.
        XCTAssertEqual(try library().books, [third, second, first])
    }

    func testTheAppStartsInTheBookOpenedLastEvenWhenTheClockWentBack() throws {
        let shelf = try library()
        XCTAssertNil(shelf.startingBook)
        let a = try shelf.createBook(), b = try shelf.createBook()
        XCTAssertEqual(shelf.startingBook?.id, b.id, "none opened yet: the newest")
        shelf.bookOpened(id: a.id)
        XCTAssertEqual(shelf.startingBook?.id, a.id)
        shelf.close()
        // The next run's clock starts where the first one's did, behind the first open.
        let again = try library()
        XCTAssertEqual(again.startingBook?.id, a.id, "kept in shelf.json")
        again.bookOpened(id: b.id)
        XCTAssertEqual(again.startingBook?.id, b.id)
        again.close()
        XCTAssertEqual(try library().startingBook?.id, b.id)
        XCTAssertEqual(warnings.all, [])
    }

    func testTheDefaultNameIsTodaysDateInTheLocalZone() {
        let name = BookName.dated(Date())
        XCTAssertNotNil(name.wholeMatch(of: /Book \d{4}-\d{2}-\d{2}/), name)
        XCTAssertEqual(BookName.unique("Book", among: ["Book", "Book (2)"]), "Book (3)")
    }

    func testRenameAndColourAreKeptAndBadOnesRefusedClearly() throws {
        let shelf = try library()
        let book = try shelf.createBook()
        try shelf.rename(id: book.id, to: "  Sketches of Lisbon \u{1F30A}  ")
        try shelf.setCoverColor(id: book.id, 0x123456)
        for (bad, words) in [("   ", "it is empty"), ("a\u{7}b", "U+0007"), ("two\nlines", "U+000A"), ("evil\u{202E}txt", "U+202E"),
                             (String(repeating: "x", count: 81), "81 characters; at most 80")] {
            XCTAssertThrowsError(try shelf.rename(id: book.id, to: bad)) { error in
                XCTAssertTrue("\(error)".hasPrefix("bad book name: "), "\(error)")
                XCTAssertTrue("\(error)".contains(words), "\(error)")
            }
        }
        XCTAssertNoThrow(try shelf.rename(id: book.id, to: String(repeating: "é", count: 80)))
        try shelf.rename(id: book.id, to: "  Sketches of Lisbon \u{1F30A}  ")
        XCTAssertThrowsError(try shelf.setCoverColor(id: book.id, 0x0100_0000)) { XCTAssertEqual($0 as? ShelfError, .badColor(0x0100_0000)) }
        XCTAssertThrowsError(try shelf.rename(id: "nope", to: "x")) { XCTAssertEqual($0 as? ShelfError, .noSuchBook(id: "nope")) }
        shelf.close()
        let again = try library().books[0]
        XCTAssertEqual(again.name, "Sketches of Lisbon \u{1F30A}")
        XCTAssertEqual(again.coverColor, 0x123456)
    }

    func testDeleteGoesToTheTrashUndoBringsTheLatestBackAndCloseEmptiesIt() throws {
        let shelf = try library()
        let a = try shelf.createBook(), b = try shelf.createBook()
        try save(Self.book(strokes: 3), in: a.path)
        try shelf.deleteBook(id: a.id)
        try shelf.deleteBook(id: b.id)
        XCTAssertEqual(shelf.books, [])
        XCTAssertTrue(BookFiles.isFolder(data + "/books/.trash/" + a.id))
        let back = try XCTUnwrap(try shelf.undoDelete())
        XCTAssertEqual(back.id, b.id)
        XCTAssertEqual(shelf.books.map(\.id), [b.id])
        try shelf.deleteBook(id: b.id)
        XCTAssertEqual(try shelf.undoDelete()?.id, b.id)
        let restored = try XCTUnwrap(try shelf.undoDelete())
        XCTAssertEqual(restored.id, a.id)
        XCTAssertEqual(restored.strokes, 3)
        XCTAssertEqual(try load(restored.path).sheet.strokes.count, 3)
        XCTAssertNil(try shelf.undoDelete())
        try shelf.deleteBook(id: a.id)
        shelf.close()
        XCTAssertFalse(BookFiles.isFolder(data + "/books/.trash/" + a.id))
        XCTAssertEqual(try library().books.map(\.id), [b.id])
    }

    func testTrashLeftByAKilledRunIsEmptiedAtTheNextStartButNotUnderAnotherRunningLibrary() throws {
        let running = try library()
        let book = try running.createBook()
        try running.deleteBook(id: book.id)
        // A second library (`folio books` while the app runs) leaves the running one's undo alone.
        let second = try library()
        second.close()
        XCTAssertEqual(try running.undoDelete()?.id, book.id)
        try running.deleteBook(id: book.id)
        // The app killed: no close. The next start empties the trash.
        let closedLock = running.state.withLock { $0.shelfLock }
        XCTAssertGreaterThanOrEqual(closedLock, 0)
        XCTAssertEqual(flock(closedLock, LOCK_UN), 0)
        let next = try library()
        XCTAssertFalse(BookFiles.isFolder(data + "/books/.trash/" + book.id))
        XCTAssertEqual(next.books, [])
    }

    func testAnOpenBookIsNeitherDeletedNorMoved() throws {
        let shelf = try library()
        let book = try shelf.createBook()
        var writer: BookWriter? = try BookStore(directory: URL(fileURLWithPath: book.path)).openForWriting()
        XCTAssertThrowsError(try shelf.deleteBook(id: book.id)) { error in
            XCTAssertEqual("\(error)", "\(book.path) is open in a running Folio (pid \(getpid())), so it is not deleted; close it there first")
        }
        XCTAssertEqual(shelf.books.map(\.id), [book.id])
        XCTAssertNotNil(writer)
        writer = nil
        XCTAssertNoThrow(try shelf.deleteBook(id: book.id))
    }

    func testALinkPlantedOnTheShelfIsNeitherListedNorFollowed() throws {
        let outside = (data as NSString).deletingLastPathComponent + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try save(Self.book(strokes: 2), in: outside)
        let shelf = try library()
        XCTAssertEqual(symlink(outside, data + "/books/planted"), 0)
        let real = try shelf.createBook()
        // A link as a book's shelf.json: the book is left off, the target untouched.
        let target = outside + "/target.json"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: target))
        let linked = data + "/books/linked-entry"
        XCTAssertEqual(mkdir(linked, 0o700), 0)
        XCTAssertEqual(symlink(target, linked + "/shelf.json"), 0)
        shelf.close()
        let again = try library()
        XCTAssertEqual(again.books.map(\.id), [real.id])
        XCTAssertTrue(warnings.all.contains { $0.contains("linked-entry/shelf.json is a symbolic link") }, "\(warnings.all)")
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "keep")
        XCTAssertFalse(FileManager.default.fileExists(atPath: outside + "/shelf.json"))
        XCTAssertThrowsError(try again.deleteBook(id: "planted"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: outside + "/book.folio"))
    }

    func testTheIndexListsWithoutReadingJournalsAndIsTakenAgainWhenStale() throws {
        let shelf = try library()
        let book = try shelf.createBook()
        try save(Self.book(strokes: 5, sheets: 3), in: book.path)
        shelf.close()
        XCTAssertEqual(try library().books.map { [$0.sheets, $0.strokes] }, [[3, 7]])
        // The entry now matches the journal's stamp: a listing takes the counts from it, so a
        // count changed by hand in it (and nowhere else) shows.
        var entry = try XCTUnwrap(try ShelfEntry.read(in: book.path))
        entry.index?.strokes = 99
        try entry.write(in: book.path)
        XCTAssertEqual(try library().books[0].strokes, 99)
        // A save changes the stamp: the index is taken again from the journal.
        try save(Self.book(strokes: 6, sheets: 3), in: book.path)
        XCTAssertEqual(try library().books[0].strokes, 8)
        // A missing entry is made again, with a dated name.
        XCTAssertEqual(unlink(book.path + "/shelf.json"), 0)
        let remade = try library().books[0]
        XCTAssertEqual(remade.strokes, 8)
        XCTAssertTrue(remade.name.hasPrefix("Book "))
    }

    func testADamagedBookIsListedAndLeftAsItIs() throws {
        let shelf = try library()
        let book = try shelf.createBook()
        let junk = Data("not a book".utf8)
        try junk.write(to: URL(fileURLWithPath: book.path + "/book.folio"))
        shelf.close()
        XCTAssertEqual(try library().books.map(\.id), [book.id])
        XCTAssertTrue(warnings.all.contains { $0.contains("book.folio") }, "\(warnings.all)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: book.path + "/book.folio")), junk)
        // Without its shelf.json it was never indexed: asking for its cover frame after frame
        // tries to read it once, not at every frame.
        XCTAssertEqual(unlink(book.path + "/shelf.json"), 0)
        let shelf2 = try library()
        XCTAssertEqual(shelf2.books.map(\.strokes), [0])
        for _ in 0..<5 {
            XCTAssertNil(shelf2.coverPicture(id: book.id))
            shelf2.waitForCovers()
        }
        XCTAssertEqual(warnings.all.filter { $0.contains("its cover is left as it was") }.count, 1, "\(warnings.all)")
    }

    func testTemporariesOfAKilledWriteAreRemovedWhenTheShelfIsOpenedAlone() throws {
        let shelf = try library()
        let book = try shelf.createBook()
        let orphan = book.path + "/" + TemporaryName.make(for: "cover.picture")
        let other = book.path + "/.cover.picture.tmp"
        for path in [orphan, other] { try Data("x".utf8).write(to: URL(fileURLWithPath: path)) }
        // Another library has the shelf open: its writes may be under way, so nothing goes.
        try library().close()
        XCTAssertTrue(BookFiles.isRegularFile(orphan))
        shelf.close()
        try library().close()
        XCTAssertFalse(BookFiles.isRegularFile(orphan))
        XCTAssertTrue(BookFiles.isRegularFile(other))
    }
}
