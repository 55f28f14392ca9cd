import FolioCore
import FolioGeometry
import FolioInput
import FolioPixels
import FolioRender
import Foundation
import XCTest
@testable import FolioReplay

/// What the lasso looks like: a dashed loop that is never ink, then the selected strokes with a
/// highlight, a dashed box and the bar; moving them redraws only where they were and are.
final class LassoPixelTests: XCTestCase {
    static let white: UInt32 = 0xFFFF_FFFF
    static let highlight = 0xFF00_0000 | SelectionOverlay.highlight
    static let dash: UInt32 = 0xFF3A_3A3A

    private func replay(_ lines: [String], stop: Double? = nil) throws -> Replay {
        let replay = Replay(trace: try Trace(parsing: lines.joined(separator: "\n")),
                            options: .init(width: LassoTests.width, height: LassoTests.height, stopTime: stop))
        try replay.run()
        return replay
    }

    /// Where the pictures go when FOLIO_LASSO_PNGS names a folder (to look at them), else nowhere.
    private func keep(_ frame: Bitmap, _ name: String) throws {
        guard let folder = ProcessInfo.processInfo.environment["FOLIO_LASSO_PNGS"] else { return }
        try PNG.write(frame, to: "\(folder)/\(name).png")
    }

    private func count(_ frame: Bitmap, in r: PixelRect, where test: (UInt32) -> Bool) -> Int {
        var n = 0
        for y in r.y..<r.maxY { for x in r.x..<r.maxX where test(frame.pixel(x: x, y: y)) { n += 1 } }
        return n
    }

    func testTheLoopIsDashedAndLeavesNoInk() throws {
        // The loop's finger still down at the end: the frame shows the loop being drawn.
        let loop = LassoTests.selectFirst.dropLast(2)
        let drawing = try replay(Array(loop))
        XCTAssertEqual(drawing.session.mode, .lassoing)
        let frame = drawing.session.frame
        try keep(frame, "lasso-loop")
        // Along the loop's top edge (y 70, x 80–320): dashes, 8 px on and 6 off.
        let top = (80..<320).map { frame.pixel(x: $0, y: 70) == Self.dash }
        let on = top.filter { $0 }.count
        XCTAssertGreaterThan(on, 240 * 8 / 14 - 20, "dashes cover about 8/14 of the edge")
        XCTAssertLessThan(on, 240 * 8 / 14 + 20, "with gaps between them")
        var runs = 0
        for i in top.indices.dropFirst() where top[i] && !top[i - 1] { runs += 1 }
        XCTAssertGreaterThanOrEqual(runs, 15, "separate dashes")
        // Lifted: the loop is gone and no ink is left where it ran.
        let done = try replay(LassoTests.selectFirst + LassoTests.tap(Point(x: 500, y: 200), at: 2000))
        XCTAssertEqual(count(done.session.frame, in: PixelRect(x: 80, y: 60, width: 260, height: 20)) { $0 != Self.white }, 0)
        XCTAssertEqual(done.session.book.sheet.strokes.count, 2)
    }

    func testTheSelectionIsHighlightedBoxedAndBarred() throws {
        let replay = try replay(LassoTests.selectFirst)
        let frame = replay.session.frame
        try keep(frame, "lasso-selection")
        // The highlight runs along both sides of the 6 px blue stroke at y 100: 4 px each side.
        XCTAssertEqual(frame.pixel(x: 200, y: 100), LassoTests.blue)
        XCTAssertEqual(frame.pixel(x: 200, y: 105), Self.highlight)
        XCTAssertEqual(frame.pixel(x: 200, y: 95), Self.highlight)
        XCTAssertEqual(frame.pixel(x: 200, y: 110), Self.white, "the halo ends 4 px past the ink (with its soft edge)")
        XCTAssertEqual(frame.pixel(x: 303, y: 100), Self.highlight, "round the stroke's end too")
        XCTAssertEqual(frame.pixel(x: 200, y: 300 - 5), Self.white, "the stroke not selected has no highlight")
        guard let box = replay.session.selectionBox, let bar = replay.session.selectionBar else { return XCTFail("no selection") }
        let edge = Int(box.minY.rounded(.down))
        XCTAssertGreaterThan(count(frame, in: PixelRect(x: Int(box.minX), y: edge - 1, width: Int(box.width), height: 3)) { $0 == Self.dash }, 20,
                             "a dashed box")
        let delete = bar.buttons[0].rect
        XCTAssertEqual(frame.pixel(x: Int(bar.rect.minX) + 2, y: Int(bar.rect.minY) + 2), 0xFFEE_EEEE, "the bar")
        XCTAssertGreaterThan(count(frame, in: PixelRect(x: Int(delete.minX), y: Int(delete.minY), width: 48, height: 48)) { $0 == 0xFF2A_2A2A }, 30,
                             "the bin's lines")
        let red = bar.buttons[4].rect
        XCTAssertEqual(frame.pixel(x: Int(red.minX) + 24, y: Int(red.minY) + 24), 0xFFD8_1B1B, "colour 3 of the palette")
    }

    /// Each frame of a drag redraws where the selection was and where it is, nothing else.
    func testMovingRedrawsOnlyTheOldAndNewBoxes() throws {
        let session = try replay(LassoTests.selectFirst).session
        _ = session.renderFrame()
        guard let box = session.selectionBox, let bar = session.selectionBar else { return XCTFail("no selection") }
        session.handle(.touchDown(id: 1, at: Point(x: 200, y: 100)), at: 2000)
        session.handle(.touchFrame, at: 2000)
        var damages: [Region] = []
        for step in 1...10 {
            let t = 2000 + Double(step) * 16
            session.handle(.touchMotion(id: 1, to: Point(x: 200, y: 100 + Double(step) * 5)), at: t)
            session.handle(.touchFrame, at: t)
            damages.append(session.renderFrame())
        }
        XCTAssertEqual(session.mode, .selecting)
        try keep(session.frame, "lasso-moving")
        // The box moves 5 px a frame: where it was and is, and the bar's two places, bound a frame.
        func area(_ r: Rect) -> Int { Int(r.width + 8) * Int(r.height + 8) }
        let bound = 2 * area(box) + 2 * area(bar.rect)
        for damage in damages {
            XCTAssertGreaterThan(damage.area, 0)
            XCTAssertLessThanOrEqual(damage.area, bound, "\(damage)")
            XCTAssertFalse(damage.contains(PixelRect(x: 200, y: 300, width: 1, height: 1)), "the other stroke is not redrawn")
        }
        XCTAssertEqual(session.frame.pixel(x: 200, y: 150), LassoTests.blue, "drawn where the finger has it")
        XCTAssertNotEqual(session.frame.pixel(x: 200, y: 100), LassoTests.blue, "and gone from where it was (the bar is there now)")
        XCTAssertEqual(session.book.sheet.strokes[0].points[0].y, 100, "not in the book until the finger lifts")
        session.handle(.touchUp(id: 1), at: 2200)
        session.handle(.touchFrame, at: 2200)
        XCTAssertEqual(session.book.sheet.strokes[0].points[0].y, 150)
    }

    /// Showing the same strokes again redraws nothing (the canvas redraws what differs), so a new
    /// window size must say itself that its whole frame is new: a blank book's first frame too.
    func testAResizeStillDamagesTheWholeFrame() {
        let session = Session(width: 320, height: 200)
        _ = session.renderFrame()
        session.handle(.resize(width: 400, height: 300, scale: 1), at: 10)
        XCTAssertEqual(session.renderFrame().area, 400 * 300)
    }
}
