import FolioCore
import FolioGeometry
import FolioInput
import FolioSketchbook
import FolioLayers
import FolioToolbar
import FolioTools
import XCTest
@testable import FolioReplay

/// Traces that tap the toolbar through its layout (the one `folio controls` prints), replayed as
/// the live app would play them.
final class ToolbarReplayTests: XCTestCase {
    private let width = 1280, height = 800
    private var layout: ToolbarLayout { ToolbarLayout(width: Double(width), height: Double(height)) }

    /// A script: `tap NAME` taps a control (or `handle`), `stroke Y` draws a horizontal stroke
    /// at height y, `wait MS` lets time pass. Each step starts 100 ms after the last one ended.
    private func events(_ script: [String]) -> [TimedInputEvent] {
        var events: [TimedInputEvent] = []
        var t = 0.0
        func touch(_ event: InputEvent) {
            events.append(TimedInputEvent(time: t, event: event))
            events.append(TimedInputEvent(time: t, event: .touchFrame))
        }
        for step in script {
            let words = step.split(separator: " ").map(String.init)
            switch words[0] {
            case "tap":
                let rect = words[1] == "handle" ? layout.handle : layout.controls.first { $0.action.name == words[1] }?.rect
                guard let rect else { XCTFail("no control \(words[1])"); continue }
                let p = Point(x: rect.minX + rect.width / 2, y: rect.minY + rect.height / 2)
                touch(.touchDown(id: 1, at: p))
                t += 50
                touch(.touchUp(id: 1))
            case "stroke":
                let y = Double(words[1]) ?? 0
                touch(.touchDown(id: 1, at: Point(x: 200, y: y)))
                for i in 1...10 {
                    t += 16
                    touch(.touchMotion(id: 1, to: Point(x: 200 + Double(i) * 40, y: y)))
                }
                t += 16
                touch(.touchUp(id: 1))
            case "wait":
                t += Double(words[1]) ?? 0
            default:
                XCTFail("unknown step \(step)")
            }
            t += 100
        }
        return events
    }

    /// Replays `script` to its end and every animation after (the toolbar's hiding too), or
    /// until `stop` ms.
    private func replay(_ script: [String], stop: Double? = nil) throws -> Replay {
        let replay = Replay(trace: Trace(events: events(script)), options: .init(width: width, height: height, stopTime: stop))
        try replay.run()
        return replay
    }

    private func names(_ replay: Replay) -> [String] { replay.session.timeline.map(\.name) }

    func testUndoRemovesTheLastStrokeAndRedoReturnsIt() throws {
        let undone = try replay(["stroke 200", "stroke 300", "tap handle", "tap undo"])
        XCTAssertEqual(undone.session.book.sheet.strokes.count, 1)
        XCTAssertTrue(names(undone).contains("control.undo"))
        let redone = try replay(["stroke 200", "stroke 300", "tap handle", "tap undo", "tap redo"])
        XCTAssertEqual(redone.session.book.sheet.strokes.count, 2)
        XCTAssertEqual(redone.session.book.sheet.strokes.last?.points.first?.y, 300)
    }

    func testAColourOrWidthAppliesToTheNextStrokeOnly() throws {
        let replay = try replay(["stroke 200", "tap handle", "tap color.3", "tap width.3", "wait 5000", "stroke 300"])
        let strokes = replay.session.book.sheet.strokes
        XCTAssertEqual(strokes.map(\.style), [InkStyle.standard, InkStyle(width: 12, color: Palette.standardColors[2])])
        let svg = SVGExport.document(for: replay.session.book.sheet, size: Size(width: 1280, height: 800))
        XCTAssertTrue(svg.lowercased().contains("#0000ff"), svg)
        XCTAssertTrue(svg.lowercased().contains("#d81b1b"), svg)
    }

