import FolioToolbar
import FolioTools
import XCTest

/// What the toolbar's controls choose of the one `ToolState`, and which tool each contact uses.
final class ToolStateTests: XCTestCase {
    func testColoursAndWidthsChooseInkAndTheEraserToggles() {
        var tools = ToolState()
        XCTAssertTrue(tools.choose(.eraser))
        XCTAssertEqual(tools.tool, .eraser)
        XCTAssertTrue(tools.choose(.color(3)))
        XCTAssertEqual(tools, ToolState(tool: .ink, ink: InkChoice(colorIndex: 3, widthIndex: 1)), "a colour ends erasing")
        XCTAssertTrue(tools.choose(.eraser))
        XCTAssertTrue(tools.choose(.width(2)))
        XCTAssertEqual(tools, ToolState(tool: .ink, ink: InkChoice(colorIndex: 3, widthIndex: 2)), "so does a width")
        XCTAssertTrue(tools.choose(.eraser))
        XCTAssertTrue(tools.choose(.eraser))
        XCTAssertEqual(tools.tool, .ink, "a second tap on the eraser draws again, in the same ink")
        XCTAssertEqual(tools.ink, InkChoice(colorIndex: 3, widthIndex: 2))
        for other: ControlAction in [.undo, .redo, .newSheet, .previousSheet, .nextSheet, .deleteSheet, .export, .fullscreen] {
            XCTAssertFalse(tools.choose(other), "\(other.name) chooses no tool")
        }
        XCTAssertEqual(tools.tool, .ink)
    }

    func testFingersTakeTheChosenToolAndThePenKeepsDrawingWhileTheyErase() {
        XCTAssertEqual(Tool.ink.used(by: .finger), .ink)
        XCTAssertEqual(Tool.ink.used(by: .pen), .ink)
        XCTAssertEqual(Tool.eraser.used(by: .finger), .eraser)
        XCTAssertEqual(Tool.eraser.used(by: .pen), .ink)
    }

    func testThePaletteClampsAChoice() {
        let palette = Palette.standard
        XCTAssertEqual(Palette.clamped(InkChoice(colorIndex: 9, widthIndex: -1)), InkChoice(colorIndex: 5, widthIndex: 0))
        XCTAssertEqual(palette.ink(InkChoice(colorIndex: 2, widthIndex: 2)).color, Palette.standardColors[2])
        XCTAssertEqual(palette.ink(InkChoice(colorIndex: 2, widthIndex: 2)).width, 12)
    }
}
