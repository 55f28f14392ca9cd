import FolioGeometry
import FolioPixels
import XCTest

final class PixelRectTests: XCTestCase {
    /// Coordinates from a compositor or a pinch can be anything a Double holds: covering them
    /// never traps, stays within ±farthest, and a NaN edge covers nothing.
    func testCoveringExtremeCoordinatesNeverTraps() {
        let far = PixelRect.farthest
        let huge = PixelRect(covering: Rect(x: 1e20, y: -1e308, width: 1e308, height: 1e308), scale: 8)
        XCTAssertEqual(huge, PixelRect(x: far, y: -far, width: 0, height: far))
        XCTAssertTrue(huge.isEmpty)
        let everywhere = PixelRect(covering: Rect(x: -1e308, y: -1e308, width: .infinity, height: .infinity), scale: 1)
        XCTAssertEqual(everywhere, PixelRect(x: -far, y: -far, width: 2 * far, height: 2 * far))
        XCTAssertEqual(everywhere.area, 4 * far * far, "the area of the largest rectangle fits an Int")
        XCTAssertEqual(everywhere.intersection(PixelRect(x: 0, y: 0, width: 640, height: 400)), PixelRect(x: 0, y: 0, width: 640, height: 400))
        XCTAssertTrue(PixelRect(covering: Rect(x: .nan, y: 0, width: 10, height: 10), scale: 1).isEmpty)
        XCTAssertTrue(PixelRect(covering: Rect(x: 0, y: 0, width: .nan, height: 10), scale: 1).isEmpty)
    }
}
