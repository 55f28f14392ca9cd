import XCTest
@testable import FolioLayers

final class TimingFunctionTests: XCTestCase {
    /// The default curve against a direct solve: bisect x(u) = t on the Bézier, read y(u).
    func testDefaultCurveMatchesADirectBezierSolve() {
        func direct(_ t: Double) -> Double {
            func x(_ u: Double) -> Double { 3 * (1 - u) * (1 - u) * u * 0.25 + 3 * (1 - u) * u * u * 0.25 + u * u * u }
            func y(_ u: Double) -> Double { 3 * (1 - u) * (1 - u) * u * 0.1 + 3 * (1 - u) * u * u * 1.0 + u * u * u }
            var low = 0.0, high = 1.0
            for _ in 0..<200 {
                let mid = (low + high) / 2
                if x(mid) < t { low = mid } else { high = mid }
            }
            return y((low + high) / 2)
        }
        for t in [0.25, 0.5, 0.75] {
            XCTAssertEqual(TimingFunction.default.value(at: t), direct(t), accuracy: 1e-9, "t = \(t)")
        }
        // Known values of CSS `ease` (the same curve), to 3 decimals.
        XCTAssertEqual(TimingFunction.default.value(at: 0.25), 0.409, accuracy: 0.001)
        XCTAssertEqual(TimingFunction.default.value(at: 0.5), 0.802, accuracy: 0.001)
        XCTAssertEqual(TimingFunction.default.value(at: 0.75), 0.960, accuracy: 0.001)
    }

    func testEndsAndLinear() {
        for curve in [TimingFunction.default, .linear, .easeIn, .easeOut, .easeInEaseOut] {
            XCTAssertEqual(curve.value(at: 0), 0)
            XCTAssertEqual(curve.value(at: 1), 1)
            XCTAssertEqual(curve.value(at: -3), 0)
            XCTAssertEqual(curve.value(at: 7), 1)
        }
        for t in stride(from: 0.0, through: 1.0, by: 0.125) {
            XCTAssertEqual(TimingFunction.linear.value(at: t), t, accuracy: 1e-12)
        }
    }

    func testMonotonic() {
        var last = 0.0
        for i in 0...1000 {
            let v = TimingFunction.default.value(at: Double(i) / 1000)
            XCTAssertGreaterThanOrEqual(v, last - 1e-12)
            last = v
        }
    }
}
