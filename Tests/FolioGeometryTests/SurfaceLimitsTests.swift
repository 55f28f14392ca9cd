import FolioGeometry
import XCTest

final class SurfaceLimitsTests: XCTestCase {
    func testSizesWithinTheLimitsAreKept() {
        for scale in [BufferScale(2), BufferScale(numerator: 180)] {
            let fit = SurfaceLimits.fit(width: 1920, height: 1200, scale: scale)
            XCTAssertEqual([fit.width, fit.height], [1920, 1200])
            XCTAssertEqual(fit.scale, scale)
            XCTAssertFalse(fit.adjusted)
        }
    }

    func testTheScaleIsLoweredBeforeTheSize() {
        let fit = SurfaceLimits.fit(width: 5000, height: 3000, scale: 2)
        XCTAssertEqual([fit.width, fit.height], [5000, 3000])
        XCTAssertEqual(fit.scale, 1)
        XCTAssertTrue(fit.adjusted)
    }

    /// A whole scale stays whole (it may become wl_surface.set_buffer_scale); a fractional one is
    /// lowered to the largest 1/120 step whose buffer fits.
    func testAFractionalScaleIsLoweredInStepsOf120ths() {
        let fit = SurfaceLimits.fit(width: 5000, height: 3000, scale: BufferScale(numerator: 300))
        XCTAssertEqual(fit.scale, BufferScale(numerator: 196))  // 5000 × 196/120 = 8166.7 → 8167; 197 would be 8208
        XCTAssertEqual(fit.scale.pixels(5000), 8167)
        XCTAssertEqual(SurfaceLimits.fit(width: 3000, height: 3000, scale: 3).scale, 2)
    }

    func testEveryExtremeFitsTheBuffersFolioDraws() {
        let cases: [(Int, Int, BufferScale)] = [
            (.max, .max, BufferScale(numerator: .max)), (.min, 0, BufferScale(numerator: -3)), (16384, 16384, 8), (1, 1, 1),
            (8192, 2, 9), (8192, 8192, BufferScale(numerator: 121)), (4097, 3, BufferScale(numerator: 959)), (2, 2, 0),
        ]
        for (w, h, s) in cases {
            let fit = SurfaceLimits.fit(width: w, height: h, scale: s)
            XCTAssertTrue(SurfaceLimits.scales.contains(fit.scale), "\(w)x\(h)@\(s)")
            XCTAssertGreaterThanOrEqual(min(fit.width, fit.height), SurfaceLimits.minimumSide)
            XCTAssertLessThanOrEqual(fit.scale.pixels(max(fit.width, fit.height)), SurfaceLimits.maximumBufferSide, "\(w)x\(h)@\(s)")
        }
    }
}
