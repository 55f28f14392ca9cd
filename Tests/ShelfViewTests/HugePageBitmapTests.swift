import FolioPixels
import FolioRender
import XCTest

/// The shelf's frame memory: asked for in 2 MiB pages, a bitmap like any other.
final class HugePageBitmapTests: XCTestCase {
    func testAFrameOnHugePagesIsClearAndHoldsWhatIsDrawn() {
        // Larger than a huge page and not a whole number of them, beside a small one.
        let frame = Bitmap.onHugePages(width: 1283, height: 817), small = Bitmap.onHugePages(width: 3, height: 2)
        XCTAssertEqual(frame.stride, 1283 * 4)
        XCTAssertEqual(Int(bitPattern: frame.pixels) % (2 << 20), 0, "aligned to a huge page")
        for (x, y) in [(0, 0), (1282, 816), (640, 400)] { XCTAssertEqual(frame.pixel(x: x, y: y), 0) }
        frame.fill(0xFF11_2233)
        small.fill(0x8040_2010, in: PixelRect(x: 1, y: 1, width: 1, height: 1))
        XCTAssertEqual(frame.pixel(x: 1282, y: 816), 0xFF11_2233)
        XCTAssertEqual(small.pixel(x: 1, y: 1), 0x8040_2010)
        XCTAssertEqual(small.pixel(x: 0, y: 0), 0)
        let copy = Bitmap(width: 1283, height: 817)
        copy.copy(frame.bounds, from: frame)
        XCTAssertEqual(copy.pixel(x: 700, y: 500), 0xFF11_2233)
    }
}