    func testTheEraserRemovesTheCrossedStrokeUndoRestoresItAndAnInkEndsErasing() throws {
        let erased = try replay(["stroke 200", "stroke 300", "tap handle", "tap eraser", "stroke 200"])
        XCTAssertEqual(erased.session.book.sheet.strokes.map { $0.points.first?.y }, [300])
        XCTAssertEqual(erased.session.tools.tool, .eraser)
        XCTAssertEqual(names(erased).filter { $0 == "stroke.began" }.count, 2, "the eraser's pass drew nothing")
        let restored = try replay(["stroke 200", "stroke 300", "tap handle", "tap eraser", "stroke 200", "tap handle", "tap undo"])
        XCTAssertEqual(restored.session.book.sheet.strokes.count, 2)
        let drawing = try replay(["stroke 200", "tap handle", "tap eraser", "tap color.2", "stroke 300"])
        XCTAssertEqual(drawing.session.tools.tool, .ink)
        XCTAssertEqual(drawing.session.book.sheet.strokes.map { $0.points.first?.y }, [200, 300])
        let toggled = try replay(["stroke 200", "tap handle", "tap eraser", "tap eraser", "stroke 200"])
        XCTAssertEqual(toggled.session.book.sheet.strokes.count, 2, "a second tap on the eraser draws again")
    }

    func testSheetControlsAddMoveDeleteAndUndoRestores() throws {
        let added = try replay(["stroke 200", "tap handle", "tap sheet.new"])
        XCTAssertEqual(added.session.book.sheets.count, 2)
        XCTAssertEqual(added.session.book.currentSheet, 1)
        // A tap on "previous" turns the page (up to 0.4 s): the next tap waits for it.
        let moved = try replay(["stroke 200", "tap handle", "tap sheet.new", "tap sheet.previous", "wait 500", "tap sheet.next",
                                "wait 500"])
        XCTAssertEqual(moved.session.book.currentSheet, 1)
        XCTAssertEqual(names(moved).filter { $0 == "flip.completed" }.count, 2)
        let deleted = try replay(["stroke 200", "tap handle", "tap sheet.new", "stroke 300", "tap handle", "tap sheet.delete"])
        XCTAssertEqual(deleted.session.book.sheets.count, 1)
        let restored = try replay(["stroke 200", "tap handle", "tap sheet.new", "stroke 300", "tap handle", "tap sheet.delete",
                                   "tap undo"])
        XCTAssertEqual(restored.session.book.sheets.count, 2)
        XCTAssertEqual(restored.session.book.sheet.strokes.count, 1)
    }

    func testTapsOnControlsNeverDrawAndDisabledControlsDoNothing() throws {
        let replay = try replay(["tap handle", "tap undo", "tap sheet.previous", "tap color.2", "tap export"])
        XCTAssertEqual(replay.session.book.sheet.strokes.count, 0)
        XCTAssertFalse(names(replay).contains("stroke.began"))
        // Undo and previous were disabled (nothing to undo, the first sheet): not performed.
        XCTAssertEqual(names(replay).filter { $0.hasPrefix("control.") }, ["control.color.2", "control.export"])
        // No ink where the controls were: the canvas under the toolbar is still white paper.
        let frame = replay.session.frame
        for slot in layout.controls {
            XCTAssertEqual(frame.pixel(x: Int(slot.rect.minX + 24), y: Int(slot.rect.minY + 24)), 0xFFFF_FFFF, slot.action.name)
        }
    }

    func testTheToolbarHidesWhileDrawingAndAfterAWhileUntouched() throws {
        let drawing = try replay(["tap handle", "stroke 200"])
        XCTAssertEqual(names(drawing).filter { $0 != "stroke.ended" }, ["toolbar.shown", "toolbar.hidden", "stroke.began"])
        XCTAssertFalse(drawing.session.toolbar.isShown)
        let idle = try replay(["tap handle"], stop: 1000 + Toolbar.autoHideDelay / 2)
        XCTAssertTrue(idle.session.toolbar.isShown)
        let later = try replay(["tap handle"], stop: 1000 + Toolbar.autoHideDelay)
        XCTAssertFalse(later.session.toolbar.isShown)
        XCTAssertEqual(names(later), ["toolbar.shown", "toolbar.hidden"])
        // The second tap on the handle hides it at once.
        let toggled = try replay(["tap handle", "tap handle"])
        XCTAssertEqual(names(toggled), ["toolbar.shown", "toolbar.hidden"])
    }

