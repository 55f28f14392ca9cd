import FolioPixels
import XCTest
import FolioGeometry
import FolioLayers
@testable import FolioRender

/// The rendered pages land where the layer geometry (and the reference corners) say: each page
/// is found in a frame rendered on black without shadows, its straight edges measured with
/// sub-pixel coverage, and the corners taken where the edges meet.
final class FoldGeometryTests: XCTestCase {
    private let scales = [1.0, 0.9, 0.75, 0.6, 0.48]

    /// The reference corners of the left page at 1920×1200: where Core Animation puts them for the same layers.
    private let referenceCorners: [Double: [Point]] = [
        1.0: [Point(x: 0, y: 0), Point(x: 960, y: 0), Point(x: 960, y: 1200), Point(x: 0, y: 1200)],
        0.9: [Point(x: 11.7, y: -23.2), Point(x: 960, y: 60), Point(x: 960, y: 1140), Point(x: 11.7, y: 1223.2)],
        0.75: [Point(x: 277.0, y: -3.7), Point(x: 960, y: 150), Point(x: 960, y: 1050), Point(x: 277.0, y: 1203.7)],
        0.6: [Point(x: 714.9, y: 104.2), Point(x: 960, y: 240), Point(x: 960, y: 960), Point(x: 714.9, y: 1095.8)],
        0.48: [Point(x: 997.6, y: 226.0), Point(x: 960, y: 312), Point(x: 960, y: 888), Point(x: 997.6, y: 974.0)],
    ]

    func testCornersWithinOnePixelAtThreeSizesAndFiveScales() {
        for (w, h) in [(1280, 800), (1920, 1200), (2560, 1600)] {
            let renderer = FoldFixture(pixelWidth: w, pixelHeight: h)
            renderer.prepare(canvas: Bitmap(width: w, height: h, color: 0xFFFF_FFFF))
            let target = Bitmap(width: w, height: h)
            let scene = FoldScene(width: Double(w), height: Double(h))
            for s in scales {
                renderer.render(foldScale: s, into: target, options: .init(background: .flat(0), shadows: false))
                scene.setScale(s)
                for side in [FoldScene.Side.left, .right] {
                    let page = scene.pages[side == .left ? 0 : 1]
                    guard let expected = page.contentLayer.screenQuad else { return XCTFail("no quad at \(s)") }
                    let measured = measureCorners(target, side: side, expected: expected)
                    for (m, e) in zip(measured, expected.corners) {
                        XCTAssertEqual(m.x, e.x, accuracy: 1, "\(w)x\(h) s=\(s) \(side) corner x")
                        XCTAssertEqual(m.y, e.y, accuracy: 1, "\(w)x\(h) s=\(s) \(side) corner y")
                    }
                    if w == 1920, side == .left, let table = referenceCorners[s] {
                        for (m, e) in zip(measured, table) {
                            XCTAssertEqual(m.x, e.x, accuracy: 1.05, "reference corners s=\(s)")
                            XCTAssertEqual(m.y, e.y, accuracy: 1.05, "reference corners s=\(s)")
                        }
                    }
                }
            }
        }
    }

    /// Fractional buffer scales (125 %, 150 %, 175 %): the window's logical geometry times the
    /// scale, measured in buffer pixels, within 2 px; at 1920×1200 and 1.5 the reference corners too.
    func testCornersWithinTwoPixelsAtFractionalScales() {
        let cases = [(1280, 800, 150), (1280, 800, 180), (1280, 800, 210), (1920, 1200, 180)]
        for (lw, lh, numerator) in cases {
            let scale = BufferScale(numerator: numerator), k = scale.factor
            let fixture = FoldFixture(width: lw, height: lh, scale: scale)
            let (w, h) = (fixture.pixelWidth, fixture.pixelHeight)
            XCTAssertEqual([w, h], [scale.pixels(lw), scale.pixels(lh)])
            fixture.prepare(canvas: Bitmap(width: w, height: h, color: 0xFFFF_FFFF))
            let target = Bitmap(width: w, height: h)
            let scene = FoldScene(width: Double(lw), height: Double(lh))
            for s in scales {
                fixture.render(foldScale: s, into: target, options: .init(background: .flat(0), shadows: false))
                scene.setScale(s)
                for side in [FoldScene.Side.left, .right] {
                    let page = scene.pages[side == .left ? 0 : 1]
                    guard let logical = page.contentLayer.screenQuad else { return XCTFail("no quad at \(s)") }
                    let expected = Quad(topLeft: logical.topLeft * k, topRight: logical.topRight * k,
                                        bottomRight: logical.bottomRight * k, bottomLeft: logical.bottomLeft * k)
                    let measured = measureCorners(target, side: side, expected: expected)
                    for (m, e) in zip(measured, expected.corners) {
                        XCTAssertEqual(m.x, e.x, accuracy: 2, "\(lw)x\(lh)@\(scale) s=\(s) \(side) corner x")
                        XCTAssertEqual(m.y, e.y, accuracy: 2, "\(lw)x\(lh)@\(scale) s=\(s) \(side) corner y")
                    }
                    if lw == 1920, side == .left, let table = referenceCorners[s] {
                        for (m, e) in zip(measured, table) {
                            XCTAssertEqual(m.x, e.x * k, accuracy: 2, "reference corners s=\(s) at \(scale)")
                            XCTAssertEqual(m.y, e.y * k, accuracy: 2, "reference corners s=\(s) at \(scale)")
                        }
                    }
                }
            }
        }
    }

