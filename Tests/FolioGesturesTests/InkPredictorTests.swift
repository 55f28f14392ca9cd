import FolioGeometry
import XCTest
@testable import FolioGestures

/// The predictor extrapolates smooth motion closely and stays bounded where motion is not smooth.
final class InkPredictorTests: XCTestCase {
    /// Samples every `step` ms from `t0` at the points `path` gives for each time.
    private func predictor(times: StrideThrough<Double>, _ path: (Double) -> Point) -> InkPredictor {
        var predictor = InkPredictor()
        for t in times { predictor.add(path(t), at: t) }
        return predictor
    }

    func testAStraightLineAtConstantSpeedIsPredictedClosely() {
        // 1 px/ms diagonally, a sample every 4 ms (a 240 Hz touch screen).
        let line = { (t: Double) in Point(x: 100 + 0.6 * t, y: 50 + 0.8 * t) }
        let p = predictor(times: stride(from: 0, through: 100, by: 4), line)
        let predicted = p.predict(at: 116, horizonCap: 23.67)
        XCTAssertNotNil(predicted)
        XCTAssertEqual(predicted?.distance(to: line(116)) ?? .infinity, 0, accuracy: 0.01)
    }

    func testAGentleCurveIsPredictedWithinAPixel() {
        // A circle of radius 200 px at 1 px/ms: 5 ms of arc turn less than 2°.
        let circle = { (t: Double) in Point(x: 300 + 200 * cos(t / 200), y: 300 + 200 * sin(t / 200)) }
        let p = predictor(times: stride(from: 0, through: 200, by: 5), circle)
        let predicted = p.predict(at: 216, horizonCap: 23.67)
        XCTAssertLessThan(predicted?.distance(to: circle(216)) ?? .infinity, 1)
    }

    func testTheHorizonIsCapped() {
        let line = { (t: Double) in Point(x: t, y: 0) }
        let p = predictor(times: stride(from: 0, through: 100, by: 4), line)
        // 40 ms ahead asked, 20 ms allowed: the point 20 ms on.
        XCTAssertEqual(p.predict(at: 140, horizonCap: 20)?.x ?? .infinity, 120, accuracy: 0.01)
        XCTAssertNil(p.predict(at: 100, horizonCap: 20), "nothing ahead of the newest sample")
        XCTAssertNil(p.predict(at: 100 + InkPredictor.staleAfter + 1, horizonCap: 20), "the pen has rested too long")
    }

    func testNothingIsPredictedAfterALift() {
        var p = predictor(times: stride(from: 0, through: 100, by: 4)) { Point(x: $0, y: 0) }
        XCTAssertNotNil(p.predict(at: 110, horizonCap: 20))
        p.lift()
        XCTAssertNil(p.predict(at: 110, horizonCap: 20))
        p.add(Point(x: 104, y: 0), at: 104)
        XCTAssertNil(p.predict(at: 110, horizonCap: 20), "samples after a lift start nothing")
    }

    func testTooFewSamplesPredictNothing() {
        var p = InkPredictor()
        p.add(Point(x: 0, y: 0), at: 0)
        p.add(Point(x: 4, y: 0), at: 4)
        XCTAssertNil(p.predict(at: 10, horizonCap: 20))
        p.add(Point(x: 8, y: 0), at: 8)
        XCTAssertNotNil(p.predict(at: 10, horizonCap: 20))
    }

    func testASharpTurnIsBounded() {
        // Right at 1 px/ms, then straight down: a hairpin's corner inside the window.
        let corner = { (t: Double) in t <= 80 ? Point(x: t, y: 0) : Point(x: 80, y: t - 80) }
        for newest in stride(from: 84.0, through: 120, by: 4) {
            let p = predictor(times: stride(from: 0, through: newest, by: 4), corner)
            guard let predicted = p.predict(at: newest + 20, horizonCap: 20) else { continue }
            // Never further than the fastest step allows, however the fit bends.
            XCTAssertLessThanOrEqual(predicted.distance(to: corner(newest)), 20 + 1e-9, "newest sample at \(newest)")
        }
        // Just past a reversal the fit's turn is over 120°: nothing is predicted.
        let reversal = { (t: Double) in Point(x: t <= 80 ? t : 160 - t, y: 0) }
        XCTAssertNil(predictor(times: stride(from: 0, through: 100, by: 4), reversal).predict(at: 120, horizonCap: 20))
    }

    func testAPenComingToRestIsNotPredictedBackwards() {
        // Slowing hard: the fit's deceleration would carry the point back.
        let braking = { (t: Double) in Point(x: 2 * t - 0.0125 * t * t, y: 0) }
        let p = predictor(times: stride(from: 40, through: 80, by: 4), braking)
        if let predicted = p.predict(at: 100, horizonCap: 20) {
            XCTAssertGreaterThanOrEqual(predicted.x, braking(80).x)
        }
    }

