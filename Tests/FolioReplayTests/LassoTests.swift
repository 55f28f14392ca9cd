import FolioCore
import FolioGeometry
import FolioInput
import FolioRender
import FolioSketchbook
import FolioToolbar
import XCTest
@testable import FolioReplay

/// The lasso, replayed from traces: a loop selects, a drag moves, the bar deletes, recolours
/// and duplicates, each one undo step (two- and three-finger taps included); a tap elsewhere, a
/// pinch or a page turn ends the selection.
final class LassoTests: XCTestCase {
    static let blue: UInt32 = 0xFF00_00FF
    static let white: UInt32 = 0xFFFF_FFFF
    static let width = 640, height = 400

    private func replay(_ lines: [String]) throws -> Replay {
        let replay = Replay(trace: try Trace(parsing: lines.joined(separator: "\n")), options: .init(width: Self.width, height: Self.height))
        try replay.run()
        return replay
    }

    private func names(_ replay: Replay) -> [String] { replay.session.timeline.map(\.name) }

    /// One finger along `points`, 16 ms apart, from `t0`.
    static func touch(_ points: [Point], at t0: Double, id: Int = 1) -> [String] {
        var lines: [String] = []
        for (i, p) in points.enumerated() {
            let t = t0 + Double(i) * 16
            lines.append(#"{"t": \#(t), "kind": "touch.\#(i == 0 ? "down" : "motion")", "id": \#(id), "x": \#(p.x), "y": \#(p.y)}"#)
            lines.append(#"{"t": \#(t), "kind": "touch.frame"}"#)
        }
        let end = t0 + Double(points.count) * 16
        return lines + [#"{"t": \#(end), "kind": "touch.up", "id": \#(id)}"#, #"{"t": \#(end), "kind": "touch.frame"}"#]
    }

    /// A line from `a` to `b` in ten steps.
    static func line(_ a: Point, _ b: Point) -> [Point] { (0...10).map { a + (b - a) * (Double($0) / 10) } }

    static func tap(_ p: Point, at t0: Double) -> [String] { touch([p], at: t0) }

    /// The handle, then the lasso control.
    static func chooseLasso(at t0: Double) -> [String] {
        let layout = ToolbarLayout(width: Double(width), height: Double(height))
        guard let slot = layout.slot(for: .lasso) else { return [] }
        func centre(_ r: Rect) -> Point { Point(x: (r.minX + r.maxX) / 2, y: (r.minY + r.maxY) / 2) }
        return tap(centre(layout.handle), at: t0) + tap(centre(slot.rect), at: t0 + 100)
    }

    /// A loop round the rectangle `r`, corner to corner.
    static func loop(round r: Rect) -> [Point] {
        let corners = [r.origin, Point(x: r.maxX, y: r.minY), Point(x: r.maxX, y: r.maxY), Point(x: r.minX, y: r.maxY), r.origin]
        return zip(corners, corners.dropFirst()).flatMap { line($0, $1).dropLast() } + [r.origin]
    }

    /// Two strokes (y 100 and y 300, x 100–300), the lasso chosen, a loop round the first.
    static let selectFirst = touch(line(Point(x: 100, y: 100), Point(x: 300, y: 100)), at: 0)
        + touch(line(Point(x: 100, y: 300), Point(x: 300, y: 300)), at: 400)
        + chooseLasso(at: 800)
        + touch(loop(round: Rect(x: 80, y: 70, width: 240, height: 60)), at: 1200)

    /// Two fingers tapping (undo) or three (redo) at `t0`, in the canvas's lower right.
    static func fingers(_ count: Int, at t0: Double) -> [String] {
        var lines: [String] = []
        for f in 0..<count {
            lines += [#"{"t": \#(t0 + Double(f) * 10), "kind": "touch.down", "id": \#(20 + f), "x": \#(420 + 40 * f), "y": 250}"#,
                      #"{"t": \#(t0 + Double(f) * 10), "kind": "touch.frame"}"#]
        }
        for f in 0..<count { lines.append(#"{"t": \#(t0 + 150), "kind": "touch.up", "id": \#(20 + f)}"#) }
        return lines + [#"{"t": \#(t0 + 150), "kind": "touch.frame"}"#]
    }

    func testALoopSelectsTheStrokeInsideItAndDrawsNoInk() throws {
        let replay = try replay(Self.selectFirst)
        let session = replay.session
        XCTAssertEqual(session.book.sheet.strokes.count, 2, "the loop is not ink")
        XCTAssertEqual(session.selectedStrokes, [0])
        XCTAssertEqual(session.tools.tool, .ink, "the lasso serves one loop")
        XCTAssertTrue(names(replay).contains("selection.made"), "\(names(replay))")
        guard let box = session.selectionBox else { return XCTFail("no box") }
        XCTAssertTrue(box.contains(Point(x: 100, y: 100)) && box.contains(Point(x: 300, y: 100)))
        XCTAssertFalse(box.contains(Point(x: 200, y: 300)))
    }

    func testDraggingInsideTheBoxMovesTheSelectionAsOneUndoStep() throws {
        let drag = Self.touch(Self.line(Point(x: 200, y: 100), Point(x: 200, y: 180)), at: 2000)
        let replay = try replay(Self.selectFirst + drag + Self.tap(Point(x: 500, y: 200), at: 2600))
        let session = replay.session
        XCTAssertEqual(session.book.sheet.strokes[0].points.map(\.y), Array(repeating: 180, count: 11))
        XCTAssertEqual(session.book.sheet.strokes[0].points.map(\.x), (0...10).map { 100 + 20 * Double($0) })
        XCTAssertEqual(session.book.sheet.strokes[1].points[0], Point(x: 100, y: 300), "the other stroke stays")
        XCTAssertTrue(session.selectedStrokes.isEmpty, "a tap outside ended the selection")
        XCTAssertEqual(session.frame.pixel(x: 200, y: 180), Self.blue)
        XCTAssertEqual(session.frame.pixel(x: 200, y: 100), Self.white)
        XCTAssertEqual(session.book.sheet.strokes.count, 2)

        // Undo (a two-finger tap) puts it back in one step; redo (three) moves it again.
        let undone = try self.replay(Self.selectFirst + drag + Self.tap(Point(x: 500, y: 200), at: 2600) + Self.fingers(2, at: 3000))
        XCTAssertEqual(undone.session.book.sheet.strokes[0].points[0], Point(x: 100, y: 100))
        XCTAssertEqual(undone.session.book.sheet.strokes.count, 2, "the undo took the move, not a stroke")
        XCTAssertEqual(undone.session.frame.pixel(x: 200, y: 100), Self.blue)
        XCTAssertEqual(undone.session.frame.pixel(x: 200, y: 180), Self.white)
        let redone = try self.replay(Self.selectFirst + drag + Self.tap(Point(x: 500, y: 200), at: 2600) + Self.fingers(2, at: 3000)
            + Self.fingers(3, at: 3500))
        XCTAssertEqual(redone.session.book.sheet.strokes[0].points[0], Point(x: 100, y: 180))
        XCTAssertEqual(redone.session.frame.pixel(x: 200, y: 180), Self.blue)
    }

    func testTheMovedCanvasIsTheCanvasDrawnAfresh() throws {
        let drag = Self.touch(Self.line(Point(x: 200, y: 100), Point(x: 230, y: 290)), at: 2000)
        let replay = try replay(Self.selectFirst + drag + Self.tap(Point(x: 500, y: 200), at: 2600))
        let fresh = CanvasRenderer(width: Self.width, height: Self.height, scale: 1)
        fresh.rebuild(strokes: replay.session.book.sheet.strokes)
        var differing = 0
        for y in 0..<Self.height {
            for x in 0..<Self.width where replay.session.frame.pixel(x: x, y: y) != fresh.frame.pixel(x: x, y: y) { differing += 1 }
        }
        XCTAssertEqual(differing, 0, "only the areas the stroke left and took were drawn again, as a fresh canvas draws them")
        XCTAssertEqual(replay.session.frame.pixel(x: 230, y: 290), Self.blue)
    }

    func testTheBarDeletesRecoloursAndDuplicates() throws {
        let session = try replay(Self.selectFirst).session
        guard let bar = session.selectionBar else { return XCTFail("no bar") }
        func centre(_ action: SelectionAction) -> Point {
            let r = bar.buttons.first { $0.action == action }?.rect ?? .null
            return Point(x: (r.minX + r.maxX) / 2, y: (r.minY + r.maxY) / 2)
        }
        let slid = try replay(Self.selectFirst + Self.touch([centre(.delete), centre(.delete) + Point(x: 0, y: 60)], at: 2000))
        XCTAssertEqual(slid.session.book.sheet.strokes.count, 2, "a finger that slid off the button before lifting deletes nothing")
        XCTAssertEqual(slid.session.selectedStrokes, [0])
        let deleted = try replay(Self.selectFirst + Self.tap(centre(.delete), at: 2000))
        XCTAssertEqual(deleted.session.book.sheet.strokes.map { $0.points[0].y }, [300])
        XCTAssertEqual(deleted.session.frame.pixel(x: 200, y: 100), Self.white)
        XCTAssertTrue(deleted.session.selectedStrokes.isEmpty)
        let restored = try replay(Self.selectFirst + Self.tap(centre(.delete), at: 2000) + Self.fingers(2, at: 2400))
        XCTAssertEqual(restored.session.book.sheet.strokes.map { $0.points[0].y }, [100, 300])
        XCTAssertEqual(restored.session.frame.pixel(x: 200, y: 100), Self.blue)

        let red = Palette.standard.colors[2]
        let recoloured = try replay(Self.selectFirst + Self.tap(centre(.color(2)), at: 2000) + Self.tap(Point(x: 500, y: 200), at: 2400))
        XCTAssertEqual(recoloured.session.book.sheet.strokes.map(\.style.color), [red, 0x0000FF])
        XCTAssertEqual(recoloured.session.frame.pixel(x: 200, y: 100), 0xFF00_0000 | red)
        let unrecoloured = try replay(Self.selectFirst + Self.tap(centre(.color(2)), at: 2000) + Self.fingers(2, at: 2400))
        XCTAssertEqual(unrecoloured.session.book.sheet.strokes.map(\.style.color), [0x0000FF, 0x0000FF])
        XCTAssertEqual(unrecoloured.session.frame.pixel(x: 200, y: 100), Self.blue)

        let duplicated = try replay(Self.selectFirst + Self.tap(centre(.duplicate), at: 2000))
        let strokes = duplicated.session.book.sheet.strokes
        XCTAssertEqual(strokes.count, 3)
        XCTAssertEqual(strokes[2].points[0], Point(x: 124, y: 124), "the copy is appended, moved by 24 px")
        XCTAssertEqual(duplicated.session.selectedStrokes, [2], "the copy is selected")
        let unduplicated = try replay(Self.selectFirst + Self.tap(centre(.duplicate), at: 2000) + Self.fingers(2, at: 2400)
            + Self.fingers(3, at: 2800))
        XCTAssertEqual(unduplicated.session.book.sheet.strokes.count, 3, "undo took the copy, redo put it back")
        let names = names(unduplicated)
        XCTAssertEqual(names.filter { $0 == "tap.undo" || $0 == "tap.redo" }, ["tap.undo", "tap.redo"], "\(names)")
    }

    /// One pen stroke along `points` from `t0`: near, down, moving, up (it stays near).
    static func pen(_ points: [Point], at t0: Double) -> [String] {
        var lines: [String] = []
        for (i, p) in points.enumerated() {
            let t = t0 + Double(i) * 8
            lines.append(#"{"t": \#(t), "kind": "tablet.motion", "x": \#(p.x), "y": \#(p.y), "pressure": 0.5}"#)
            if i == 0 { lines.append(#"{"t": \#(t), "kind": "tablet.down"}"#) }
            lines.append(#"{"t": \#(t), "kind": "tablet.frame"}"#)
        }
        let end = t0 + Double(points.count) * 8
        return lines + [#"{"t": \#(end), "kind": "tablet.up"}"#, #"{"t": \#(end), "kind": "tablet.frame"}"#]
    }

    /// The pen does it all: taps the handle and `lasso`, draws the loop (no ink), drags the stroke.
    func testThePenChoosesTheLassoDrawsTheLoopAndMovesTheSelection() throws {
        let layout = ToolbarLayout(width: Double(Self.width), height: Double(Self.height))
        guard let slot = layout.slot(for: .lasso) else { return XCTFail("no lasso control") }
        func centre(_ r: Rect) -> Point { Point(x: (r.minX + r.maxX) / 2, y: (r.minY + r.maxY) / 2) }
        let strokes = Self.touch(Self.line(Point(x: 100, y: 100), Point(x: 300, y: 100)), at: 0)
            + Self.touch(Self.line(Point(x: 100, y: 300), Point(x: 300, y: 300)), at: 400)
        let pen = [#"{"t": 800, "kind": "tablet.proximity_in", "tool": "pen"}"#, #"{"t": 800, "kind": "tablet.frame"}"#]
            + Self.pen([centre(layout.handle)], at: 810) + Self.pen([centre(slot.rect)], at: 900)
            + Self.pen(Self.loop(round: Rect(x: 80, y: 70, width: 240, height: 60)), at: 1000)
            + Self.pen(Self.line(Point(x: 200, y: 100), Point(x: 260, y: 200)), at: 1600)
        let replay = try replay(strokes + pen)
        let names = names(replay)
        XCTAssertTrue(names.contains("control.lasso") && names.contains("selection.moved"), "\(names)")
        XCTAssertEqual(replay.session.book.sheet.strokes.count, 2, "the pen's loop is not ink")
        XCTAssertEqual(replay.session.book.sheet.strokes[0].points[0], Point(x: 160, y: 200))
        XCTAssertEqual(replay.session.selectedStrokes, [0], "still selected after the move")
    }

    /// Quitting (or the compositor going) with a finger moving the selection keeps the move; with
    /// a finger held on a button, nothing happens.
    func testFinishingKeepsAMoveInProgressAndIgnoresAButtonHeld() throws {
        let drag = Self.touch(Self.line(Point(x: 200, y: 100), Point(x: 200, y: 160)), at: 2000).dropLast(2)
        let moving = try replay(Self.selectFirst + drag)
        XCTAssertEqual(moving.session.mode, .selecting)
        moving.session.finishActiveStroke()
        XCTAssertEqual(moving.session.book.sheet.strokes[0].points[0], Point(x: 100, y: 160))
        XCTAssertTrue(moving.session.selectedStrokes.isEmpty)
        XCTAssertEqual(moving.session.frame.pixel(x: 200, y: 160), Self.blue)

        guard let delete = try replay(Self.selectFirst).session.selectionBar?.buttons[0].rect else { return XCTFail("no bar") }
        let holding = try replay(Self.selectFirst + Self.touch([Point(x: delete.minX + 24, y: delete.minY + 24)], at: 2000).dropLast(2))
        holding.session.finishActiveStroke()
        XCTAssertEqual(holding.session.book.sheet.strokes.count, 2, "a button held at the end deletes nothing")
    }

    func testAPinchOrAPageTurnEndsTheSelectionFirst() throws {
        let pinch = [
            #"{"t": 2000, "kind": "touch.down", "id": 5, "x": 400, "y": 200}"#, #"{"t": 2000, "kind": "touch.frame"}"#,
            #"{"t": 2010, "kind": "touch.down", "id": 6, "x": 560, "y": 200}"#, #"{"t": 2010, "kind": "touch.frame"}"#,
            #"{"t": 2100, "kind": "touch.motion", "id": 6, "x": 500, "y": 200}"#, #"{"t": 2100, "kind": "touch.frame"}"#,
        ]
        let pinched = try replay(Self.selectFirst + pinch)
        XCTAssertTrue(pinched.session.selectedStrokes.isEmpty)
        let names = names(pinched)
        guard let ended = names.firstIndex(of: "selection.ended"), let folded = names.firstIndex(of: "fold.began") else {
            return XCTFail("\(names)")
        }
        XCTAssertLessThan(ended, folded, "the selection ends before the fold: \(names)")
        // A pinch starting on the selection ends it too.
        let onBox = try replay(Self.selectFirst + pinch.map { $0.replacingOccurrences(of: #""x": 400"#, with: #""x": 200"#)
            .replacingOccurrences(of: #""y": 200"#, with: #""y": 100"#) })
        XCTAssertTrue(onBox.session.selectedStrokes.isEmpty)
        XCTAssertEqual(onBox.session.book.sheet.strokes[0].points[0], Point(x: 100, y: 100), "nothing moved")

        let turn = Self.touch(Self.line(Point(x: 630, y: 200), Point(x: 200, y: 200)), at: 2000)
        let turned = try replay(Self.selectFirst + turn)
        let turnNames = turned.session.timeline.map(\.name)
        XCTAssertTrue(turned.session.selectedStrokes.isEmpty)
        guard let turnEnded = turnNames.firstIndex(of: "selection.ended"), let flip = turnNames.firstIndex(of: "flip.began") else {
            return XCTFail("\(turnNames)")
        }
        XCTAssertLessThan(turnEnded, flip)
    }
}
