import FolioGeometry
import XCTest
@testable import FolioSketchbook

final class PressureInkTests: XCTestCase {
    private func penStroke() -> Stroke {
        let points = (0..<120).map { i in Point(x: 40 + Double(i) * 3, y: 100 + 30 * sin(Double(i) / 12)) }
        return Stroke(points: points, pressures: (0..<120).map { Double($0) / 119 })
    }

    func testTheCurveRunsFromTheMinimumToTheMaximumAndClampsWhatIsOutside() {
        let curve = PressureCurve.standard
        XCTAssertEqual(curve.width(at: 0), 2)
        XCTAssertEqual(curve.width(at: 1), 9)
        XCTAssertEqual(curve.width(at: 0.5), 5.5)
        XCTAssertEqual(curve.width(at: -3), 2)
        XCTAssertEqual(curve.width(at: .nan), 2)
        XCTAssertEqual(curve.width(at: 7), 9)
        let odd = PressureCurve(minimum: -1, maximum: .infinity, exponent: .nan)
        XCTAssertEqual(odd.minimum, PressureCurve.widths.lowerBound)
        XCTAssertEqual(odd.maximum, PressureCurve.widths.upperBound)
        XCTAssertEqual(odd.exponent, 1)
        XCTAssertEqual(PressureCurve(minimum: 2, maximum: 9, exponent: 2).width(at: 0.5), 3.75)
    }

    /// Every piece of the outline, as the SVG must carry it: rings of quads (first side forward,
    /// other side back) and discs.
    private func expectedShapes(_ stroke: Stroke) -> (rings: [[Point]], discs: [(Point, Double)]) {
        var rings: [[Point]] = [], discs: [(Point, Double)] = []
        var left: [Point] = [], right: [Point] = []
        func close() {
            if !left.isEmpty { rings.append(left + right.reversed()) }
            left = []
            right = []
        }
        PressureOutline.pieces(path: stroke.path, pressures: stroke.pressurePath, curve: stroke.pressureCurve) { piece in
            switch piece {
            case let .quad(a, b, c, d, continuesRun):
                if !continuesRun { close(); left = [a]; right = [d] }
                left.append(b)
                right.append(c)
            case let .disc(centre, radius):
                close()
                discs.append((centre, radius))
            }
        }
        close()
        return (rings, discs)
    }

    func testSVGCarriesAPressureStrokeAsItsFilledOutline() throws {
        let stroke = penStroke()
        let svg = SVGExport.document(for: Sheet(strokes: [stroke]), size: Size(width: 480, height: 200))
        let lines = svg.split(separator: "\n").filter { $0.hasPrefix("<path") }
        XCTAssertEqual(lines.count, 1)
        let line = String(try XCTUnwrap(lines.first))
        XCTAssertTrue(line.contains("fill=\"#0000FF\""))
        XCTAssertFalse(line.contains("stroke-width"))
        let d = try XCTUnwrap(line.split(separator: "\"").dropFirst().first)
        let subpaths = d.split(separator: "M").map { $0.trimmingCharacters(in: .whitespaces) }
        let expected = expectedShapes(stroke)
        XCTAssertEqual(subpaths.count, expected.rings.count + expected.discs.count)
        XCTAssertGreaterThan(expected.rings.count, 0)
        var rings: [[Point]] = [], discs: [(Point, Double)] = []
        for subpath in subpaths {
            let numbers = subpath.split(whereSeparator: { " LAZ".contains($0) }).compactMap { Double($0) }
            if subpath.contains("A") {
                // M x-r y A r r 0 1 1 x+r y A r r 0 1 1 x-r y Z
                let r = numbers[2]
                discs.append((Point(x: numbers[0] + r, y: numbers[1]), r))
            } else {
                rings.append(stride(from: 0, to: numbers.count, by: 2).map { Point(x: numbers[$0], y: numbers[$0 + 1]) })
            }
        }
        XCTAssertEqual(rings.count, expected.rings.count)
        XCTAssertEqual(discs.count, expected.discs.count)
        // Geometrically equal: every vertex within the SVG's 1/1000 px, rings turning one way.
        for (ring, want) in zip(rings, expected.rings) {
            XCTAssertEqual(ring.count, want.count)
            let oriented = Self.area(want) >= 0 ? want : want.reversed()
            for (p, q) in zip(ring, oriented) {
                XCTAssertEqual(p.x, q.x, accuracy: 0.0006)
                XCTAssertEqual(p.y, q.y, accuracy: 0.0006)
            }
            XCTAssertGreaterThan(Self.area(ring), 0)
        }
        for (disc, want) in zip(discs, expected.discs) {
            XCTAssertEqual(disc.0.x, want.0.x, accuracy: 0.0011)
            XCTAssertEqual(disc.0.y, want.0.y, accuracy: 0.0011)
            XCTAssertEqual(disc.1, want.1, accuracy: 0.0006)
        }
        // The ends are round, of the width their pressure gives.
        XCTAssertEqual(expected.discs.first?.1 ?? 0, 1, accuracy: 1e-9)
        XCTAssertEqual(expected.discs.last?.1 ?? 0, 4.5, accuracy: 1e-9)
    }

