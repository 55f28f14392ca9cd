@testable import FolioShelf
import FolioRender
import FolioSketchbook
import Foundation
import XCTest

/// The single book of Folio 0.1 moves onto the shelf whole, however the move is cut short.
final class MigrationTests: ShelfTestCase {
    struct Crash: Error {}

    /// Folio 0.1's book in the data folder, with a sheet picture beside it.
    private func oldBook(strokes: Int = 40) throws -> Sketchbook {
        let book = Self.book(strokes: strokes, sheets: 2)
        try save(book, in: data)
        try Data("picture".utf8).write(to: URL(fileURLWithPath: data + "/sheet-00000000000000ff.picture"))
        return book
    }

    /// Every book on the shelf holding `book`; the old place empty of it.
    private func assertMovedOnce(_ book: Sketchbook, file: StaticString = #filePath, line: UInt = #line) throws {
        let shelf = try library()
        defer { shelf.close() }
        XCTAssertEqual(shelf.books.count, 1, file: file, line: line)
        let moved = try XCTUnwrap(shelf.books.first, file: file, line: line)
        XCTAssertEqual(try load(moved.path), book, file: file, line: line)
        XCTAssertEqual([moved.sheets, moved.strokes], [2, 41], file: file, line: line)
        XCTAssertTrue(BookFiles.isRegularFile(moved.path + "/sheet-00000000000000ff.picture"), file: file, line: line)
        for name in ["book.folio", "book.json", "sheet-00000000000000ff.picture"] {
            XCTAssertFalse(BookFiles.isRegularFile(data + "/" + name), name, file: file, line: line)
        }
        XCTAssertFalse(BookFiles.isFolder(data + "/books/.migrating"), file: file, line: line)
    }

    func testTheOldBookMovesOntoTheShelfOnFirstStart() throws {
        let book = try oldBook()
        try assertMovedOnce(book)
        XCTAssertTrue(try library().books[0].name.hasPrefix("Book 2026-11-27"))
    }

    func testAVersionOneBookMovesToo() throws {
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let text = ##"{"format":"folio-sketchbook","version":1,"currentSheet":0,"sheets":[{"strokes":[{"color":"#0000FF","width":6,"points":[1,2,30,40]}]}]}"##
        try Data(text.utf8).write(to: URL(fileURLWithPath: data + "/book.json"))
        let book = try load(data)
        let shelf = try library()
        XCTAssertEqual(shelf.books.map(\.strokes), [1])
        XCTAssertEqual(try load(shelf.books[0].path), book)
        XCTAssertFalse(BookFiles.isRegularFile(data + "/book.json"))
    }

    func testAMoveStoppedAtAnyStepIsFinishedOrRedoneByTheNextStart() throws {
        var steps: [Migration.Step] = []
        let book = try oldBook()
        _ = try library { steps.append($0) }.books
        XCTAssertEqual(steps, [.copied("book.folio"), .copied("sheet-00000000000000ff.picture"), .staged, .placed,
                               .removed("sheet-00000000000000ff.picture"), .removed("book.folio")])
        for stop in steps {
            try FileManager.default.removeItem(atPath: data)
            let book = try oldBook()
            XCTAssertThrowsError(try library { if $0 == stop { throw Crash() } }, "\(stop)")
            try assertMovedOnce(book)
        }
        _ = book
    }

    func testAnOldBookOpenInARunningFolioIsNotMoved() throws {
        let book = try oldBook()
        var writer: BookWriter? = try BookStore(directory: URL(fileURLWithPath: data)).openForWriting()
        XCTAssertThrowsError(try library()) { error in
            XCTAssertEqual("\(error)", "\(data!) is open in a running Folio (pid \(getpid())), so it is not moved onto the shelf of books; close it there first")
        }
        XCTAssertEqual(try load(data), book)
        XCTAssertNotNil(writer)
        writer = nil
        try assertMovedOnce(book)
    }

    func testAnOldBookWrittenAgainAfterTheMoveMovesAsASecondBook() throws {
        _ = try oldBook()
        try library().close()
        try save(Self.book(strokes: 1), in: data)
        let shelf = try library()
        XCTAssertEqual(shelf.books.map(\.strokes).sorted(), [1, 41])
        XCTAssertEqual(Set(shelf.books.map(\.name)).count, 2)
    }
}
