import XCTest
import FolioRender
import FolioPixels

/// The vector kernels promise the portable kernels' bytes exactly; whole frames (backdrop,
/// shadows, both pages, back faces, odd sizes for the leftovers) hold every variant to it.
final class FoldKernelTests: XCTestCase {
    func testVectorKernelsGiveThePortableBytes() throws {
        if FoldKernels.vector.isEmpty {
            if ProcessInfo.processInfo.environment["CI"] == "true" { return XCTFail("this CPU has no vector fold kernels to test") }
            throw XCTSkip("this CPU has no AVX2: only the portable fold kernels run here")
        }
        for (w, h) in [(640, 400), (333, 201)] {
            let canvas = makeTestCanvas(width: w, height: h)
            let portable = FoldFixture(pixelWidth: w, pixelHeight: h, kernels: .portable)
            portable.prepare(canvas: canvas)
            let expected = Bitmap(width: w, height: h), frame = Bitmap(width: w, height: h)
            for vector in FoldKernels.vector {
                let fast = FoldFixture(pixelWidth: w, pixelHeight: h, kernels: vector)
                fast.prepare(canvas: canvas)
                for s in [1.0, 0.9, 0.75, 0.6, 0.48] {
                    for options in [PageRenderOptions(), PageRenderOptions(background: .flat(0x336699), shadows: false)] {
                        portable.render(foldScale: s, into: expected, options: options)
                        fast.render(foldScale: s, into: frame, options: options)
                        var differing = 0
                        for y in 0..<h {
                            for x in 0..<w where expected.pixel(x: x, y: y) != frame.pixel(x: x, y: y) { differing += 1 }
                        }
                        XCTAssertEqual(differing, 0, "\(w)x\(h) s=\(s) \(options): \(vector.name) differs from portable")
                    }
                }
            }
        }
    }
}
