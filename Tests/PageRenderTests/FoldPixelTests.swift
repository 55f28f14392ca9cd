import FolioPixels
import XCTest
import FolioGeometry
import FolioLayers
@testable import FolioRender

final class FoldPixelTests: XCTestCase {
    func testOpenBookIsExactlyTheFlatCanvasOutsideTheRoundedCorners() {
        let (w, h) = (640, 400)
        let canvas = makeTestCanvas(width: w, height: h)
        let renderer = FoldFixture(pixelWidth: w, pixelHeight: h)
        renderer.prepare(canvas: canvas)
        let target = Bitmap(width: w, height: h)
        renderer.render(foldScale: 1, into: target)
        let r = Int(FoldScene.cornerRadius) + 1
        var differing = 0, cornerPixelsShowingBackdrop = 0
        for y in 0..<h {
            for x in 0..<w {
                let inCorner = (x < r || x >= w - r) && (y < r || y >= h - r)
                if inCorner {
                    if target.pixel(x: x, y: y) != canvas.pixel(x: x, y: y) { cornerPixelsShowingBackdrop += 1 }
                } else if target.pixel(x: x, y: y) != canvas.pixel(x: x, y: y) {
                    differing += 1
                }
            }
        }
        XCTAssertEqual(differing, 0, "pixels of the open book that differ from the canvas")
        XCTAssertGreaterThan(cornerPixelsShowingBackdrop, 4 * 100, "the rounded corners should show the backdrop")
    }

    /// Odd widths (the spine inside a pixel), tiny windows and HiDPI buffers, whole and
    /// fractional (1281×801 at 1.25 is a 1601×1001 buffer): every scale renders, and the open book
    /// is still the canvas away from the rounded corners.
    func testOddTinyAndHiDPISizes() {
        let cases: [(Int, Int, BufferScale)] = [(1281, 801, 1), (37, 23, 1), (320, 200, 2),
                                                (1281, 801, BufferScale(numerator: 150)), (427, 267, BufferScale(numerator: 210))]
        for (lw, lh, bufferScale) in cases {
            let (w, h, scale) = (bufferScale.pixels(lw), bufferScale.pixels(lh), bufferScale.factor)
            let canvas = makeTestCanvas(width: w, height: h)
            let renderer = FoldFixture(width: lw, height: lh, scale: bufferScale)
            renderer.prepare(canvas: canvas)
            let target = Bitmap(width: w, height: h)
            for s in [0.48, 0.6, 0.75, 0.9] {
                renderer.render(foldScale: s, into: target, options: .init(threads: 2))
                XCTAssertNotEqual(target.pixel(x: w / 2 - 1, y: h / 2), target.pixel(x: 0, y: 0), "\(w)x\(h)@\(scale) s=\(s)")
            }
            renderer.render(foldScale: 1, into: target)
            let r = Int((FoldScene.cornerRadius * scale).rounded(.up)) + 1
            var differing = 0
            for y in 0..<h {
                for x in 0..<w where !((x < r || x >= w - r) && (y < r || y >= h - r)) {
                    if target.pixel(x: x, y: y) != canvas.pixel(x: x, y: y) { differing += 1 }
                }
            }
            XCTAssertEqual(differing, 0, "\(w)x\(h)@\(scale): open book differs from the canvas")
        }
    }

