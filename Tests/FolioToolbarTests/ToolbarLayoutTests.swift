import FolioGeometry
import XCTest
@testable import FolioToolbar
import FolioTools

final class ToolbarLayoutTests: XCTestCase {
    private let names = ["undo", "redo", "color.1", "color.2", "color.3", "color.4", "color.5", "color.6",
                         "width.1", "width.2", "width.3", "eraser", "lasso", "sheet.new", "sheet.previous", "sheet.next", "sheet.delete", "paper",
                         "play", "export", "fullscreen", "books"]

    func testEveryControlIsLaidOutOnceAtTargetSizeInsideTheWindowAndClearOfTheEdgeZones() {
        for (width, height) in [(1280.0, 800.0), (1920, 1200), (640, 400), (800, 1280)] {
            let layout = ToolbarLayout(width: width, height: height)
            XCTAssertEqual(layout.controls.map(\.action.name), names, "\(width)x\(height)")
            for slot in layout.controls {
                XCTAssertGreaterThanOrEqual(slot.rect.width, 48)
                XCTAssertGreaterThanOrEqual(slot.rect.height, 48)
                XCTAssertGreaterThanOrEqual(slot.rect.minX, 32, "\(slot.action.name) in the left edge zone")
                XCTAssertLessThanOrEqual(slot.rect.maxX, width - 32, "\(slot.action.name) in the right edge zone")
                XCTAssertGreaterThanOrEqual(slot.rect.minY, 0)
                XCTAssertLessThanOrEqual(slot.rect.maxY, layout.handle.minY)
            }
            for (i, a) in layout.controls.enumerated() {
                for b in layout.controls[(i + 1)...] {
                    XCTAssertTrue(a.rect.intersection(b.rect).isEmpty, "\(a.action.name) overlaps \(b.action.name)")
                }
            }
            XCTAssertGreaterThanOrEqual(layout.handle.height, 48)
            XCTAssertEqual(layout.handle.maxY, height)
        }
    }

    func testRectanglesFallOnWholeBufferPixelsAtFractionalScales() {
        for scale in [1.5, 1.25, 1.75, 2] {
            let layout = ToolbarLayout(width: 1001, height: 701, scale: scale)
            for rect in layout.controls.map(\.rect) + [layout.handle, layout.bar] {
                for v in [rect.minX, rect.minY, rect.maxX, rect.maxY] {
                    XCTAssertEqual(v, v.rounded(), "whole logical px at \(scale)")
                    XCTAssertEqual(v * scale, (v * scale).rounded(), accuracy: 1e-9, "whole buffer px at \(scale)")
                }
            }
        }
    }

    func testTheSmallestWindowKeepsTheFirstGroupsAndLeavesOutTheLast() {
        let layout = ToolbarLayout(width: 360, height: 240)
        XCTAssertEqual(layout.controls.map(\.action.name), Array(names.prefix(layout.controls.count)))
        XCTAssertGreaterThanOrEqual(layout.controls.count, 8, "undo, redo and every colour")
        for slot in layout.controls {
            XCTAssertTrue(slot.rect.minX >= 32 && slot.rect.maxX <= 328 && slot.rect.minY >= 0, slot.action.name)
        }
    }

    func testAWindowTooSmallForTheBarKeepsItsHandleAndNoControlOutside() {
        let layout = ToolbarLayout(width: 120, height: 60)
        XCTAssertTrue(layout.controls.isEmpty)
        XCTAssertTrue(layout.bar.isNull)
        XCTAssertEqual(layout.shownBounds, layout.handle)
        let tiny = ToolbarLayout(width: 2, height: 2, scale: .nan)
        XCTAssertEqual(tiny.scale, 1)
        XCTAssertTrue(tiny.controls.isEmpty)
    }

    func testTapsChooseInkAndDisabledControlsDoNothing() {
        var toolbar = Toolbar(layout: ToolbarLayout(width: 1280, height: 800))
        var tools = ToolState()
        let handle = toolbar.layout.handle
        let centre = { (r: Rect) in Point(x: r.minX + r.width / 2, y: r.minY + r.height / 2) }
        toolbar.press(at: centre(handle), time: 0)
        XCTAssertEqual(toolbar.release(at: centre(handle), cancelled: false, time: 10), .handle)
        XCTAssertTrue(toolbar.isShown)
        let red = centre(toolbar.layout.slot(for: .color(2))!.rect)
        toolbar.press(at: red, time: 20)
        XCTAssertEqual(toolbar.pressed, .color(2))
        XCTAssertEqual(toolbar.release(at: red, cancelled: false, time: 30), .control(.color(2)))
        XCTAssertTrue(tools.choose(.color(2)))
        XCTAssertEqual(toolbar.palette.ink(tools.ink).color, Palette.standardColors[2])
        // Lifting elsewhere, or a press taken into a pinch, is no tap.
        let wide = centre(toolbar.layout.slot(for: .width(2))!.rect)
        toolbar.press(at: wide, time: 40)
        XCTAssertNil(toolbar.release(at: red, cancelled: false, time: 50))
        toolbar.press(at: wide, time: 60)
        XCTAssertNil(toolbar.release(at: wide, cancelled: true, time: 70))
        XCTAssertEqual(toolbar.palette.ink(tools.ink).width, 6)
        toolbar.disabled = [.undo]
        let undo = centre(toolbar.layout.slot(for: .undo)!.rect)
        toolbar.press(at: undo, time: 80)
        XCTAssertNil(toolbar.pressed)
        XCTAssertNil(toolbar.release(at: undo, cancelled: false, time: 90))
        // Untouched for a while, the bar hides itself.
        XCTAssertFalse(toolbar.advance(to: 90 + Toolbar.autoHideDelay - 1))
        XCTAssertTrue(toolbar.advance(to: 90 + Toolbar.autoHideDelay))
        XCTAssertFalse(toolbar.isShown)
    }

    func testPaletteKeepsSixColoursAndThreeWidthsWithinRange() {
        let palette = Palette(colors: [0xFF00FF], widths: [.nan, 1000, -3, 9])
        XCTAssertEqual(palette.colors, [0xFF00FF] + Palette.standardColors.dropFirst())
        XCTAssertEqual(palette.widths, [3, 64, 0.5])
        XCTAssertEqual(Palette.standard.colors.first, 0x0000FF)
        XCTAssertEqual(Palette.standard.widths[1], 6)
    }
}
