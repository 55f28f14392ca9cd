import FolioGeometry
import XCTest
@testable import FolioSketchbook

/// The lasso's rule: a stroke is selected when more than half its length lies inside the loop.
final class LassoRuleTests: XCTestCase {
    /// A square loop from (0, 0) to (100, 100), drawn as a finger would: many points.
    private let square = Lasso(points: (0..<400).map { i -> Point in
        let t = Double(i % 100)
        switch i / 100 {
        case 0: return Point(x: t, y: 0)
        case 1: return Point(x: 100, y: t)
        case 2: return Point(x: 100 - t, y: 100)
        default: return Point(x: 0, y: 100 - t)
        }
    })

    /// A horizontal stroke at y 50 from x `start` to x `start + 100`, in 10 px steps.
    private func stroke(from start: Double) -> Stroke {
        Stroke(points: (0...10).map { Point(x: start + Double($0) * 10, y: 50) })
    }

    func testMoreThanHalfInsideIsSelectedAndHalfOrLessIsNot() {
        XCTAssertTrue(square.selects(stroke(from: -49)), "51% inside")
        XCTAssertFalse(square.selects(stroke(from: -50)), "exactly half inside")
        XCTAssertFalse(square.selects(stroke(from: -51)), "49% inside")
        XCTAssertTrue(square.selects(stroke(from: 45)), "55% inside, leaving on the right")
        XCTAssertFalse(square.selects(stroke(from: 55)), "45% inside, leaving on the right")
        XCTAssertTrue(square.selects(stroke(from: 0)))
        XCTAssertFalse(square.selects(stroke(from: 300)), "far away")
    }

    /// Length counts, not points: a stroke with most of its points inside but most of its
    /// length outside is not selected.
    func testLengthCountsNotPoints() {
        let crowded = Stroke(points: (0..<20).map { Point(x: 40 + Double($0) * 0.5, y: 50) } + [Point(x: 400, y: 50)])
        XCTAssertFalse(square.selects(crowded))
        let sparse = Stroke(points: [Point(x: -20, y: 50), Point(x: 90, y: 50)] + (0..<20).map { Point(x: -20 - Double($0) * 0.5, y: 50) })
        XCTAssertTrue(square.selects(sparse), "100 of 120 px inside")
    }

    func testADotIsSelectedWhenItIsInside() {
        XCTAssertTrue(square.selects(Stroke(points: [Point(x: 50, y: 50)])))
        XCTAssertFalse(square.selects(Stroke(points: [Point(x: 150, y: 50)])))
        XCTAssertFalse(Lasso(points: [Point(x: 0, y: 0), Point(x: 100, y: 100)]).selects(Stroke(points: [Point(x: 50, y: 50)])),
                       "a loop of two points holds nothing")
    }

    /// The loop closes with a straight line from its last point to its first.
    func testAnOpenLoopIsClosed() {
        let open = Lasso(points: [Point(x: 0, y: 0), Point(x: 100, y: 0), Point(x: 100, y: 100), Point(x: 0, y: 100)])
        XCTAssertTrue(open.selects(stroke(from: -40)))
        XCTAssertEqual(open.selection(of: [stroke(from: 300), stroke(from: 10), stroke(from: -80)]), [1])
    }
}