    func testShadowsDarkenTheBackdropAroundThePagesAndTheLeftPageNearTheSpine() {
        let (w, h) = (1280, 800)
        let renderer = FoldFixture(pixelWidth: w, pixelHeight: h)
        renderer.prepare(canvas: Bitmap(width: w, height: h, color: 0xFFFF_FFFF))
        let lit = Bitmap(width: w, height: h), plain = Bitmap(width: w, height: h)
        let grey = PageRenderOptions.Background.flat(0x80_8080)
        renderer.render(foldScale: 0.75, into: lit, options: .init(background: grey, shadows: true))
        renderer.render(foldScale: 0.75, into: plain, options: .init(background: grey, shadows: false))
        dump(lit, name: "shadow-0.75")
        func green(_ b: Bitmap, _ x: Int, _ y: Int) -> Int { Int((b.pixel(x: x, y: y) >> 8) & 0xFF) }
        // The left page's outer edge is near x = 185 (277 × 2/3): just outside it, on the backdrop.
        XCTAssertEqual(green(plain, 150, 400), 0x80)
        XCTAssertLessThan(green(lit, 150, 400), 0x80 - 20, "backdrop beside the left page")
        XCTAssertLessThan(green(lit, 1130, 400), 0x80 - 20, "backdrop beside the right page")
        XCTAssertLessThan(green(lit, 640, 40), 0x80 - 10, "backdrop above the spine")
        // Far from every page the backdrop is untouched.
        XCTAssertEqual(green(lit, 5, 5), green(plain, 5, 5))
        // The right page's shadow falls over the left page near the spine, not far from it.
        XCTAssertLessThan(green(lit, 630, 400), green(plain, 630, 400) - 20, "left page near the spine")
        XCTAssertEqual(green(lit, 300, 400), green(plain, 300, 400), accuracy: 3, "left page far from the spine")
        // The right page lies on top: its own shadow does not darken it.
        XCTAssertEqual(green(lit, 700, 400), green(plain, 700, 400))
    }

    func testBackFacesShowPaperWithTheFadedDrawingAtTheSmallestScale() {
        let (w, h) = (1280, 800)
        let canvas = makeTestCanvas(width: w, height: h)
        let renderer = FoldFixture(pixelWidth: w, pixelHeight: h)
        renderer.prepare(canvas: canvas)
        let target = Bitmap(width: w, height: h)
        renderer.render(foldScale: 0.48, into: target, options: .init(background: .flat(0), shadows: false))
        dump(target, name: "back-0.48")
        // The left page's back lies right of the spine (x 640…665 at this size), the right's left of it.
        var lit = 0, distinct = Set<UInt32>()
        for y in 200..<600 {
            for x in 616..<664 {
                let p = target.pixel(x: x, y: y)
                if p & 0xFF_FFFF != 0 { lit += 1 }
                distinct.insert(p)
            }
        }
        XCTAssertGreaterThan(lit, 48 * 400 * 9 / 10, "back faces must not be holes")
        XCTAssertGreaterThan(distinct.count, 20, "the drawing should show through the backs")
        // Faded: the blue grid shows much weaker on the back than on the front.
        var bluest = 0
        for y in 200..<600 {
            for x in 616..<664 {
                let p = target.pixel(x: x, y: y)
                bluest = max(bluest, Int(p & 0xFF) - Int((p >> 16) & 0xFF))
            }
        }
        XCTAssertGreaterThan(bluest, 0)
        XCTAssertLessThan(bluest, 120)
    }

    /// The fast sampler against an exact per-pixel reference (double precision, the layer's
    /// generic inverse mapping, bilinear filtering): max channel error ≤ 8 inside the pages, at a
    /// whole buffer scale and at 1.5.
    func testFastSamplerMatchesTheExactReference() {
        var worst = 0, compared = 0
        for (lw, lh, scale) in [(1280, 800, BufferScale(1)), (800, 500, BufferScale(numerator: 180))] {
            let (w, h) = (scale.pixels(lw), scale.pixels(lh))
            let canvas = makeTestCanvas(width: w, height: h)
            let renderer = FoldFixture(width: lw, height: lh, scale: scale)
            renderer.prepare(canvas: canvas)
            let target = Bitmap(width: w, height: h)
            for s in [0.9, 0.75, 0.6, 0.48] {
                renderer.render(foldScale: s, into: target, options: .init(background: .flat(0), shadows: false))
                let reference = ReferenceFold(renderer: renderer, scale: s)
                for y in stride(from: 0, to: h, by: 3) {
                    for x in 0..<w {
                        guard let exact = reference.interiorPixel(x: x, y: y) else { continue }
                        let got = target.pixel(x: x, y: y)
                        for shift: UInt32 in [0, 8, 16] {
                            worst = max(worst, abs(Int((got >> shift) & 0xFF) - Int((exact >> shift) & 0xFF)))
                        }
                        compared += 1
                    }
                }
            }
        }
        print("fold accuracy: max channel error \(worst) over \(compared) interior pixels")
        XCTAssertGreaterThan(compared, 200_000)
        XCTAssertLessThanOrEqual(worst, 8)
    }
}