    /// A finger sampled every 16 ms round a 20 px circle in 200 ms (fast handwriting): 29°
    /// between samples. Along the newest step the prediction leaves the circle by several px;
    /// turning steadily, it stays on it.
    func testSparseSamplesOnALoopFollowTheLoop() {
        let loop = { (t: Double) -> Point in
            let angle: Double = t * 2 * Double.pi / 200
            return Point(x: 200 + 20 * sin(angle), y: 200 - 20 * cos(angle))
        }
        for newest in stride(from: 64.0, through: 192, by: 16) {
            let p = predictor(times: stride(from: 0, through: newest, by: 16), loop)
            let predicted = p.predict(at: newest + 20, horizonCap: 23.67)
            XCTAssertLessThan(predicted?.distance(to: loop(newest + 20)) ?? .infinity, 0.5, "newest sample at \(newest)")
        }
    }

    /// With only three sparse samples (a stroke's start) one turn is seen: not trusted, the
    /// prediction goes straight along the newest step.
    func testOneTurnOfSparseSamplesIsNotExtrapolated() throws {
        var p = InkPredictor()
        for (t, point) in [(0.0, Point(x: 0, y: 0)), (16, Point(x: 16, y: 0)), (32, Point(x: 32, y: 8))] { p.add(point, at: t) }
        let predicted = try XCTUnwrap(p.predict(at: 48, horizonCap: 23.67))
        XCTAssertEqual(predicted.x, 48, accuracy: 1e-9)
        XCTAssertEqual(predicted.y, 16, accuracy: 1e-9)
    }

    /// Sparse samples round a corner: a wiggle that turns one way then the other predicts no
    /// turn, and a hairpin, however it is sampled, never reaches further than the fastest step.
    func testSparseSamplesRoundACornerAreBounded() throws {
        let zigzag = [Point(x: 0, y: 0), Point(x: 16, y: 0), Point(x: 32, y: 8), Point(x: 48, y: 8)]
        var p = InkPredictor()
        for (i, point) in zigzag.enumerated() { p.add(point, at: Double(i) * 16) }
        let straight = try XCTUnwrap(p.predict(at: 64, horizonCap: 23.67))
        XCTAssertEqual(straight.y, 8, accuracy: 1e-9, "turns of opposite sense: none extrapolated")
        let hairpin = { (t: Double) in t <= 80 ? Point(x: t, y: 0) : Point(x: 80, y: t - 80) }
        for newest in stride(from: 96.0, through: 144, by: 16) {
            let p = predictor(times: stride(from: 0, through: newest, by: 16), hairpin)
            guard let predicted = p.predict(at: newest + 20, horizonCap: 20) else { continue }
            XCTAssertLessThanOrEqual(predicted.distance(to: hairpin(newest)), 20 + 1e-9, "newest sample at \(newest)")
        }
        let reversal = { (t: Double) in Point(x: t <= 80 ? t : 160 - t, y: 0) }
        XCTAssertNil(predictor(times: stride(from: 0, through: 96, by: 16), reversal).predict(at: 116, horizonCap: 20))
    }

    /// A finger slowing steadily to a stop at x = 48 (t = 96), sampled every 16 ms: the newest
    /// step's speed held would carry the ink to x = 51, past the stop; the slowing is followed.
    func testSparseSamplesSlowingDownStopWhereThePenStops() throws {
        let braking = { (t: Double) in Point(x: min(t, 96) - min(t, 96) * min(t, 96) / 192, y: 0) }
        let p = predictor(times: stride(from: 0, through: 64, by: 16), braking)
        let predicted = try XCTUnwrap(p.predict(at: 84, horizonCap: 23.67))
        XCTAssertEqual(predicted.x, braking(84).x, accuracy: 1e-6)
        XCTAssertLessThanOrEqual(predicted.x, 48)
        // Asked beyond the stop, the prediction ends there.
        XCTAssertEqual(try XCTUnwrap(p.predict(at: 110, horizonCap: 46)).x, 48, accuracy: 1e-6)
    }

    /// Speeding up is followed only when two steps in a row show it, and never past half again
    /// the fastest step's speed.
    func testSparseSamplesSpeedingUpAreFollowedWhenSeenTwice() throws {
        // 1, 2 and 3 px/ms over successive 16 ms steps: a steady speed-up, seen twice.
        let speeding = { (t: Double) in Point(x: 0.5 * t + t * t / 32, y: 0) }
        let p = predictor(times: stride(from: 0, through: 48, by: 16), speeding)
        XCTAssertEqual(try XCTUnwrap(p.predict(at: 58, horizonCap: 23.67)).x, speeding(58).x, accuracy: 1e-6)
        // 48 ms on, the speed-up would reach 6.5 px/ms; the move is held to 1.5 × 3 px/ms.
        XCTAssertEqual(try XCTUnwrap(p.predict(at: 96, horizonCap: 48)).x, 96 + 1.5 * 3 * 48, accuracy: 1e-6)
        // One faster step only: its speed is held, not extrapolated.
        var once = InkPredictor()
        for (t, x) in [(0.0, 0.0), (16, 16), (32, 32), (48, 64)] { once.add(Point(x: x, y: 0), at: t) }
        XCTAssertEqual(try XCTUnwrap(once.predict(at: 58, horizonCap: 23.67)).x, 84, accuracy: 1e-6)
    }
}
