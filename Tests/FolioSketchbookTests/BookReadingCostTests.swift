import FolioTestSupport
import Foundation
import XCTest
@testable import FolioSketchbook

/// Reading a book costs in proportion to its file, whatever its change records do
/// (docs/book-format.md, "Limits"). Work is counted, never timed.
final class BookReadingCostTests: XCTestCase {
    /// The tree work of reading `bytes`, and the book read.
    private func read(_ bytes: [UInt8]) throws -> (visits: Int, book: Sketchbook) {
        let (pages, torn, _) = try BookStore.decodeJournal(bytes, path: "churn.folio")
        XCTAssertNil(torn)
        return (pages.sheets.visits, pages.book)
    }

    /// Inserting and removing the first sheet over and over: in an array each change moves every
    /// sheet, so four times the sheets and the changes cost sixteen times as much. Here it is a
    /// little over four times (the tree's height grows by two levels).
    func testChurningTheFirstSheetCostsInProportionToTheFile() throws {
        let small = 2000, large = 4 * small
        let smallBook = ChurningBooks.sheets(small, pairs: small), largeBook = ChurningBooks.sheets(large, pairs: large)
        XCTAssertEqual(Double(largeBook.count) / Double(smallBook.count), 4, accuracy: 0.01)
        let (smallWork, smallRead) = try read(smallBook)
        let (largeWork, largeRead) = try read(largeBook)
        XCTAssertEqual(smallRead.sheets.count, small)
        XCTAssertEqual(largeRead.sheets.count, large)
        XCTAssertTrue(largeRead.sheets.allSatisfy(\.isBlank))
        let ratio = Double(largeWork) / Double(smallWork)
        XCTAssertLessThan(ratio, 5.5, "work \(smallWork) → \(largeWork)")
        // Each change reaches down the tree once or twice, about 1.44 log₂ n deep at most.
        XCTAssertLessThan(largeWork, 2 * large * 3 * Int(1.45 * log2(Double(large + 2)) + 2), "work \(largeWork)")
    }

    /// Taking back the last stroke and drawing it again, over and over, on a big sheet: each
    /// change costs the strokes it moves, not the sheet's.
    func testChurningTheLastStrokeCostsInProportionToTheFile() throws {
        let small = 500, large = 4 * small
        let (smallWork, smallRead) = try read(ChurningBooks.strokes(small, pairs: small))
        let (largeWork, largeRead) = try read(ChurningBooks.strokes(large, pairs: large))
        XCTAssertEqual(smallRead.sheet.strokes.count, small)
        XCTAssertEqual(largeRead.sheet.strokes.count, large)
        XCTAssertEqual(Double(largeWork) / Double(smallWork), 4, accuracy: 0.01, "one sheet: the same work per change")
    }
}