    /// Corners (top-left, top-right, bottom-right, bottom-left) of one page measured in `frame`.
    /// The page's outer edge is vertical and its top and bottom edges straight: each is measured
    /// by summed coverage (brightness over the page's interior brightness) and the lines intersected.
    private func measureCorners(_ frame: Bitmap, side: FoldScene.Side, expected: Quad) -> [Point] {
        let spine = Double(frame.width) / 2
        // Which screen columns hold the page: between the spine and the outer edge's rough place.
        let outerGuess = side == .left ? expected.topLeft.x : expected.topRight.x
        let lo = Int(min(outerGuess, spine).rounded(.down)) - 2, hi = Int(max(outerGuess, spine).rounded(.up)) + 2
        let columns = max(0, lo)..<min(frame.width, hi)
        let mid = frame.height / 2
        let interiorX = Int((outerGuess + spine) / 2)
        let full = Double(brightness(frame.pixel(x: min(max(interiorX, 0), frame.width - 1), y: mid)))
        func coverage(_ x: Int, _ y: Int) -> Double { min(1, Double(brightness(frame.pixel(x: x, y: y))) / full) }

        // The outer edge: summed coverage along the middle row, counted from the spine outwards.
        // An outer edge beyond the frame cannot be seen: the edges' lines are then met at its true x.
        var covered = 0.0
        for x in columns where (Double(x) + 0.5 < spine) == (outerGuess < spine) { covered += coverage(x, mid) }
        let visible = outerGuess >= 0 && outerGuess <= Double(frame.width)
        let outerX = !visible ? outerGuess : outerGuess < spine ? spine - covered : spine + covered

        // Top and bottom edges: per column, the uncovered run above and below the middle row.
        let width = abs(spine - outerX)
        var top: [(Double, Double)] = [], bottom: [(Double, Double)] = []
        for x in columns {
            let cx = Double(x) + 0.5
            let fromSpine = abs(cx - spine)
            guard (cx < spine) == (outerX < spine), fromSpine > 2, fromSpine < 0.75 * width else { continue }
            var above = 0.0, below = 0.0
            for y in 0..<mid { above += 1 - coverage(x, y) }
            for y in mid..<frame.height { below += 1 - coverage(x, y) }
            if above > 0.5 { top.append((cx, above)) }
            if below > 0.5 { bottom.append((cx, Double(frame.height) - below)) }
        }
        func line(_ points: [(Double, Double)], fallback: Double) -> (Double) -> Double {
            guard points.count >= 2 else { return { _ in fallback } }
            let n = Double(points.count)
            let mx = points.map(\.0).reduce(0, +) / n, my = points.map(\.1).reduce(0, +) / n
            let sxx = points.map { ($0.0 - mx) * ($0.0 - mx) }.reduce(0, +)
            let sxy = points.map { ($0.0 - mx) * ($0.1 - my) }.reduce(0, +)
            let slope = sxx > 0 ? sxy / sxx : 0
            return { my + slope * ($0 - mx) }
        }
        let topLine = line(top, fallback: 0), bottomLine = line(bottom, fallback: Double(frame.height))
        let outerTop = Point(x: outerX, y: topLine(outerX)), outerBottom = Point(x: outerX, y: bottomLine(outerX))
        let spineTop = Point(x: spine, y: topLine(spine)), spineBottom = Point(x: spine, y: bottomLine(spine))
        return side == .left ? [outerTop, spineTop, spineBottom, outerBottom] : [spineTop, outerTop, outerBottom, spineBottom]
    }

    private func brightness(_ p: UInt32) -> UInt32 { max((p >> 16) & 0xFF, (p >> 8) & 0xFF, p & 0xFF) }
}
