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

    /// The turn at progress `q` in a `width`×`height` window at `scale`, sized as the app sizes it
    /// (the buffer rounded, the scene spanning it: `Session.sceneSize`).
    private func frame(width: Int, height: Int, scale: BufferScale, progress q: Double) -> (Bitmap, PageTurnScene) {
        let (pw, ph, k) = (scale.pixels(width), scale.pixels(height), scale.factor)
        // The earlier sheet: red, with a blue vertical line an eighth of the width right of the spine.
        let earlier = Bitmap(width: pw, height: ph, color: red)
        let line = Int((4 * k).rounded())
        earlier.fill(blue, in: PixelRect(x: pw / 2 + pw / 8 - line / 2, y: 0, width: line, height: ph))
        let later = Bitmap(width: pw, height: ph, color: green)
        let scene = PageTurnScene(width: Double(pw) / k, height: Double(ph) / k)
        scene.setContents(earlier: earlier, later: later, leafBack: later)
        scene.setAngle(-q * Double.pi)
        let renderer = PageRenderer(pixelWidth: pw, pixelHeight: ph, scale: k)
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
        let cases: [(Int, Int, BufferScale)] = [(640, 400, 1), (1280, 800, 1), (800, 500, 2),
                                                (1280, 800, BufferScale(numerator: 180)), (801, 501, BufferScale(numerator: 150))]
        for (width, height, scale) in cases {
            for q in [0.1, 0.3, 0.45, 0.6, 0.8, 0.95] {
                let (image, scene) = frame(width: width, height: height, scale: scale, progress: q)
                let k = scale.factor, y = image.height / 2
                let (sceneWidth, mid) = (Double(image.width) / k, Double(image.height) / k / 2)
                let leafToScreen = scene.leafFront.transformToRoot
                let outer = try XCTUnwrap(leafToScreen.project(Point(x: sceneWidth / 2, y: mid))).x * k
                let spine = image.width / 2
                if q < 0.5 {
                    // The leaf (red) from the spine to its outer edge, the later sheet (green) beyond.
                    guard outer < Double(image.width) - 2 else { continue }
                    let measured = try XCTUnwrap(edge(in: image, row: y, from: spine + 2, step: 1), "q \(q)")
                    XCTAssertEqual(measured, outer, accuracy: 1, "\(width)x\(height)@\(scale) q \(q): the leaf's edge")
                    // The ink on the leaf, an eighth of the width from the spine (while the leaf is not
                    // so steep that the line is thinner than a pixel).
                    guard q < 0.4 else { continue }
                    let ink = try XCTUnwrap(leafToScreen.project(Point(x: sceneWidth / 8, y: mid))).x * k
                    let reach = Int(8 * k)
                    let window = max(spine, Int(ink) - reach)..<min(image.width, Int(ink) + reach)
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
