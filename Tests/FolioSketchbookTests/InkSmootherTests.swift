import FolioGeometry
import FolioRandom
import FolioSketchbook
import XCTest

/// The five-point smoothing as an iOS `CanvasView` writes it, transcribed plainly as the reference
/// `InkSmoother` must match: `pts[5]`, `ctr`, and the `UIBezierPath` calls it makes.
/// touchesBegan: `ctr = 0; pts[0] = p`. touchesMoved: `ctr++; pts[ctr] = p; if (ctr == 4) {
/// pts[3] = midpoint(pts[2], pts[4]); [path moveToPoint:pts[0]]; [path addCurveToPoint:pts[3]
/// controlPoint1:pts[1] controlPoint2:pts[2]]; pts[0] = pts[3]; pts[1] = pts[4]; ctr = 1; }`
private struct ReferenceCanvas {
    enum Call: Equatable {
        case moveToPoint(Point)
        case addCurveToPoint(Point, controlPoint1: Point, controlPoint2: Point)
    }

    var pts = [Point](repeating: .zero, count: 5)
    var ctr = 0
    var path: [Call] = []

    mutating func touchesBegan(_ p: Point) {
        ctr = 0
        pts[0] = p
    }

    mutating func touchesMoved(_ p: Point) {
        ctr += 1
        pts[ctr] = p
        if ctr == 4 {
            pts[3] = Point(x: (pts[2].x + pts[4].x) / 2.0, y: (pts[2].y + pts[4].y) / 2.0)
            path.append(.moveToPoint(pts[0]))
            path.append(.addCurveToPoint(pts[3], controlPoint1: pts[1], controlPoint2: pts[2]))
            pts[0] = pts[3]
            pts[1] = pts[4]
            ctr = 1
        }
    }
}

/// The reference's calls, as the smoother's path should say them: one move, then the curves
/// (each of its `moveToPoint`s repeats where the previous curve ended).
private func referencePath(_ points: [Point]) -> (path: [PathElement], pending: [Point]) {
    var reference = ReferenceCanvas()
    guard let first = points.first else { return ([], []) }
    reference.touchesBegan(first)
    for p in points.dropFirst() { reference.touchesMoved(p) }
    var path: [PathElement] = [.move(to: first)]
    var pen = first
    for call in reference.path {
        switch call {
        case let .moveToPoint(p):
            XCTAssertEqual(p, pen, "the reference moves to where its last curve ended")
        case let .addCurveToPoint(end, c1, c2):
            path.append(.curve(control1: c1, control2: c2, to: end))
            pen = end
        }
    }
    // Points taken in but not yet part of a curve: pts[1...ctr].
    return (path, Array(reference.pts[1..<(reference.ctr + 1)]))
}

final class InkSmootherTests: XCTestCase {
    private func smoothed(_ points: [Point]) -> InkSmoother {
        var smoother = InkSmoother(start: points[0])
        for p in points.dropFirst() { smoother.add(p) }
        return smoother
    }

    func testMatchesTheReferenceOnHandMadeStrokes() {
        let strokes: [[Point]] = [
            [Point(x: 10, y: 10)],
            [Point(x: 10, y: 10), Point(x: 20, y: 10)],
            (0..<5).map { Point(x: Double($0) * 10, y: 0) },
            (0..<8).map { Point(x: Double($0) * 10, y: Double($0 % 2) * 15) },
            (0..<13).map { Point(x: 100 + 50 * cos(Double($0) / 2), y: 100 + 50 * sin(Double($0) / 2)) },
            [Point(x: 5, y: 5), Point(x: 5, y: 5), Point(x: 5, y: 5), Point(x: 5, y: 5), Point(x: 5, y: 5)],
        ]
        for points in strokes {
            XCTAssertEqual(smoothed(points).path, referencePath(points).path, "\(points)")
        }
    }

    func testMatchesTheReferenceOnRandomStrokes() {
        var random = SplitMix64(seed: 42)
        for length in 1...60 {
            var p = Point(x: 300, y: 300)
            var points = [p]
            for _ in 1..<length {
                p = Point(x: p.x + random.next(in: -25...25), y: p.y + random.next(in: -25...25))
                points.append(p)
            }
            let smoother = smoothed(points)
            let reference = referencePath(points)
            XCTAssertEqual(smoother.path, reference.path, "\(length) points")
            // The first curve takes five points (the start and four more), each next one three more.
            XCTAssertEqual(smoother.path.count, 1 + max(0, length - 2) / 3, "\(length) points")
        }
    }

