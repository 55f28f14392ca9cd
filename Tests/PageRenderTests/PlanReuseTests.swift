import XCTest
import FolioLayers
import FolioPixels
@testable import FolioRender

/// A page that has not moved since the last frame keeps its column plans (the sheets lying still
/// under a turning leaf). Every frame must still be the bytes a renderer that plans everything
/// afresh draws: through turns that cross 90°, repeated frames, folds, and contents swapped
/// mid-gesture.
final class PlanReuseTests: XCTestCase {
    private let (w, h) = (480, 300)

    /// The column loop reads two plans a column: kept narrow, they take fewer cache lines.
    func testAPlanKeepsToItsNarrowLayout() {
        XCTAssertEqual(MemoryLayout<ColumnPlan>.stride, 48)
        var plan = ColumnPlan()
        plan.yEnd = 16384
        plan.sourceColumn = 16385
        plan.shade = 256
        plan.fu = 255
        XCTAssertEqual([plan.yEnd, plan.sourceColumn], [16384, 16385])
        XCTAssertEqual([plan.shade, plan.fu], [256, 255])
    }

    func testFramesWithKeptPlansAreTheFreshBytes() {
        let earlier = makeTestCanvas(width: w, height: h)
        let later = Bitmap(width: w, height: h, color: 0xFFF4_EEE0)
        later.fill(0xFF11_8833, in: PixelRect(x: w / 3, y: h / 4, width: w / 2, height: h / 3))
        let back = Bitmap(width: w, height: h, color: 0xFFE0_E4F0)
        let renderer = PageRenderer(pixelWidth: w, pixelHeight: h)
        let turn = PageTurnScene(width: Double(w), height: Double(h))
        turn.setContents(earlier: earlier, later: later, leafBack: back)
        renderer.prepare(turn.root)
        var kept = 0
        for q in [0.1, 0.1, 0.3, 0.3, 0.6, 0.6, 0.2] {
            turn.setAngle(-q * Double.pi)
            kept += check(renderer, turn.root, "turn q=\(q)")
        }
        XCTAssertGreaterThan(kept, 0, "no frame kept any plans: the comparison proved nothing")

        // New contents without a new prepare: the renderer loads them, and plans made for the old
        // images (whose opaque rows these do not share) must not survive.
        let other = Bitmap(width: w, height: h)
        other.fill(0xFFCC_2200, in: PixelRect(x: 0, y: h / 3, width: w, height: h / 3))
        turn.setContents(earlier: other, later: later, leafBack: back)
        _ = check(renderer, turn.root, "turn with new contents")

        let fold = FoldScene(width: Double(w), height: Double(h))
        fold.setContents(earlier)
        renderer.prepare(fold.root)
        for s in [0.75, 0.75, 0.6, 1.0] {
            fold.setScale(s)
            _ = check(renderer, fold.root, "fold s=\(s)")
        }
    }

    /// Renders `root` with `renderer` and with a new one; returns how many column plans the kept
    /// renderer did not have to make again.
    private func check(_ renderer: PageRenderer, _ root: Layer, _ what: String) -> Int {
        let frame = Bitmap(width: w, height: h), expected = Bitmap(width: w, height: h)
        renderer.render(root, into: frame)
        let fresh = PageRenderer(pixelWidth: w, pixelHeight: h)
        fresh.prepare(root)
        fresh.render(root, into: expected)
        var differing = 0
        for y in 0..<h {
            for x in 0..<w where expected.pixel(x: x, y: y) != frame.pixel(x: x, y: y) { differing += 1 }
        }
        XCTAssertEqual(differing, 0, what)
        return fresh.columnPlansMade - renderer.columnPlansMade
    }
}
