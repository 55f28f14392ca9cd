import XCTest
import FolioRender
import FolioGeometry
import FolioPixels

/// The vector kernels promise the portable kernels' bytes exactly; whole frames (backdrop,
/// shadows, both pages, back faces, odd sizes for the leftovers) hold every variant to it.
final class PageKernelTests: XCTestCase {
    func testVectorKernelsGiveThePortableBytes() throws {
        if PageKernels.vector.isEmpty {
            if ProcessInfo.processInfo.environment["CI"] == "true" { return XCTFail("this CPU has no vector page kernels to test") }
            throw XCTSkip("this CPU has no AVX2: only the portable page kernels run here")
        }
        // Logical sizes and buffer scales: whole, and fractional (1.5: 500×302 buffers, 1.25: 400×250).
        for (lw, lh, scale) in [(640, 400, BufferScale(1)), (333, 201, 1), (333, 201, BufferScale(numerator: 180)),
                                (320, 200, BufferScale(numerator: 150))] {
            let (w, h) = (scale.pixels(lw), scale.pixels(lh))
            let canvas = makeTestCanvas(width: w, height: h)
            let portable = FoldFixture(width: lw, height: lh, scale: scale, kernels: .portable)
            portable.prepare(canvas: canvas)
            let expected = Bitmap(width: w, height: h), frame = Bitmap(width: w, height: h)
            for vector in PageKernels.vector {
                let fast = FoldFixture(width: lw, height: lh, scale: scale, kernels: vector)
                fast.prepare(canvas: canvas)
                for s in [1.0, 0.9, 0.75, 0.6, 0.48] {
                    for options in [PageRenderOptions(), PageRenderOptions(background: .flat(0x336699), shadows: false)] {
                        portable.render(foldScale: s, into: expected, options: options)
                        fast.render(foldScale: s, into: frame, options: options)
                        var differing = 0
                        for y in 0..<h {
                            for x in 0..<w where expected.pixel(x: x, y: y) != frame.pixel(x: x, y: y) { differing += 1 }
                        }
                        XCTAssertEqual(differing, 0, "\(lw)x\(lh)@\(scale) s=\(s) \(options): \(vector.name) differs from portable")
                    }
                }
            }
        }
    }
}