    func testAddReportsTheCurveItClosed() {
        var smoother = InkSmoother(start: Point(x: 0, y: 0))
        XCTAssertNil(smoother.add(Point(x: 1, y: 0)))
        XCTAssertNil(smoother.add(Point(x: 2, y: 0)))
        XCTAssertNil(smoother.add(Point(x: 3, y: 0)))
        XCTAssertEqual(smoother.add(Point(x: 4, y: 2)),
                       .curve(control1: Point(x: 1, y: 0), control2: Point(x: 2, y: 0), to: Point(x: 3, y: 1)))
        XCTAssertNil(smoother.add(Point(x: 5, y: 0)))
    }

    func testTailReachesTheLastPointTheFingerGave() {
        var random = SplitMix64(seed: 9)
        for length in 1...20 {
            let points = (0..<length).map { _ in Point(x: random.next(in: 0...500), y: random.next(in: 0...500)) }
            let smoother = smoothed(points)
            let pending = referencePath(points).pending
            switch pending.count {
            case 0:
                XCTAssertNil(smoother.tail, "\(length) points: every point is in a curve")
                XCTAssertEqual(smoother.fullPath, smoother.path)
            case 1:
                XCTAssertEqual(smoother.tail, .line(to: pending[0]))
            case 2:
                XCTAssertEqual(smoother.tail, .quad(control: pending[0], to: pending[1]))
            default:
                XCTAssertEqual(smoother.tail, .curve(control1: pending[0], control2: pending[1], to: pending[2]))
            }
            // With its tail, the drawn path always ends where the finger is.
            XCTAssertEqual(smoother.fullPath.last?.endPoint, points.last)
        }
    }

    func testTailAfterEachNewPoint() {
        var smoother = InkSmoother(start: Point(x: 0, y: 0))
        XCTAssertNil(smoother.tail, "a tap has no tail: it is a dot")
        XCTAssertEqual(smoother.fullPath, [.move(to: Point(x: 0, y: 0))])
        smoother.add(Point(x: 10, y: 0))
        XCTAssertEqual(smoother.tail, .line(to: Point(x: 10, y: 0)))
        smoother.add(Point(x: 20, y: 5))
        XCTAssertEqual(smoother.tail, .quad(control: Point(x: 10, y: 0), to: Point(x: 20, y: 5)))
        smoother.add(Point(x: 30, y: 0))
        XCTAssertEqual(smoother.tail, .curve(control1: Point(x: 10, y: 0), control2: Point(x: 20, y: 5), to: Point(x: 30, y: 0)))
        smoother.add(Point(x: 40, y: 10))
        // The curve closed at the midpoint of (20, 5) and (40, 10); the point (30, 0) leaves the ink,
        // as in the reference, and (40, 10) waits as the next curve's first control, drawn as a line for now.
        XCTAssertEqual(smoother.path.last?.endPoint, Point(x: 30, y: 7.5))
        XCTAssertEqual(smoother.tail, .line(to: Point(x: 40, y: 10)))
    }

    func testStrokeBoundsHoldTheWholePath() {
        var random = SplitMix64(seed: 3)
        for length in 1...30 {
            let points = (0..<length).map { _ in Point(x: random.next(in: -100...600), y: random.next(in: 0...400)) }
            let stroke = Stroke(points: points)
            let bounds = stroke.bounds
            // Half the ink's width and a pixel of antialiasing around every point that shapes the path.
            let margin = stroke.style.width / 2 + 1
            for element in stroke.path {
                let controls: [Point] = switch element {
                case let .move(p), let .line(p): [p]
                case let .quad(c, p): [c, p]
                case let .curve(c1, c2, p): [c1, c2, p]
                }
                for p in controls {
                    XCTAssertLessThanOrEqual(bounds.minX, p.x - margin + 1e-9)
                    XCTAssertLessThanOrEqual(bounds.minY, p.y - margin + 1e-9)
                    XCTAssertGreaterThanOrEqual(bounds.maxX, p.x + margin - 1e-9)
                    XCTAssertGreaterThanOrEqual(bounds.maxY, p.y + margin - 1e-9)
                }
            }
        }
    }
}