    func testShowingAndPressingTheToolbarNeverRepaintsTheCanvas() throws {
        let stroke = try replay(["stroke 200"])
        let framesForStroke = stroke.compositor.framesPresented
        let toolbarCommits = stroke.compositor.toolbarCommits
        // The same stroke, then the handle, a colour and the bar hiding by itself: toolbar commits
        // only, not one canvas frame more.
        let shown = try replay(["stroke 200", "tap handle", "tap color.2"])
        XCTAssertEqual(shown.compositor.framesPresented, framesForStroke)
        XCTAssertGreaterThanOrEqual(shown.compositor.toolbarCommits, toolbarCommits + 4, "shown, pressed, chosen, hidden")
        XCTAssertFalse(shown.session.toolbar.isShown)
    }

    func testAStrokeFromTheCanvasKeepsDrawingUnderTheToolbar() throws {
        let bar = layout.bar
        var script = events(["tap handle"])
        let t = (script.last?.time ?? 0) + 100
        // From above the bar straight down through it: the toolbar hides and the stroke goes on.
        script.append(TimedInputEvent(time: t, event: .touchDown(id: 1, at: Point(x: 400, y: bar.minY - 100))))
        script.append(TimedInputEvent(time: t, event: .touchFrame))
        for i in 1...8 {
            script.append(TimedInputEvent(time: t + Double(i) * 16, event: .touchMotion(id: 1, to: Point(x: 400, y: bar.minY - 100 + Double(i) * 20))))
            script.append(TimedInputEvent(time: t + Double(i) * 16, event: .touchFrame))
        }
        script.append(TimedInputEvent(time: t + 200, event: .touchUp(id: 1)))
        script.append(TimedInputEvent(time: t + 200, event: .touchFrame))
        let replay = Replay(trace: Trace(events: script), options: .init(width: width, height: height))
        try replay.run()
        XCTAssertEqual(replay.session.book.sheet.strokes.first?.points.last?.y, bar.minY + 60)
        XCTAssertEqual(replay.session.frame.pixel(x: 400, y: Int(bar.minY + 40)), 0xFF00_00FF)
    }

    func testAPinchWithAFingerOnTheToolbarStillFolds() throws {
        var script = events(["tap handle"])
        let t = (script.last?.time ?? 0) + 100
        guard let red = layout.slot(for: .color(2))?.rect else { return XCTFail("no colour 3") }
        let onBar = Point(x: red.minX + 24, y: red.minY + 24)
        script += [
            TimedInputEvent(time: t, event: .touchDown(id: 1, at: onBar)),
            TimedInputEvent(time: t, event: .touchFrame),
            TimedInputEvent(time: t + 20, event: .touchDown(id: 2, at: Point(x: onBar.x + 400, y: onBar.y - 300))),
            TimedInputEvent(time: t + 20, event: .touchFrame),
            TimedInputEvent(time: t + 40, event: .touchMotion(id: 2, to: Point(x: onBar.x + 200, y: onBar.y - 150))),
            TimedInputEvent(time: t + 40, event: .touchFrame),
            TimedInputEvent(time: t + 60, event: .touchUp(id: 1)),
            TimedInputEvent(time: t + 60, event: .touchUp(id: 2)),
            TimedInputEvent(time: t + 60, event: .touchFrame),
        ]
        let replay = Replay(trace: Trace(events: script), options: .init(width: width, height: height))
        try replay.run()
        let names = names(replay)
        XCTAssertTrue(names.contains("fold.began") && names.contains("unfold.completed"), "\(names)")
        XCTAssertFalse(names.contains("control.color.3"), "the press went into the pinch")
        XCTAssertEqual(replay.session.ink.color, Palette.standardColors[0])
    }

    func testAPageTurnFromTheEdgeAtTheToolbarsHeightStillTurns() throws {
        var script = events(["stroke 200", "tap handle"])
        let t = (script.last?.time ?? 0) + 100
        let y = layout.bar.minY + 20
        script += [
            TimedInputEvent(time: t, event: .touchDown(id: 1, at: Point(x: 1270, y: y))),
            TimedInputEvent(time: t, event: .touchFrame),
            TimedInputEvent(time: t + 50, event: .touchMotion(id: 1, to: Point(x: 100, y: y))),
            TimedInputEvent(time: t + 50, event: .touchFrame),
            TimedInputEvent(time: t + 100, event: .touchUp(id: 1)),
            TimedInputEvent(time: t + 100, event: .touchFrame),
        ]
        let replay = Replay(trace: Trace(events: script), options: .init(width: width, height: height))
        try replay.run()
        XCTAssertTrue(names(replay).contains("flip.completed"))
        XCTAssertEqual(replay.session.book.sheets.count, 2)
    }