    func testAFingerStrokeStillExportsAsAStrokedPath() {
        let stroke = Stroke(points: [Point(x: 10, y: 10), Point(x: 50, y: 20)])
        let svg = SVGExport.document(for: Sheet(strokes: [stroke]), size: Size(width: 60, height: 30))
        XCTAssertTrue(svg.contains("fill=\"none\" stroke=\"#0000FF\" stroke-width=\"6\" stroke-linecap=\"round\""))
    }

    func testQuadsOfARunShareTheirEdgesExactly() {
        var previous: (Point, Point)?
        var quads = 0
        PressureOutline.pieces(path: penStroke().path, pressures: penStroke().pressurePath, curve: .standard) { piece in
            guard case let .quad(a, b, c, d, continuesRun) = piece else { previous = nil; return }
            if continuesRun, let previous {
                XCTAssertEqual(previous.0, a)
                XCTAssertEqual(previous.1, d)
            }
            previous = (b, c)
            quads += 1
        }
        XCTAssertGreaterThan(quads, 100)
    }

    func testOneEraserPassIsOneUndoableEdit() {
        let strokes = (0..<4).map { Stroke(points: [Point(x: Double($0) * 10, y: 0), Point(x: Double($0) * 10, y: 50)]) }
        var sheet = Sheet(strokes: strokes)
        XCTAssertFalse(sheet.erase([7, -1]), "no such strokes: nothing to undo")
        XCTAssertTrue(sheet.erase([3, 1]))
        XCTAssertEqual(sheet.strokes, [strokes[0], strokes[2]])
        sheet.append(Stroke(points: [Point(x: 99, y: 99)]))
        sheet.undo()
        XCTAssertEqual(sheet.strokes, [strokes[0], strokes[2]])
        sheet.undo()
        XCTAssertEqual(sheet.strokes, strokes, "the whole pass comes back, each stroke in its place")
        sheet.redo()
        XCTAssertEqual(sheet.strokes, [strokes[0], strokes[2]])
        sheet.undo()
        sheet.undo()
        XCTAssertEqual(sheet.strokes, Array(strokes.prefix(3)), "then strokes come off the top as before")
    }

    func testTheEraserCrossesWhatItTouches() {
        let stroke = Stroke(points: [Point(x: 0, y: 0), Point(x: 100, y: 0)])
        XCTAssertTrue(stroke.isCrossed(from: Point(x: 50, y: -20), to: Point(x: 50, y: 20), radius: 1))
        XCTAssertTrue(stroke.isCrossed(from: Point(x: 50, y: 9), to: Point(x: 60, y: 9), radius: 6), "within the radius plus half the ink")
        XCTAssertFalse(stroke.isCrossed(from: Point(x: 50, y: 10.5), to: Point(x: 60, y: 10.5), radius: 6))
        XCTAssertFalse(stroke.isCrossed(from: Point(x: 150, y: -20), to: Point(x: 150, y: 20), radius: 6))
    }

    private static func area(_ ring: [Point]) -> Double {
        ring.indices.reduce(0) { sum, i in
            let p = ring[i], q = ring[(i + 1) % ring.count]
            return sum + p.x * q.y - q.x * p.y
        }
    }
}
