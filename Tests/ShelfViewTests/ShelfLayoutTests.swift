import FolioGeometry
import FolioLayers
import XCTest

final class ShelfLayoutTests: XCTestCase {
    func testColumnsFollowTheWindowWidth() {
        let narrow = ShelfLayout(width: 300, height: 600, count: 10)
        let wide = ShelfLayout(width: 1920, height: 1200, count: 10)
        XCTAssertEqual(narrow.columns, 1)
        XCTAssertGreaterThanOrEqual(wide.columns, 6)
        for layout in [narrow, wide] {
            XCTAssertGreaterThanOrEqual(layout.coverSize.width, ShelfLayout.minimumCoverWidth)
            XCTAssertLessThanOrEqual(layout.coverSize.width, ShelfLayout.maximumCoverWidth)
            // Every cover of a row fits inside the window.
            let last = layout.coverRect(layout.columns - 1)
            XCTAssertLessThanOrEqual(last.maxX, layout.width - ShelfLayout.margin + 0.001)
            XCTAssertGreaterThanOrEqual(layout.coverRect(0).minX, ShelfLayout.margin - 0.001)
        }
    }

    func testCoversDoNotOverlapAndRowsFollowEachOther() {
        let layout = ShelfLayout(width: 1000, height: 700, count: 13)
        for i in 0..<13 {
            for j in (i + 1)..<13 {
                XCTAssertTrue(layout.coverRect(i).intersection(layout.coverRect(j)).isEmpty, "covers \(i) and \(j) overlap")
            }
        }
        XCTAssertEqual(layout.coverRect(layout.columns).minY, layout.coverRect(0).maxY + ShelfLayout.gap, accuracy: 0.001)
        XCTAssertEqual(layout.contentHeight, layout.coverRect(12).maxY + ShelfLayout.margin, accuracy: 0.001)
    }

    func testVisibleBooksAreTheRowsOnScreen() {
        let layout = ShelfLayout(width: 800, height: 600, count: 50)
        let top = layout.visible(scroll: 0, reach: 0)
        XCTAssertEqual(top.lowerBound, 0)
        XCTAssertLessThan(top.count, 50, "a long shelf lays out only what shows")
        for i in top { XCTAssertLessThan(layout.coverRect(i).minY, 600) }
        XCTAssertGreaterThanOrEqual(layout.coverRect(top.upperBound).minY, 600, "the next row starts below the window")
        let bottom = layout.visible(scroll: layout.maximumScroll, reach: 0)
        XCTAssertEqual(bottom.upperBound, 50)
        XCTAssertGreaterThan(layout.maximumScroll, 0)
        XCTAssertEqual(ShelfLayout(width: 800, height: 600, count: 2).maximumScroll, 0)
    }
}