    func testTheKeyboardAndTheToolbarReachTheSameExport() throws {
        var requests = 0
        for script in [["tap handle", "tap export"]] {
            let replay = Replay(trace: Trace(events: events(script)), options: .init(width: width, height: height))
            replay.session.onRequest = { if $0 == .exportSheet { requests += 1 } }
            try replay.run()
        }
        let keys = Replay(trace: Trace(events: [TimedInputEvent(time: 0, event: .key(KeyChord(key: "e", modifiers: [.ctrl]), pressed: true))]),
                          options: .init(width: width, height: height))
        keys.session.onRequest = { if $0 == .exportSheet { requests += 1 } }
        try keys.run()
        XCTAssertEqual(requests, 2)
    }
}

/// Settings the session takes: gestures on or off, and the fold's perspective.
final class SessionSettingsTests: XCTestCase {
    private func play(_ events: [TimedInputEvent], edgeTurn: Bool = true, pinch: Bool = true, perspective: Double = 2000) throws -> Replay {
        // A sheet with ink, so a forward turn has somewhere to go.
        var book = Sketchbook()
        book.append(Stroke(points: [Point(x: 100, y: 100)]))
        let replay = Replay(trace: Trace(events: events), options: .init(width: 1280, height: 800), book: book)
        replay.session.configure(edgeTurn: edgeTurn, pinch: pinch, foldPerspective: perspective)
        try replay.run()
        return replay
    }

    private func drag(from a: Point, to b: Point) -> [TimedInputEvent] {
        [TimedInputEvent(time: 0, event: .touchDown(id: 1, at: a)), TimedInputEvent(time: 0, event: .touchFrame),
         TimedInputEvent(time: 50, event: .touchMotion(id: 1, to: b)), TimedInputEvent(time: 50, event: .touchFrame),
         TimedInputEvent(time: 100, event: .touchUp(id: 1)), TimedInputEvent(time: 100, event: .touchFrame)]
    }

    func testEdgeTurnsOffMakeAnEdgeTouchDraw() throws {
        let from = Point(x: 1270, y: 300), to = Point(x: 600, y: 300)
        XCTAssertTrue(try play(drag(from: from, to: to)).session.timeline.map(\.name).contains("flip.began"))
        let off = try play(drag(from: from, to: to), edgeTurn: false)
        XCTAssertEqual(off.session.timeline.map(\.name), ["stroke.began", "stroke.ended"])
    }

    func testThePerspectiveSettingChangesTheFold() throws {
        let pinch: [TimedInputEvent] = [
            TimedInputEvent(time: 0, event: .touchDown(id: 1, at: Point(x: 440, y: 400))),
            TimedInputEvent(time: 0, event: .touchDown(id: 2, at: Point(x: 840, y: 400))),
            TimedInputEvent(time: 0, event: .touchFrame),
            TimedInputEvent(time: 20, event: .touchMotion(id: 1, to: Point(x: 490, y: 400))),
            TimedInputEvent(time: 20, event: .touchMotion(id: 2, to: Point(x: 790, y: 400))),
            TimedInputEvent(time: 20, event: .touchFrame),
        ]
        let standard = try play(pinch).session.fold.leftPageTransform
        let near = try play(pinch, perspective: 800).session.fold.leftPageTransform
        XCTAssertEqual(standard, FoldScene.pageTransform(scale: 0.75, side: .left))
        XCTAssertEqual(near, FoldScene.pageTransform(scale: 0.75, side: .left, distance: 800))
        XCTAssertNotEqual(near, standard)
        XCTAssertFalse(try play(pinch, pinch: false).session.timeline.map(\.name).contains("fold.began"))
    }
}
