import XCTest
import FolioGeometry
@testable import FolioShapes

/// Shapes drawn wobbly snap to what they are; freehand rarely snaps at all (the rate measured
/// on a generated corpus is in docs/shapes.md).
final class ShapeRecognizerTests: XCTestCase {
    private func kinds(_ count: Int, seed: UInt64, _ draw: (inout SyntheticStrokes) -> [Point]) -> [String: Int] {
        var strokes = SyntheticStrokes(seed: seed)
        var tally: [String: Int] = [:]
        for _ in 0..<count {
            tally[ShapeRecognizer.recognize(draw(&strokes)).map { $0.kind.rawValue } ?? "none", default: 0] += 1
        }
        return tally
    }

    /// At least 48 of 50 of each shape, drawn with drift, tremor, uneven pace, rounded corners and
    /// a closed shape's end short of or past its start, snap to that shape and no other.
    func testWobblyShapesSnapToTheirShape() {
        let cases: [(Shape.Kind, (inout SyntheticStrokes) -> [Point])] = [
            (.line, { $0.line() }),
            (.circle, { $0.ellipse(ratio: 0.95...1) }),
            (.ellipse, { $0.ellipse(ratio: 0.3...0.7) }),
            (.rectangle, { $0.rectangle(aspect: 0.3...0.75, tilt: 0.5) }),
            (.square, { $0.rectangle(aspect: 0.95...1, tilt: 0.3) }),
            (.triangle, { $0.triangle() }),
        ]
        for (index, (kind, draw)) in cases.enumerated() {
            let tally = kinds(50, seed: 0x5A9E + UInt64(index), draw)
            print("hold to shape: 50 wobbly \(kind.rawValue)s snapped as \(tally.sorted { $0.key < $1.key })")
            XCTAssertGreaterThanOrEqual(tally[kind.rawValue] ?? 0, 48, "\(kind): \(tally)")
            XCTAssertEqual(tally.filter { $0.key != kind.rawValue && $0.key != "none" }.values.reduce(0, +), 0,
                           "\(kind) taken for another shape: \(tally)")
        }
    }

    /// 350 freehand strokes (50 each of handwriting, scribbles, spirals, waves, curves through
    /// random points, zigzags and letters): at most 1% snap.
    func testFreehandRarelySnaps() {
        var snapped: [String] = []
        for (index, kind) in SyntheticStrokes.Freehand.allCases.enumerated() {
            let tally = kinds(50, seed: 0xF4EE + UInt64(index)) { $0.freehand(kind) }
            snapped += tally.filter { $0.key != "none" }.map { "\(kind) as \($0.key) ×\($0.value)" }
        }
        let count = snapped.count
        print("hold to shape: freehand snapped \(count) of 350: \(snapped)")
        XCTAssertLessThanOrEqual(count, 3, "\(snapped)")
    }

    func testAPerfectCircleAndRectangleSnapExactly() throws {
        let circle = (0...120).map { Point(x: 500 + 100 * cos(Double($0) / 120 * 2 * .pi), y: 400 + 100 * sin(Double($0) / 120 * 2 * .pi)) }
        guard case let .ellipse(e) = try XCTUnwrap(ShapeRecognizer.recognize(circle)) else { return XCTFail("not an ellipse") }
        XCTAssertEqual(e.radiusX, e.radiusY)
        XCTAssertEqual(e.radiusX, 100, accuracy: 0.5)
        XCTAssertEqual(e.center.x, 500, accuracy: 0.5)
        XCTAssertEqual(e.center.y, 400, accuracy: 0.5)

        let corners = [Point(x: 100, y: 100), Point(x: 400, y: 100), Point(x: 400, y: 250), Point(x: 100, y: 250)]
        var outline: [Point] = []
        for k in 0..<4 {
            let a = corners[k], b = corners[(k + 1) % 4]
            outline += (0..<30).map { a + (b - a) * (Double($0) / 30) }
        }
        outline.append(corners[0])
        guard case let .polygon(found) = try XCTUnwrap(ShapeRecognizer.recognize(outline)) else { return XCTFail("not a polygon") }
        XCTAssertEqual(found.count, 4)
        for (p, q) in zip(found, corners) {
            XCTAssertEqual(p.x, q.x, accuracy: 1)
            XCTAssertEqual(p.y, q.y, accuracy: 1)
        }
    }

    /// A dot, a tick: under 20 px across, nothing snaps, however straight or round.
    func testSmallStrokesAreLeftAlone() {
        let tick = [Point(x: 10, y: 10), Point(x: 20, y: 20), Point(x: 22, y: 22)]
        XCTAssertNil(ShapeRecognizer.recognize(tick))
        let ring = (0...40).map { Point(x: 50 + 6 * cos(Double($0) / 40 * 2 * .pi), y: 50 + 6 * sin(Double($0) / 40 * 2 * .pi)) }
        XCTAssertNil(ShapeRecognizer.recognize(ring))
        XCTAssertNil(ShapeRecognizer.recognize([Point(x: 1, y: 1)]))
        XCTAssertNil(ShapeRecognizer.recognize([Point(x: 0, y: 0), Point(x: .nan, y: 40), Point(x: 90, y: 0)]))
    }

    /// A figure eight, and a loop drawn twice, are no closed shape.
    func testOutlinesThatDoNotGoRoundOnceAreLeftAlone() {
        let eight = (0...200).map { k -> Point in
            let t = Double(k) / 200 * 2 * .pi
            return Point(x: 300 + 100 * sin(t), y: 300 + 100 * sin(t) * cos(t))
        }
        XCTAssertNil(ShapeRecognizer.recognize(eight))
        let twice = (0...200).map { k -> Point in
            let t = Double(k) / 200 * 4 * .pi
            return Point(x: 300 + 100 * cos(t), y: 300 + 100 * sin(t))
        }
        XCTAssertNil(ShapeRecognizer.recognize(twice), "a loop drawn twice round")
    }

