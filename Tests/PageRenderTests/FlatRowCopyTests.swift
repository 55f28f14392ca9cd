import XCTest
import FolioLayers
import FolioPixels
@testable import FolioRender

/// Where a flat page shows its contents pixel for pixel, the renderer copies whole rows from them
/// instead of drawing columns, and tiles that show only the backdrop (a deep fold) take the
/// backdrop's rows, darkened under a shadow. The frames must be the columns' bytes exactly: page
/// turns and folds, odd and HiDPI sizes, every kernel set, one and two threads.
final class FlatRowCopyTests: XCTestCase {
    private let turns = [0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 1.0]
    private let folds = [1.0, 0.9, 0.75, 0.48]
    private let looks = [PageRenderOptions(), PageRenderOptions(background: .flat(0x336699), shadows: false)]

    func testCopiedRowsGiveTheColumnsBytes() {
        var copied = Copied()
        for (w, h, scale) in [(640, 400, 1.0), (333, 201, 1.0), (1281, 801, 1.0), (640, 400, 2.0)] {
            copied.add(compare(width: w, height: h, scale: scale, kernels: .best, threads: 1))
        }
        XCTAssertGreaterThan(copied.page, 0, "no frame copied any rows of a page: the comparison proved nothing")
        XCTAssertGreaterThan(copied.lit, 0, "no frame copied rows of a page under a gradient shadow")
        XCTAssertGreaterThan(copied.backdrop, 0, "no frame copied rows of the bare backdrop")
    }

    func testEveryKernelSetAndTwoThreadsCopyTheSameBytes() {
        for kernels in PageKernels.available {
            let copied = compare(width: 640, height: 400, scale: 1, kernels: kernels, threads: 2)
            XCTAssertGreaterThan(copied.page, 0, kernels.name)
            XCTAssertGreaterThan(copied.lit, 0, kernels.name)
            XCTAssertGreaterThan(copied.backdrop, 0, kernels.name)
        }
        // Shadows reach the edges of small frames: only a large one leaves bare tiles under a shadow.
        for kernels in PageKernels.available {
            let copied = compare(width: 2560, height: 1600, scale: 1, kernels: kernels, threads: 2, folds: [0.75, 0.48])
            XCTAssertGreaterThan(copied.darkened, 0, kernels.name)
        }
    }

    /// Pixels copied in rows: of pages (and of them, lit column by column), of the bare backdrop
    /// (and of it, under a shadow).
    private struct Copied {
        var page = 0, lit = 0, backdrop = 0, darkened = 0

        mutating func add(_ other: Copied) {
            page += other.page
            lit += other.lit
            backdrop += other.backdrop
            darkened += other.darkened
        }
    }

    /// Renders every turn and fold (only the folds `folds`, when given) with row copies and without;
    /// returns the pixels copied.
    private func compare(width w: Int, height h: Int, scale: Double, kernels: PageKernels, threads: Int,
                         folds: [Double]? = nil) -> Copied {
        let earlier = makeTestCanvas(width: w, height: h)
        let later = Bitmap(width: w, height: h, color: 0xFFF4_EEE0)
        later.fill(0xFF11_8833, in: PixelRect(x: w / 3, y: h / 4, width: w / 2, height: h / 3))
        let back = Bitmap(width: w, height: h, color: 0xFFE0_E4F0)
        let copying = PageRenderer(pixelWidth: w, pixelHeight: h, scale: scale, kernels: kernels)
        let drawing = PageRenderer(pixelWidth: w, pixelHeight: h, scale: scale, kernels: kernels)
        drawing.copiesRows = false
        let expected = Bitmap(width: w, height: h), frame = Bitmap(width: w, height: h)
        var copied = Copied()
        func check(_ root: Layer, _ what: String) {
            for look in looks {
                var options = look
                options.threads = threads
                drawing.render(root, into: expected, options: options)
                copying.render(root, into: frame, options: options)
                copied.page += copying.copiedPixels()
                copied.lit += copying.copiedPixels(lit: true)
                copied.backdrop += copying.copiedPixels(backdrop: true)
                copied.darkened += copying.copiedPixels(backdrop: true, darkened: true)
                var differing = 0
                if memcmp(expected.pixels, frame.pixels, expected.stride * h) != 0 {
                    for y in 0..<h {
                        for x in 0..<w where expected.pixel(x: x, y: y) != frame.pixel(x: x, y: y) { differing += 1 }
                    }
                }
                XCTAssertEqual(differing, 0, "\(w)x\(h)@\(scale) \(kernels.name) \(threads) threads \(what) \(look)")
            }
        }
        let turn = PageTurnScene(width: Double(w) / scale, height: Double(h) / scale)
        turn.setContents(earlier: earlier, later: later, leafBack: back)
        copying.prepare(turn.root)
        drawing.prepare(turn.root)
        for q in folds == nil ? turns : [] {
            turn.setAngle(-q * Double.pi)
            check(turn.root, "turn q=\(q)")
        }
        let fold = FoldScene(width: Double(w) / scale, height: Double(h) / scale)
        fold.setContents(earlier)
        copying.prepare(fold.root)
        drawing.prepare(fold.root)
        for s in folds ?? self.folds {
            fold.setScale(s)
            check(fold.root, "fold s=\(s)")
        }
        return copied
    }
}
