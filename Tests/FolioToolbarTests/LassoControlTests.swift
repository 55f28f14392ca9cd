import FolioGeometry
import FolioPixels
import FolioRender
import Foundation
import XCTest
@testable import FolioToolbar
import FolioTools

/// The toolbar's `lasso`: a tap chooses it (a second tap, or an ink, goes back to drawing), and
/// it is drawn as a dashed loop, on a highlight while chosen. FOLIO_TOOLBAR_RENDERS=DIR keeps the
/// PNGs to look at.
final class LassoControlTests: XCTestCase {
    func testATapChoosesTheLassoAndAnotherOrAnInkDrawsAgain() {
        var tools = ToolState()
        XCTAssertTrue(tools.choose(.lasso))
        XCTAssertEqual(tools.tool, .lasso)
        XCTAssertEqual(tools.tool.used(by: .pen), .lasso, "the pen's next stroke is a loop too")
        XCTAssertTrue(tools.choose(.lasso))
        XCTAssertEqual(tools.tool, .ink)
        _ = tools.choose(.lasso)
        _ = tools.choose(.color(3))
        XCTAssertEqual(tools.tool, .ink)
        _ = tools.choose(.eraser)
        _ = tools.choose(.lasso)
        XCTAssertEqual(tools.tool, .lasso, "the lasso takes over from the eraser")
    }

    func testTheLassoIsDrawnAndMarkedWhileChosen() throws {
        var toolbar = Toolbar(layout: ToolbarLayout(width: 1280, height: 800, scale: 2))
        let handle = toolbar.layout.handle
        toolbar.press(at: Point(x: handle.minX + 10, y: handle.minY + 10), time: 0)
        _ = toolbar.release(at: Point(x: handle.minX + 10, y: handle.minY + 10), cancelled: false, time: 0)
        guard let slot = toolbar.layout.slot(for: .lasso) else { return XCTFail("no lasso control") }
        let bounds = toolbar.layout.shownBounds
        func pixels(_ tools: ToolState) throws -> (icon: Int, corner: UInt32) {
            let image = ToolbarRenderer(scale: 2).render(toolbar, tools: tools)
            if let folder = ProcessInfo.processInfo.environment["FOLIO_TOOLBAR_RENDERS"] {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try PNG.write(image, to: "\(folder)/toolbar-\(tools.tool).png")
            }
            let x0 = Int((slot.rect.minX - bounds.minX) * 2), y0 = Int((slot.rect.minY - bounds.minY) * 2)
            var icon = 0
            for y in y0..<(y0 + 96) { for x in x0..<(x0 + 96) where image.pixel(x: x, y: y) == 0xFF2A_2A2A { icon += 1 } }
            return (icon, image.pixel(x: x0 + 12, y: y0 + 12))
        }
        let chosen = try pixels(ToolState(tool: .lasso)), not = try pixels(ToolState())
        XCTAssertGreaterThan(chosen.icon, 100, "the loop's dashes")
        XCTAssertEqual(chosen.corner, 0xFFD8_D8D8, "marked while chosen")
        XCTAssertEqual(not.corner, 0xFFEE_EEEE)
    }
}
