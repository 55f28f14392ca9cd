import FolioGeometry
import XCTest
@testable import FolioRender

/// The lasso's dashes: 8 px on, 6 off, continuing across segments, and only where they can show.
final class DashesTests: XCTestCase {
    private let screen = Rect(x: 0, y: 0, width: 640, height: 400)

    func testThePatternContinuesAcrossSegments() {
        var whole = Dashes()
        let one = whole.segments(from: Point(x: 0, y: 10), to: Point(x: 100, y: 10), within: screen)
        let starts: [Double] = [0, 14, 28, 42, 56, 70, 84, 98], ends: [Double] = [8, 22, 36, 50, 64, 78, 92, 100]
        XCTAssertEqual(one.count, starts.count)
        for (dash, (start, end)) in zip(one, zip(starts, ends)) {
            XCTAssertEqual(dash.0.x, start, accuracy: 1e-9)
            XCTAssertEqual(dash.1.x, end, accuracy: 1e-9)
        }
        var split = Dashes()
        let parts = split.segments(from: Point(x: 0, y: 10), to: Point(x: 33, y: 10), within: screen)
            + split.segments(from: Point(x: 33, y: 10), to: Point(x: 100, y: 10), within: screen)
        // The dash cut at 33 is drawn in two pieces; together they cover what the whole line's do.
        let covered = { (dashes: [(Point, Point)]) in (0..<100).filter { x in dashes.contains { Double(x) + 0.5 > $0.0.x && Double(x) + 0.5 < $0.1.x } } }
        XCTAssertEqual(covered(parts), covered(one))
    }

    /// A segment reaching a million px off the canvas gives only the dashes on it, and the
    /// pattern goes on after it as if every dash had been drawn.
    func testASegmentFarOffTheCanvasCostsOnlyWhatShows() {
        var far = Dashes()
        let dashes = far.segments(from: Point(x: 0, y: 10), to: Point(x: 1_000_000, y: 10), within: screen)
        XCTAssertLessThanOrEqual(dashes.count, 640 / 14 + 2)
        XCTAssertTrue(dashes.allSatisfy { $0.0.x >= 0 && $0.1.x <= 640 })
        var near = Dashes()
        _ = near.segments(from: Point(x: 0, y: 10), to: Point(x: 1_000_000, y: 10), within: Rect(x: -1e7, y: -1e7, width: 2e7, height: 2e7))
        XCTAssertEqual(far.phase, near.phase, accuracy: 1e-6)
        XCTAssertTrue(far.segments(from: Point(x: -5000, y: -5000), to: Point(x: -4000, y: -6000), within: screen).isEmpty)
    }
}
