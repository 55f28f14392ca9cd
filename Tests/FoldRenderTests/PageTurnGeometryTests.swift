import XCTest
import FolioGeometry
import FolioLayers
import FolioPixels
@testable import FolioRender

/// The page turn lands where its layer math says: the leaf's outer edge and the ink on it, found
/// in rendered frames with sub-pixel coverage, against the projection of the scene's layers, at
/// several stages of the turn (past 90° too, where the back shows), sizes and scales.
final class PageTurnGeometryTests: XCTestCase {
    private let red: UInt32 = 0xFFFF_0000, green: UInt32 = 0xFF00_FF00, blue: UInt32 = 0xFF00_00FF

    private func frame(width: Int, height: Int, scale: Int, progress q: Double) -> (Bitmap, PageTurnScene) {
        let (pw, ph) = (width * scale, height * scale)
        // The earlier sheet: red, with a blue vertical line an eighth of the width right of the spine.
        let earlier = Bitmap(width: pw, height: ph, color: red)
        earlier.fill(blue, in: PixelRect(x: pw / 2 + pw / 8 - 2 * scale, y: 0, width: 4 * scale, height: ph))
        let later = Bitmap(width: pw, height: ph, color: green)
        let scene = PageTurnScene(width: Double(width), height: Double(height))
        scene.setContents(earlier: earlier, later: later, leafBack: later)
        scene.setAngle(-q * Double.pi)
        let renderer = PageRenderer(pixelWidth: pw, pixelHeight: ph, scale: Double(scale))
        let target = Bitmap(width: pw, height: ph)
        renderer.render(scene.root, into: target, options: .init(background: .flat(0), shadows: false))
        return (target, scene)
    }

    private func channels(_ p: UInt32) -> (r: Double, g: Double, b: Double) {
        (Double((p >> 16) & 0xFF), Double((p >> 8) & 0xFF), Double(p & 0xFF))
    }

    /// Where, in row `y`, red gives way to green going from `start` in direction `step` (±1): the
    /// first pixel that is not pure red, plus the red share of that mixed pixel.
    private func edge(in frame: Bitmap, row y: Int, from start: Int, step: Int) -> Double? {
        var x = start
        while x >= 0 && x < frame.width {
            let c = channels(frame.pixel(x: x, y: y))
            if c.g > 0 {
                let share = c.r / max(c.r + c.g, 1)
                return step > 0 ? Double(x) + share : Double(x + 1) - share
            }
            x += step
        }
        return nil
    }

    func testTheLeafsOuterEdgeAndInkLandOnTheLayerMath() throws {
        for (width, height, scale) in [(640, 400, 1), (1280, 800, 1), (800, 500, 2)] {
            for q in [0.1, 0.3, 0.45, 0.6, 0.8, 0.95] {
                let (image, scene) = frame(width: width, height: height, scale: scale, progress: q)
                let k = Double(scale), y = height / 2 * scale
                let mid = Double(height) / 2
                let leafToScreen = scene.leafFront.transformToRoot
                let outer = try XCTUnwrap(leafToScreen.project(Point(x: Double(width) / 2, y: mid))).x * k
                let spine = width / 2 * scale
                if q < 0.5 {
                    // The leaf (red) from the spine to its outer edge, the later sheet (green) beyond.
                    guard outer < Double(image.width) - 2 else { continue }
                    let measured = try XCTUnwrap(edge(in: image, row: y, from: spine + 2, step: 1), "q \(q)")
                    XCTAssertEqual(measured, outer, accuracy: 1, "\(width)x\(height)@\(scale) q \(q): the leaf's edge")
                    // The ink on the leaf, an eighth of the width from the spine (while the leaf is not
                    // so steep that the line is thinner than a pixel).
                    guard q < 0.4 else { continue }
                    let ink = try XCTUnwrap(leafToScreen.project(Point(x: Double(width) / 8, y: mid))).x * k
                    let window = max(spine, Int(ink) - 8 * scale)..<min(image.width, Int(ink) + 8 * scale)
                    let weights = window.map { x -> Double in
                        let c = channels(image.pixel(x: x, y: y))
                        return max(0, c.b / max(c.r + c.g + c.b, 1) - 0.5)
                    }
                    let centre = zip(window, weights).reduce(0.0) { $0 + (Double($1.0) + 0.5) * $1.1 } / max(weights.reduce(0, +), 1e-9)
                    XCTAssertEqual(centre, ink, accuracy: 1.5, "\(width)x\(height)@\(scale) q \(q): the ink on the leaf")
                } else {
                    // Past 90° the back (green) lies over the left half, the earlier sheet's left (red) beyond it.
                    guard outer > 2 else { continue }
                    var x = spine - 3
                    while x > 0 && channels(image.pixel(x: x, y: y)).r == 0 { x -= 1 }
                    let c = channels(image.pixel(x: x, y: y))
                    let found = Double(x + 1) - c.r / max(c.r + c.g, 1)
                    XCTAssertEqual(found, outer, accuracy: 1, "\(width)x\(height)@\(scale) q \(q): the back's edge")
                }
            }
        }
    }
}
