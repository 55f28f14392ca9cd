import FolioGeometry
import FolioPixels
import FolioRender
import Foundation
import XCTest
@testable import FolioToolbar
import FolioTools

/// The toolbar drawn at buffer scales 1, 2 and 1.5. Set FOLIO_TOOLBAR_RENDERS=DIR to keep the
/// PNGs and look at them.
final class ToolbarRenderTests: XCTestCase {
    /// The third colour and the widest width chosen.
    private let tools = ToolState(ink: InkChoice(colorIndex: 2, widthIndex: 2))

    private func shownToolbar(scale: Double) -> Toolbar {
        var toolbar = Toolbar(layout: ToolbarLayout(width: 1280, height: 800, scale: scale))
        let handle = toolbar.layout.handle
        toolbar.press(at: Point(x: handle.minX + 10, y: handle.minY + 10), time: 0)
        _ = toolbar.release(at: Point(x: handle.minX + 10, y: handle.minY + 10), cancelled: false, time: 0)
        toolbar.disabled = [.undo, .previousSheet]
        return toolbar
    }

    private func keep(_ bitmap: Bitmap, _ name: String) throws {
        guard let folder = ProcessInfo.processInfo.environment["FOLIO_TOOLBAR_RENDERS"] else { return }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try PNG.write(bitmap, to: "\(folder)/\(name).png")
    }

    private func argb(_ rgb: UInt32) -> UInt32 { 0xFF00_0000 | rgb }

    func testTheToolbarAtScalesOneTwoAndOneAndAHalf() throws {
        for scale in [1.0, 2.0, 1.5, 1.25] {
            let toolbar = shownToolbar(scale: scale)
            let image = ToolbarRenderer(scale: scale).render(toolbar, tools: tools)
            try keep(image, "toolbar-\(scale)")
            let bounds = toolbar.layout.shownBounds
            XCTAssertEqual(image.width, Int((bounds.width * scale).rounded()))
            XCTAssertEqual(image.height, Int((bounds.height * scale).rounded()))
            func pixel(_ p: Point) -> UInt32 {
                image.pixel(x: Int(((p.x - bounds.minX) * scale).rounded(.down)), y: Int(((p.y - bounds.minY) * scale).rounded(.down)))
            }
            func centre(_ action: ControlAction) -> Point {
                let r = toolbar.layout.slot(for: action)?.rect ?? .null
                return Point(x: r.minX + r.width / 2, y: r.minY + r.height / 2)
            }
            // Each colour fills its swatch exactly; the chosen one has a dark ring around it.
            for (i, color) in toolbar.palette.colors.enumerated() {
                XCTAssertEqual(pixel(centre(.color(i))), argb(color), "colour \(i + 1) at scale \(scale)")
            }
            let ring = { (i: Int) in pixel(centre(.color(i)) + Point(x: 19, y: 0)) }
            XCTAssertEqual(ring(2), argb(0x2A2A2A), "the chosen colour's ring at scale \(scale)")
            XCTAssertEqual(ring(0), argb(0xEEEEEE), "no ring on another colour at scale \(scale)")
            // The chosen width sits on a highlight; the others on the bar.
            XCTAssertEqual(pixel(centre(.width(2)) + Point(x: 0, y: -18)), argb(0xD8D8D8))
            XCTAssertEqual(pixel(centre(.width(0)) + Point(x: 0, y: -18)), argb(0xEEEEEE))
            // The width samples are drawn in the chosen colour, as wide as they are.
            XCTAssertEqual(pixel(centre(.width(2)) + Point(x: 0, y: 5)), argb(toolbar.palette.colors[2]))
            XCTAssertEqual(pixel(centre(.width(0)) + Point(x: 0, y: 5)), argb(0xEEEEEE))
            // Disabled icons are drawn light, enabled ones dark.
            XCTAssertEqual(darkest(image, toolbar, .undo), 0xB4, "undo is disabled at scale \(scale)")
            XCTAssertEqual(darkest(image, toolbar, .redo), 0x2A, "redo is enabled at scale \(scale)")
            XCTAssertEqual(darkest(image, toolbar, .previousSheet), 0xB4)
            XCTAssertEqual(darkest(image, toolbar, .nextSheet), 0x2A)
            // Crisp: the bar's edges fall on whole buffer pixels, so the last row inside its
            // straight bottom edge is the edge colour through and through, and the row below is clear.
            let bar = toolbar.layout.bar
            let bottom = Int(((bar.maxY - bounds.minY) * scale).rounded())
            let x = Int(((bar.minX + 40 - bounds.minX) * scale).rounded())
            XCTAssertEqual(image.pixel(x: x, y: bottom - 1), argb(0xC4C4C4), "scale \(scale)")
            XCTAssertEqual(image.pixel(x: x, y: bottom), 0, "scale \(scale)")
            XCTAssertEqual(image.pixel(x: x, y: 0), argb(0xC4C4C4), "scale \(scale)")
        }
    }

    func testHiddenItIsTheHandleAloneAndAnExportShowsItsConfirmation() throws {
        var toolbar = Toolbar(layout: ToolbarLayout(width: 1280, height: 800))
        let bounds = toolbar.layout.shownBounds
        let renderer = ToolbarRenderer(scale: 1)
        var image = renderer.render(toolbar, tools: ToolState())
        try keep(image, "toolbar-hidden")
        let bar = toolbar.layout.bar
        XCTAssertEqual(image.pixel(x: Int(bar.minX - bounds.minX) + 30, y: 30), 0, "no bar while hidden")
        let handle = toolbar.layout.handle
        XCTAssertEqual(image.pixel(x: Int(handle.minX - bounds.minX) + 20, y: Int(handle.maxY - bounds.minY) - 5), 0xFFEE_EEEE)
        toolbar.showNotice(succeeded: true, at: 0)
        image = renderer.render(toolbar, tools: ToolState())
        try keep(image, "toolbar-exported")
        // The tab turns green with a white tick; the bar's controls are not covered.
        XCTAssertEqual(image.pixel(x: Int(handle.minX - bounds.minX) + 20, y: Int(handle.maxY - bounds.minY) - 5), 0xFF1E_8E3E)
        let tick = Point(x: handle.minX + handle.width / 2 - 3 - bounds.minX, y: handle.maxY - 15 + 6 - bounds.minY)
        XCTAssertEqual(image.pixel(x: Int(tick.x), y: Int(tick.y)), 0xFFFF_FFFF, "the tick")
        XCTAssertTrue(toolbar.advance(to: Toolbar.noticeDuration))
        XCTAssertNil(toolbar.notice)
    }

    /// The darkest grey level among the icon pixels of `action`'s control.
    private func darkest(_ image: Bitmap, _ toolbar: Toolbar, _ action: ControlAction) -> UInt32 {
        guard let rect = toolbar.layout.slot(for: action)?.rect else { return 0 }
        let scale = toolbar.layout.scale, bounds = toolbar.layout.shownBounds
        let pixels = PixelRect(covering: Rect(x: rect.minX - bounds.minX, y: rect.minY - bounds.minY, width: rect.width, height: rect.height),
                               scale: scale)
        var darkest: UInt32 = 0xFF
        for y in pixels.y..<pixels.maxY {
            for x in pixels.x..<pixels.maxX { darkest = min(darkest, image.pixel(x: x, y: y) & 0xFF) }
        }
        return darkest
    }
}
