import FolioGeometry
import XCTest
@testable import FolioSketchbook

final class SketchbookTests: XCTestCase {
    private func stroke(_ x: Double) -> Stroke {
        Stroke(points: [Point(x: x, y: 0), Point(x: x, y: 10)])
    }

    /// Sheets with one stroke each at x = 0, 1, 2, …
    private func book(sheets count: Int, current: Int = 0) -> Sketchbook {
        Sketchbook(sheets: (0..<count).map { Sheet(strokes: [stroke(Double($0))]) }, currentSheet: current)
    }

    func testNextAndPreviousAreClamped() {
        var book = book(sheets: 3)
        XCTAssertFalse(book.goToPreviousSheet())
        XCTAssertEqual(book.currentSheet, 0)
        XCTAssertTrue(book.goToNextSheet())
        XCTAssertTrue(book.goToNextSheet())
        XCTAssertFalse(book.goToNextSheet())
        XCTAssertEqual(book.currentSheet, 2)
        XCTAssertTrue(book.goToPreviousSheet())
        XCTAssertEqual(book.currentSheet, 1)
        XCTAssertEqual(book.sheets.count, 3)
    }

    func testTurningForwardFromTheLastSheetAddsOneBlankSheetOnly() {
        var book = book(sheets: 2, current: 1)
        XCTAssertTrue(book.turnForward())
        XCTAssertEqual(book.sheets.count, 3)
        XCTAssertEqual(book.currentSheet, 2)
        XCTAssertTrue(book.sheet.isBlank)
        XCTAssertFalse(book.turnForward(), "the last sheet is blank: no second blank sheet")
        XCTAssertEqual(book.sheets.count, 3)

        var fresh = Sketchbook()
        XCTAssertFalse(fresh.turnForward(), "a new book's one sheet is blank")
        XCTAssertEqual(fresh.sheets.count, 1)

        var middle = self.book(sheets: 3, current: 0)
        XCTAssertTrue(middle.turnForward())
        XCTAssertEqual(middle.sheets.count, 3, "not on the last sheet: just the next one")
        XCTAssertEqual(middle.currentSheet, 1)
    }

    func testANewSheetGoesRightAfterTheCurrentOne() {
        var book = book(sheets: 3, current: 0)
        book.insertBlankSheet()
        XCTAssertEqual(book.currentSheet, 1)
        XCTAssertEqual(book.sheets.map(\.strokes), [[stroke(0)], [], [stroke(1)], [stroke(2)]])
    }

    func testDeleteThenUndoRestoresTheSheetExactly() {
        var original = book(sheets: 3, current: 1)
        original.append(stroke(9))
        original.undo()  // sheet 2 now has a redo entry, which must come back too
        var book = original
        book.deleteCurrentSheet()
        XCTAssertEqual(book.sheets.map(\.strokes), [[stroke(0)], [stroke(2)]])
        XCTAssertEqual(book.currentSheet, 1, "the sheet after the deleted one is current")
        XCTAssertEqual(book.nextUndo, .restoreSheet)
        XCTAssertEqual(book.undo(), .restoreSheet)
        XCTAssertEqual(book.sheets, original.sheets)
        XCTAssertEqual(book.currentSheet, 1)
        XCTAssertTrue(book.sheet.canRedo)
    }

    func testDeletingTheLastSheetMakesTheOneBeforeCurrent() {
        var book = book(sheets: 3, current: 2)
        book.deleteCurrentSheet()
        XCTAssertEqual(book.currentSheet, 1)
        XCTAssertEqual(book.sheets.count, 2)
    }

    func testDeletingTheOnlySheetLeavesABlankSheetAndIsUndoable() {
        let original = book(sheets: 1)
        var book = original
        book.deleteCurrentSheet()
        XCTAssertEqual(book.sheets.count, 1)
        XCTAssertTrue(book.sheet.isBlank)
        book.undo()
        XCTAssertEqual(book.sheets, original.sheets)
        XCTAssertEqual(book.currentSheet, 0)
    }

    func testDeletionsAreUndoneNewestFirstAcrossPageTurns() {
        let original = book(sheets: 4, current: 1)
        var book = original
        book.deleteCurrentSheet()  // sheet at index 1
        book.goToNextSheet()
        book.deleteCurrentSheet()  // the old index 3, now at 2
        book.goToPreviousSheet()
        book.goToPreviousSheet()
        XCTAssertEqual(book.sheets.map(\.strokes), [[stroke(0)], [stroke(2)]])
        book.undo()
        XCTAssertEqual(book.currentSheet, 2)
        XCTAssertEqual(book.sheet.strokes, [stroke(3)])
        book.undo()
        XCTAssertEqual(book.sheets, original.sheets)
        XCTAssertEqual(book.currentSheet, 1)
        XCTAssertEqual(book.undo(), .stroke, "with the deletions undone, undo takes back strokes")
        XCTAssertEqual(book.sheet.strokes, [])
    }

    func testDeletingEverySheetOneByOneComesBackInOrder() {
        let original = book(sheets: 2, current: 0)
        var book = original
        book.deleteCurrentSheet()
        book.deleteCurrentSheet()
        book.deleteCurrentSheet()  // the blank stand-in
        XCTAssertEqual(book.sheets.count, 1)
        XCTAssertTrue(book.sheet.isBlank)
        while book.undo() == .restoreSheet {}
        XCTAssertEqual(book.sheets.map(\.strokes), [[], [stroke(1)]], "the last undo took back sheet 1's stroke")
        XCTAssertEqual(book.currentSheet, 0)
        book.redo()
        XCTAssertEqual(book.sheets.map(\.strokes), original.sheets.map(\.strokes))
    }

    func testDrawingOrAddingASheetMakesDeletionsFinal() {
        var drawn = book(sheets: 2)
        drawn.deleteCurrentSheet()
        drawn.append(stroke(7))
        XCTAssertEqual(drawn.nextUndo, .stroke)
        drawn.undo()
        XCTAssertEqual(drawn.sheets.map(\.strokes), [[stroke(1)]], "the deleted sheet stays deleted")
        XCTAssertEqual(drawn.deletedSheets, [])

        var added = book(sheets: 2)
        added.deleteCurrentSheet()
        added.insertBlankSheet()
        XCTAssertNil(added.nextUndo, "the new sheet is blank, and the deletion is final")

        var redone = book(sheets: 2)
        redone.undo()
        redone.goToNextSheet()
        redone.deleteCurrentSheet()
        XCTAssertTrue(redone.redo())
        XCTAssertEqual(redone.nextUndo, .stroke)
    }

    func testEachSheetKeepsItsOwnUndoAndRedo() {
        var book = book(sheets: 2)
        book.append(stroke(10))
        book.goToNextSheet()
        book.append(stroke(11))
        book.append(stroke(12))
        book.undo()
        XCTAssertEqual(book.sheet.strokes, [stroke(1), stroke(11)])
        book.goToPreviousSheet()
        XCTAssertFalse(book.canRedo, "sheet 1's redo is its own")
        book.undo()
        XCTAssertEqual(book.sheet.strokes, [stroke(0)])
        book.goToNextSheet()
        XCTAssertTrue(book.redo())
        XCTAssertEqual(book.sheet.strokes, [stroke(1), stroke(11), stroke(12)])
        XCTAssertEqual(book.sheets[0].strokes, [stroke(0)])
    }
}
