import FolioGeometry
import XCTest

final class SurfaceLimitsTests: XCTestCase {
    func testSizesWithinTheLimitsAreKept() {
        let fit = SurfaceLimits.fit(width: 1920, height: 1200, scale: 2)
        XCTAssertEqual([fit.width, fit.height, fit.scale], [1920, 1200, 2])
        XCTAssertFalse(fit.adjusted)
    }

    func testTheScaleIsLoweredBeforeTheSize() {
        let fit = SurfaceLimits.fit(width: 5000, height: 3000, scale: 2)
        XCTAssertEqual([fit.width, fit.height, fit.scale], [5000, 3000, 1])
        XCTAssertTrue(fit.adjusted)
    }

    func testEveryExtremeFitsTheBuffersFolioDraws() {
        for (w, h, s) in [(Int.max, Int.max, Int.max), (Int.min, 0, -3), (16384, 16384, 8), (1, 1, 1), (8192, 2, 9)] {
            let fit = SurfaceLimits.fit(width: w, height: h, scale: s)
            XCTAssertTrue(SurfaceLimits.scales.contains(fit.scale), "\(w)x\(h)@\(s)")
            XCTAssertGreaterThanOrEqual(min(fit.width, fit.height), SurfaceLimits.minimumSide)
            XCTAssertLessThanOrEqual(max(fit.width, fit.height) * fit.scale, SurfaceLimits.maximumBufferSide, "\(w)x\(h)@\(s)")
        }
    }
}
