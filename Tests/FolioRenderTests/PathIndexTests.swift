import FolioGeometry
import XCTest
@testable import FolioRender

final class PathIndexTests: XCTestCase {
    /// A path of 20,000 short lines along a row: what one redraw finds near a point is the few
    /// elements there, never a walk of the stroke (replaying one long stroke was quadratic), and
    /// it is exactly what a walk would find.
    func testALongPathFindsOnlyTheElementsNearARectangle() {
        var path: [PathElement] = [.move(to: Point(x: 0, y: 10))]
        for i in 1...20_000 { path.append(.line(to: Point(x: Double(i), y: 10 + Double(i % 3)))) }
        var index = PathIndex()
        index.extend(to: Array(path.prefix(5000)))
        index.extend(to: path)
        XCTAssertEqual(index.count, path.count)
        XCTAssertEqual(index.ranges(meeting: Rect(x: 12_345.5, y: 0, width: 2, height: 20)), [12_346..<12_349])
        XCTAssertEqual(index.ranges(meeting: Rect(x: 0, y: 10, width: 0, height: 0)), [0..<2])
        XCTAssertEqual(index.ranges(meeting: Rect(x: -5, y: 0, width: 3, height: 20)), [])
        XCTAssertEqual(index.ranges(meeting: Rect(x: 100, y: 13, width: 50, height: 5)), [])
        // A path that doubles back is found in two places.
        path.append(.line(to: Point(x: 12_346, y: 10)))
        index.extend(to: path)
        XCTAssertEqual(index.ranges(meeting: Rect(x: 12_345.5, y: 0, width: 2, height: 20)), [12_346..<12_349, 20_001..<20_002])
    }

    func testAChangedLastElementIsAnotherPath() {
        var index = PathIndex()
        index.extend(to: [.move(to: Point(x: 0, y: 0)), .line(to: Point(x: 10, y: 0))])
        index.extend(to: [.move(to: Point(x: 0, y: 0)), .line(to: Point(x: 0, y: 10))])
        XCTAssertEqual(index.ranges(meeting: Rect(x: 5, y: -1, width: 10, height: 2)), [])
        XCTAssertEqual(index.ranges(meeting: Rect(x: -1, y: 5, width: 2, height: 2)), [1..<2])
    }
}
