import FolioPixels
import FolioRandom
import XCTest
import FolioGeometry
import FolioLayers
@testable import FolioRender

/// PageImage's fast loops against a per-pixel statement of what they compute, exactly: the
/// transposed masked front, and the back (unpremultiplied, box-blurred along both axes with
/// clamped edges, faded toward the paper, masked), both with their borders and opaque spans.
/// `make test` runs them on a debug build (the plain loops) and on a release build (the vector
/// loops, `#if !DEBUG`): both give the reference's bytes, so release frames are debug frames.
final class PageImageTests: XCTestCase {
    // Pages of 22 and 19 columns by 45 rows: release builds' vector blocks (16 columns, 4 or 32
    // rows) run whole and leave tails.
    private let width = 41, height = 45, spine = 22

    func testFrontIsTheMaskedCanvasWithClampedBorders() {
        let canvas = makeNoisyCanvas(width: width, height: height)
        for (page, mask) in pages() {
            page.load(from: canvas, mask: mask)
            assertMatches(page, expected: { x, y in mask.apply(canvas.pixel(x: x, y: y), x: x, y: y) })
        }
    }

    func testBackIsTheBlurredFadedMaskedFrontAtSeveralRadii() {
        let canvas = makeNoisyCanvas(width: width, height: height)
        // Radius 30 is wider than either page and taller than the canvas: every tap clamps.
        for radius in [1, 2, 3, 7, 30] {
            for (front, mask) in pages() {
                front.load(from: canvas, mask: mask)
                let back = PageImage(columns: front.columns, rows: front.rows, firstCanvasColumn: front.firstCanvasColumn)
                back.loadBack(of: front, mask: mask, blurRadius: radius)
                let expected = referenceBack(of: front, mask: mask, radius: radius)
                assertMatches(back, expected: expected, "radius \(radius)")
            }
        }
    }

    /// The two pages of a `width`×`height` canvas split at `spine`, each with its outer corners rounded.
    private func pages() -> [(PageImage, PixelMask)] {
        let outline = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        let left = PixelMask(path: LayerPath(roundedRect: outline, radius: 6.5, corners: [.topLeft, .bottomLeft]))
        let right = PixelMask(path: LayerPath(roundedRect: outline, radius: 6.5, corners: [.topRight, .bottomRight]))
        return [(PageImage(columns: spine, rows: height, firstCanvasColumn: 0), left),
                (PageImage(columns: width - spine, rows: height, firstCanvasColumn: spine), right)]
    }

    /// Opaque pixels, translucent premultiplied ones and transparent ones, from a fixed seed.
    private func makeNoisyCanvas(width: Int, height: Int) -> Bitmap {
        let canvas = Bitmap(width: width, height: height)
        var random = SeededRandom(state: 0x9E37_79B9_7F4A_7C15)
        func next() -> UInt32 { random.bits() }
        for y in 0..<height {
            for x in 0..<width {
                let r = next()
                let alpha: UInt32 = r % 4 == 0 ? r % 3 == 0 ? 0 : (r >> 8) & 0xFF : 0xFF
                func channel() -> UInt32 { alpha == 0 ? 0 : next() % (alpha + 1) }
                let p = alpha << 24 | channel() << 16 | channel() << 8 | channel()
                canvas.pixels.storeBytes(of: p, toByteOffset: y * canvas.stride + x * 4, as: UInt32.self)
            }
        }
        return canvas
    }

    private func referenceBack(of front: PageImage, mask: PixelMask, radius: Int) -> (Int, Int) -> UInt32 {
        let columns = front.columns, rows = front.rows, first = front.firstCanvasColumn, n = 2 * radius + 1
        func channels(_ p: UInt32) -> [Int] { [16, 8, 0].map { Int((p >> UInt32($0)) & 0xFF) } }
        func unpremultiplied(_ p: UInt32) -> [Int] {
            let a = Int(p >> 24)
            if a == 0 { return [255, 255, 255] }
            return channels(p).map { min(255, ($0 * 255 + a / 2) / a) }
        }
        let colour = (0..<columns).map { c in (0..<rows).map { y in unpremultiplied(front.pixel(canvasColumn: first + c, row: y)) } }
        func clamp(_ v: Int, _ count: Int) -> Int { min(max(v, 0), count - 1) }
        let down = (0..<columns).map { c in
            (0..<rows).map { y in
                (0..<3).map { k in (-radius...radius).reduce(0) { $0 + colour[c][clamp(y + $1, rows)][k] } / n }
            }
        }
        let across = (0..<columns).map { c in
            (0..<rows).map { y in
                (0..<3).map { k in (-radius...radius).reduce(0) { $0 + down[clamp(c + $1, columns)][y][k] } / n }
            }
        }
        let paper = [236, 233, 226]
        return { x, y in
            let v = across[x - first][y]
            let faded = (0..<3).map { k in paper[k] + Int((Double((v[k] - paper[k]) * 77 + 128) / 256).rounded(.down)) }
            let p = 0xFF00_0000 | UInt32(faded[0]) << 16 | UInt32(faded[1]) << 8 | UInt32(faded[2])
            return mask.apply(p, x: x, y: y)
        }
    }

    /// Every stored pixel against `expected` (canvas coordinates), the border against its clamped
    /// neighbour, and each stored row's recorded opaque span against a plain scan.
    private func assertMatches(_ page: PageImage, expected: (Int, Int) -> UInt32, _ note: String = "",
                               file: StaticString = #filePath, line: UInt = #line) {
        let first = page.firstCanvasColumn, last = first + page.columns - 1
        var wrong = 0
        for c in (first - 1)...(last + 1) {
            for y in -1...page.rows {
                let want = expected(min(max(c, first), last), min(max(y, 0), page.rows - 1))
                let got = page.pixel(canvasColumn: c, row: y)
                if got != want {
                    if wrong < 5 { XCTFail("\(note) column \(c) row \(y): \(hex(got)), want \(hex(want))", file: file, line: line) }
                    wrong += 1
                }
            }
        }
        XCTAssertEqual(wrong, 0, "\(note): pixels differ", file: file, line: line)
        for i in 0..<(page.columns + 2) {
            let opaque = (0...(page.rows + 1)).filter { page.row(i)[$0] >> 24 == 0xFF }
            XCTAssertEqual(Int(page.opaqueFirst[i]), opaque.first ?? page.rows + 2, "\(note) stored row \(i)", file: file, line: line)
            if let end = opaque.last {
                XCTAssertEqual(Int(page.opaqueLast[i]), end, "\(note) stored row \(i)", file: file, line: line)
            } else {
                XCTAssertGreaterThan(page.opaqueFirst[i], page.opaqueLast[i], "\(note) stored row \(i)", file: file, line: line)
            }
        }
    }

    private func hex(_ p: UInt32) -> String { "0x" + String(p, radix: 16) }
}

final class BoxDivisionTests: XCTestCase {
    func testDividesEverySumExactlyForEveryRadius() {
        for radius in 1...BoxDivision.largestRadius {
            let taps = 2 * radius + 1, divide = BoxDivision(radius: radius)
            for sum in 0...(255 * taps) where Int(divide(UInt16(sum))) != sum / taps {
                XCTFail("radius \(radius): \(sum) / \(taps) gave \(divide(UInt16(sum)))")
                break
            }
        }
    }
}
