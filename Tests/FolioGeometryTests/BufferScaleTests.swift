import FolioGeometry
import XCTest

/// wp_fractional_scale_v1: the scale is N/120, and a toplevel's buffer is the surface size times
/// it, rounded halfway away from zero.
final class BufferScaleTests: XCTestCase {
    func testBufferSizesAreTheLogicalSizeTimesTheScaleRounded() {
        XCTAssertEqual(BufferScale(numerator: 180).pixels(1280), 1920)
        XCTAssertEqual(BufferScale(numerator: 180).pixels(800), 1200)
        XCTAssertEqual(BufferScale(numerator: 150).pixels(1280), 1600)
        XCTAssertEqual(BufferScale(numerator: 150).pixels(800), 1000)
        XCTAssertEqual(BufferScale(numerator: 210).pixels(1920), 3360)
        XCTAssertEqual(BufferScale(2).pixels(1280), 2560)
        // Halfway cases round away from zero: 101 × 1.5 = 151.5 → 152; 1 × 1.25 = 1.25 → 1.
        XCTAssertEqual(BufferScale(numerator: 180).pixels(101), 152)
        XCTAssertEqual(BufferScale(numerator: 150).pixels(1), 1)
        XCTAssertEqual(BufferScale(numerator: 180).pixels(-101), -152)
        // 7 × 121/120 = 7.058 → 7; 60 × 121/120 = 60.5 → 61.
        XCTAssertEqual(BufferScale(numerator: 121).pixels(7), 7)
        XCTAssertEqual(BufferScale(numerator: 121).pixels(60), 61)
        XCTAssertEqual(BufferScale(numerator: .max).pixels(2), .max)
    }

    func testNumbersAreTakenAtTheNearest120th() {
        XCTAssertEqual(BufferScale(nearest: 1.5), BufferScale(numerator: 180))
        XCTAssertEqual(BufferScale(nearest: 1.25), BufferScale(numerator: 150))
        XCTAssertEqual(BufferScale(nearest: 1.75), BufferScale(numerator: 210))
        XCTAssertEqual(BufferScale(nearest: 1.33), BufferScale(numerator: 160))
        XCTAssertEqual(BufferScale(nearest: 2), 2)
        XCTAssertNil(BufferScale(nearest: .nan))
        XCTAssertNil(BufferScale(nearest: .infinity))
        XCTAssertNil(BufferScale(nearest: 1e300))
    }

    func testWholeScalesAndTheirNames() {
        XCTAssertTrue(BufferScale(2).isInteger)
        XCTAssertFalse(BufferScale(numerator: 180).isInteger)
        XCTAssertEqual(BufferScale(numerator: 180).roundedUp, 2)
        XCTAssertEqual(BufferScale(numerator: 240).roundedUp, 2)
        XCTAssertEqual(BufferScale(numerator: 0).roundedUp, 1)
        XCTAssertEqual(BufferScale(numerator: 180).factor, 1.5)
        XCTAssertEqual(["\(BufferScale(2))", "\(BufferScale(numerator: 180))", "\(BufferScale(numerator: 150))",
                        "\(BufferScale(numerator: 141))", "\(BufferScale(numerator: 121))"],
                       ["2", "1.5", "1.25", "1.175", "121/120"])
    }
}
