import FolioGeometry
import XCTest
@testable import FolioSketchbook

/// A stroke snapped to a shape: one edit that undo takes back to the stroke as drawn.
final class ReshapeTests: XCTestCase {
    private let drawn = Stroke(points: [Point(x: 0, y: 0), Point(x: 50, y: 3), Point(x: 100, y: -2)])
    private let shape = Stroke(points: [Point(x: 0, y: 0), Point(x: 100, y: 0)])
    private let earlier = Stroke(points: [Point(x: 5, y: 5)])

    func testUndoReturnsToTheStrokeAsDrawnThenRemovesIt() {
        var book = Sketchbook()
        book.append(earlier)
        book.append(drawn)
        XCTAssertTrue(book.reshapeNewest(to: shape))
        XCTAssertEqual(book.sheet.strokes, [earlier, shape])
        book.undo()
        XCTAssertEqual(book.sheet.strokes, [earlier, drawn])
        book.undo()
        XCTAssertEqual(book.sheet.strokes, [earlier])
        book.redo()
        XCTAssertEqual(book.sheet.strokes, [earlier, drawn])
        book.redo()
        XCTAssertEqual(book.sheet.strokes, [earlier, shape])
        XCTAssertFalse(book.canRedo)
    }

    func testNothingToReshapeOnABlankSheet() {
        var sheet = Sheet()
        XCTAssertFalse(sheet.reshapeNewest(to: shape))
        XCTAssertFalse(sheet.canUndo)
    }

    /// The change saves as the newest stroke replaced: the journal reads back the shape.
    func testTheBookRecordsTheShape() throws {
        var book = Sketchbook()
        book.append(earlier)
        let saved = book
        book.append(drawn)
        book.reshapeNewest(to: shape)
        let changes = try BookRecords.changes(from: saved, to: book)
        XCTAssertEqual(changes.count, 1, "one stroke appended: the shape")
        XCTAssertEqual(try BookStore.decode(journal: BookJournal.fileHeader() + BookJournal.record(.snapshot, payload: BookRecords.snapshot(book)), path: "b").sheet.strokes,
                       [earlier, shape])
    }
}