    /// A loop and then as long a tail: where it came back was not its end, and it is no circle.
    func testALoopWithALongTailIsLeftAlone() {
        let loop = (0...100).map { k -> Point in
            let t = Double(k) / 100 * 2 * .pi
            return Point(x: 300 + 100 * cos(t), y: 300 + 100 * sin(t))
        }
        let tail = (1...100).map { Point(x: 400 + 6.3 * Double($0), y: 300 + 0.5 * Double($0)) }
        XCTAssertNotNil(ShapeRecognizer.recognize(loop), "the loop alone is a circle")
        XCTAssertNil(ShapeRecognizer.recognize(loop + tail))
    }
}

/// The snapped shape's outline, and how dragging the held end resizes it.
final class ShapeOutlineTests: XCTestCase {
    func testOutlinesStartWhereTheStrokeDidAndCloseOnThemselves() {
        let e = Ellipse(center: Point(x: 200, y: 200), radiusX: 80, radiusY: 40, rotation: 0, start: .pi / 2, forward: false)
        let points = Shape.ellipse(e).outline()
        XCTAssertEqual(points.first?.x ?? 0, 200, accuracy: 1e-9)
        XCTAssertEqual(points.first?.y ?? 0, 240, accuracy: 1e-9)
        XCTAssertEqual(points.last?.distance(to: points[0]) ?? 1, 0, accuracy: 1e-9)
        // Toward smaller angles from the bottom (y grows down): toward larger x first.
        XCTAssertGreaterThan(points[1].x, 200)

        let square = [Point(x: 0, y: 0), Point(x: 100, y: 0), Point(x: 100, y: 100), Point(x: 0, y: 100)]
        let outline = Shape.polygon(square).outline()
        XCTAssertEqual(outline.first, square[0])
        XCTAssertEqual(outline.last, square[0])
        for corner in square { XCTAssertTrue(outline.contains(corner), "corner \(corner) on the outline") }
        // Points half a pixel either side of each corner keep it sharp.
        XCTAssertTrue(outline.contains(Point(x: 99.5, y: 0)))
        XCTAssertTrue(outline.contains(Point(x: 100, y: 0.5)))
    }

    func testOutlinesStayWithinTheirBudgetAndReach() {
        let huge = Shape.ellipse(Ellipse(center: .zero, radiusX: 5_000_000, radiusY: 5_000_000, rotation: 0))
        let points = huge.outline()
        XCTAssertLessThanOrEqual(points.count, Shape.maximumPoints + 1)
        XCTAssertTrue(points.allSatisfy(SurfaceLimits.isWithinReach))
        XCTAssertLessThanOrEqual(Shape.line(from: .zero, to: Point(x: 1e6, y: 0)).outline().count, Shape.maximumPoints + 1)
    }

    func testDraggingTheHeldEnd() {
        let line = Shape.line(from: Point(x: 0, y: 0), to: Point(x: 100, y: 0))
        XCTAssertEqual(line.dragged(from: Point(x: 102, y: 1), to: Point(x: 152, y: 31)), .line(from: .zero, to: Point(x: 150, y: 30)))

        let circle = Shape.ellipse(Ellipse(center: Point(x: 100, y: 100), radiusX: 50, radiusY: 50, rotation: 0))
        guard case let .ellipse(bigger) = circle.dragged(from: Point(x: 150, y: 100), to: Point(x: 100, y: 175)) else { return XCTFail() }
        XCTAssertEqual(bigger.radiusX, 75, accuracy: 1e-9)
        XCTAssertEqual(bigger.center, Point(x: 100, y: 100))
        XCTAssertEqual(Shape.ellipse(bigger).kind, .circle)

        let square = Shape.polygon([Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10), Point(x: 0, y: 10)])
        XCTAssertEqual(square.dragged(from: Point(x: 0, y: 0), to: Point(x: -5, y: -5)),
                       .polygon([Point(x: -5, y: -5), Point(x: 15, y: -5), Point(x: 15, y: 15), Point(x: -5, y: 15)]))
        // Onto the centre: the shape shrinks to 1/20, not to nothing.
        guard case let .ellipse(least) = circle.dragged(from: Point(x: 150, y: 100), to: Point(x: 100, y: 100)) else { return XCTFail() }
        XCTAssertEqual(least.radiusX, 2.5, accuracy: 1e-9)
    }
}

final class HoldTimerTests: XCTestCase {
    func testAHoldCompletesAfterHalfASecondWithinFourPixels() {
        var hold = HoldTimer(at: Point(x: 10, y: 10), time: 100)
        XCTAssertEqual(hold.deadline, 600)
        hold.moved(to: Point(x: 13, y: 12), at: 400)  // 3.6 px: still held
        XCTAssertEqual(hold.deadline, 600)
        hold.moved(to: Point(x: 15, y: 10), at: 450)  // 5 px: a new hold
        XCTAssertEqual(hold.deadline, 950)
        hold.spend()
        XCTAssertNil(hold.deadline)
        hold.moved(to: Point(x: 17, y: 10), at: 500)
        XCTAssertNil(hold.deadline, "a spent hold stays spent until the end moves on")
        hold.moved(to: Point(x: 30, y: 10), at: 700)
        XCTAssertEqual(hold.deadline, 1200)
    }
}
