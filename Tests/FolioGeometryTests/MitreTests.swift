import Foundation
import FolioGeometry
import XCTest

/// The mitre that joins two pieces of ink at a gentle bend, and the compass quarter that keeps a
/// run of mitred pieces from folding back over itself.
final class MitreTests: XCTestCase {
    /// The quarter as atan2 alone gives it (what both ink paths used before they shared `Mitre`).
    private func quarterByAngle(_ d: Point) -> Int {
        let turns = (atan2(d.y, d.x) + Double.pi / 4) / (Double.pi / 2)
        return ((Int(turns.rounded(.down)) % 4) + 4) % 4
    }

    func testQuarterAgreesWithTheAngleEverywhereEvenOnAndBesideTheDiagonals() {
        XCTAssertEqual(Mitre.quarter(Point(x: 1, y: 0)), 0)
        XCTAssertEqual(Mitre.quarter(Point(x: 0, y: 1)), 1)
        XCTAssertEqual(Mitre.quarter(Point(x: -1, y: 0)), 2)
        XCTAssertEqual(Mitre.quarter(Point(x: 0, y: -1)), 3)
        var directions: [Point] = []
        for k in 0..<3600 {
            let angle = Double(k) / 3600 * 2 * Double.pi
            directions.append(Point(x: cos(angle) * 7.3, y: sin(angle) * 7.3))
        }
        for sx in [-1.0, 1.0] {
            for sy in [-1.0, 1.0] {
                for v in [1.0, 3.25, 1e-300, 1e300] {
                    // On a diagonal and one ulp either side of it.
                    directions += [Point(x: sx * v, y: sy * v), Point(x: sx * v.nextUp, y: sy * v), Point(x: sx * v, y: sy * v.nextUp)]
                }
            }
        }
        directions += [Point(x: 0, y: 0), Point(x: .infinity, y: 2), Point(x: -.infinity, y: .infinity)]
        for d in directions {
            XCTAssertEqual(Mitre.quarter(d), quarterByAngle(d), "direction (\(d.x), \(d.y))")
        }
    }

    func testADirectionThatIsNotANumberHasAQuarterInsteadOfTrapping() {
        XCTAssertEqual(Mitre.quarter(Point(x: .nan, y: 1)), 0)
        XCTAssertEqual(Mitre.quarter(Point(x: .nan, y: .nan)), 0)
    }

    func testAStraightContinuationIsCutSquareAcrossAtTheHalfWidth() throws {
        let normal = Point(x: 0, y: 1)
        let offset = try XCTUnwrap(Mitre.offset(normal, normal, radius: 3, tolerance: 0.05, shorterPiece: 10))
        XCTAssertEqual(offset.x, 0, accuracy: 1e-12)
        XCTAssertEqual(offset.y, 3, accuracy: 1e-12)
    }

    func testAGentleBendIsCutAlongTheBisectorWithinTheTolerance() throws {
        // Pieces heading right, then turned by 10°: the cut lies on the bisector of the normals,
        // radius / cos(5°) from the joint.
        let turn = 10 * Double.pi / 180
        let n1 = Point(x: 0, y: 1), n2 = Point(x: -sin(turn), y: cos(turn))
        let radius = 4.5
        let offset = try XCTUnwrap(Mitre.offset(n1, n2, radius: radius, tolerance: 0.05, shorterPiece: 20))
        let length = (offset.x * offset.x + offset.y * offset.y).squareRoot()
        XCTAssertEqual(length, radius / cos(turn / 2), accuracy: 1e-9)
        XCTAssertLessThanOrEqual(length - radius, 0.05)
        XCTAssertEqual(atan2(offset.x, offset.y), -turn / 2, accuracy: 1e-12)
    }

    func testASharpBendOrAShortPieceGetsNoMitre() {
        let n1 = Point(x: 0, y: 1)
        // 30°: the mitre would reach radius·(1/cos 15° − 1) ≈ 0.10 beyond the round joint at radius 3.
        let turn = 30 * Double.pi / 180
        let n2 = Point(x: -sin(turn), y: cos(turn))
        XCTAssertNil(Mitre.offset(n1, n2, radius: 3, tolerance: 0.05, shorterPiece: 100))
        XCTAssertNotNil(Mitre.offset(n1, n2, radius: 3, tolerance: 0.2, shorterPiece: 100))
        // A 10° bend at radius 3 reaches 3·tan 5° ≈ 0.26 along the pieces: more than half of 0.5.
        let gentle = Point(x: -sin(Double.pi / 18), y: cos(Double.pi / 18))
        XCTAssertNil(Mitre.offset(n1, gentle, radius: 3, tolerance: 0.05, shorterPiece: 0.5))
        XCTAssertNotNil(Mitre.offset(n1, gentle, radius: 3, tolerance: 0.05, shorterPiece: 0.6))
        // Opposite normals: a U-turn.
        XCTAssertNil(Mitre.offset(n1, Point(x: 0, y: -1), radius: 3, tolerance: 0.05, shorterPiece: 100))
    }
}