/// The exact reference: per pixel, the screen point is mapped back onto each page with the
/// layer's own inverse (`Transform3D.unproject`), sampled bilinearly in double precision from the
/// prepared page image, and lit. Only page interiors (one page, all taps opaque) are answered.
struct ReferenceFold {
    let renderer: FoldFixture
    let pages: [(transform: Transform3D, bounds: Rect, contentsRect: Rect, image: PageImage, light: Double, left: Bool)]

    init(renderer: FoldFixture, scale s: Double) {
        self.renderer = renderer
        renderer.scene.setScale(s)
        pages = renderer.scene.pages.enumerated().map { i, page in
            let m = page.contentLayer.transformToRoot
            let nz = page.shadowLayer.transform.normal.z
            let light = PageRenderer.ambientLight + (1 - PageRenderer.ambientLight) * abs(nz)
            return (m, page.contentLayer.bounds, page.contentLayer.contentsRect,
                    renderer.pageImage(index: i, back: nz < 0), light, page.side == .left)
        }
    }

    func interiorPixel(x: Int, y: Int) -> UInt32? {
        let scale = renderer.scale
        var hits: [UInt32] = []
        for page in pages {
            let screen = Point(x: (Double(x) + 0.5) / scale, y: (Double(y) + 0.5) / scale)
            guard let local = page.transform.unproject(screen) else { continue }
            let b = page.bounds, cr = page.contentsRect
            guard local.x >= b.minX, local.x <= b.maxX, local.y >= b.minY, local.y <= b.maxY else { continue }
            // Interior means the whole pixel square lies on the page (edges are antialiased by coverage).
            for (dx, dy) in [(0.0, 0.0), (1, 0), (0, 1), (1, 1)] {
                let corner = Point(x: (Double(x) + dx) / scale, y: (Double(y) + dy) / scale)
                guard let c = page.transform.unproject(corner), c.x >= b.minX, c.x <= b.maxX,
                      c.y >= b.minY, c.y <= b.maxY else { return nil }
            }
            let cx = (cr.minX + (local.x - b.minX) / b.width * cr.width) * Double(renderer.pixelWidth)
            let cy = (cr.minY + (local.y - b.minY) / b.height * cr.height) * Double(renderer.pixelHeight)
            let u = cx - Double(page.image.firstCanvasColumn) + 0.5, v = cy + 0.5
            let i = Int(u.rounded(.down)), j = Int(v.rounded(.down))
            guard i >= 1, j >= 1, i + 1 <= page.image.columns, j + 1 <= page.image.rows else { return nil }
            let fu = u - Double(i), fv = v - Double(j)
            let taps = [page.image.row(i)[j], page.image.row(i + 1)[j], page.image.row(i)[j + 1], page.image.row(i + 1)[j + 1]]
            guard taps.allSatisfy({ $0 >> 24 == 0xFF }) else { return nil }
            let weights = [(1 - fu) * (1 - fv), fu * (1 - fv), (1 - fu) * fv, fu * fv]
            var pixel: UInt32 = 0xFF00_0000
            for shift: UInt32 in [0, 8, 16] {
                let value = zip(taps, weights).reduce(0.0) { $0 + Double(($1.0 >> shift) & 0xFF) * $1.1 }
                pixel |= UInt32(min(255, (value * page.light).rounded())) << shift
            }
            hits.append(pixel)
        }
        return hits.count == 1 ? hits[0] : nil
    }
}
