import FolioCore
import Foundation
import FolioGeometry
import FolioInput
import FolioPixels
import FolioRender
import FolioSketchbook
import XCTest
@testable import FolioReplay

/// Hold to shape, replayed from traces: a stroke whose end is held still for 500 ms snaps to its
/// shape on the frame loop's clock, the held end resizes it, one undo brings back the stroke as
/// drawn, and freehand stays as it was drawn.
final class HoldToShapeTests: XCTestCase {
    static let white: UInt32 = 0xFFFF_FFFF
    static let centre = Point(x: 320, y: 200)

    /// Events at their times, built as a finger, the mouse or a pen would send them.
    private struct Script {
        var events: [TimedInputEvent] = []
        var t = 0.0

        mutating func touch(_ event: InputEvent, after ms: Double = 8) {
            t += ms
            events += [TimedInputEvent(time: t, event: event), TimedInputEvent(time: t, event: .touchFrame)]
        }

        mutating func pen(_ event: InputEvent, after ms: Double = 8) {
            t += ms
            events += [TimedInputEvent(time: t, event: event), TimedInputEvent(time: t, event: .tabletFrame)]
        }

        mutating func send(_ event: InputEvent, after ms: Double = 8) {
            t += ms
            events.append(TimedInputEvent(time: t, event: event))
        }

        /// A finger drawing through `points`, one every 8 ms, then resting where it stopped.
        mutating func finger(_ points: [Point], lift: Bool = false, hold: Double = 0) {
            touch(.touchDown(id: 1, at: points[0]))
            for p in points.dropFirst() { touch(.touchMotion(id: 1, to: p)) }
            t += hold
            if lift { touch(.touchUp(id: 1)) }
        }

        mutating func undo(after ms: Double = 100) {
            send(.key(KeyChord(key: "z", modifiers: [.ctrl]), pressed: true), after: ms)
            send(.key(KeyChord(key: "z", modifiers: [.ctrl]), pressed: false), after: 8)
        }

        mutating func redo(after ms: Double = 100) {
            send(.key(KeyChord(key: "y", modifiers: [.ctrl]), pressed: true), after: ms)
            send(.key(KeyChord(key: "y", modifiers: [.ctrl]), pressed: false), after: 8)
        }
    }

    /// A circle of `radius` about `centre` drawn wobbly (±6 px, three bumps), once round and 5% past.
    static func wobblyCircle(radius: Double = 120, count: Int = 90) -> [Point] {
        (0...count).map { k in
            let phi = 2.1 * Double.pi * Double(k) / Double(count)
            let r = radius + 6 * sin(3 * phi + 0.4)
            return centre + Point(x: cos(phi), y: sin(phi)) * r
        }
    }

    private func replay(_ script: Script, holdToShape: Bool = true, stop: Double? = nil, book: Sketchbook = Sketchbook(),
                        display: DisplayClock = .standard) throws -> Replay {
        let replay = Replay(trace: Trace(events: script.events),
                            options: .init(width: 640, height: 400, stopTime: stop, display: display), book: book)
        replay.session.holdToShape = holdToShape
        try replay.run()
        return replay
    }

    private func names(_ replay: Replay) -> [String] { replay.session.timeline.map(\.name) }

    /// The screen as a PNG in .build/test-artifacts/hold-to-shape, to look at.
    private func keep(_ replay: Replay, as name: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent(".build/test-artifacts/hold-to-shape")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try PNG.encode(replay.screen).write(to: folder.appendingPathComponent(name))
    }

    /// Whether the screen shows ink at `p` (logical px, scale 1).
    private func inked(_ replay: Replay, _ p: Point) -> Bool {
        replay.session.frame.pixel(x: Int(p.x.rounded()), y: Int(p.y.rounded())) != Self.white
    }

    /// The points at every 5° on the circle of `radius` about the centre that show no ink.
    private func gaps(_ replay: Replay, radius: Double) -> [Int] {
        stride(from: 0, to: 360, by: 5).filter { degrees in
            let phi = Double(degrees) * Double.pi / 180
            return !inked(replay, Self.centre + Point(x: cos(phi), y: sin(phi)) * radius)
        }
    }

    func testAWobblyCircleHeldSnapsToACircleWhileTheFingerRests() throws {
        var script = Script()
        script.finger(Self.wobblyCircle())
        let lastMove = script.t
        script.t += 2000
        script.send(.pointerMotion(to: Point(x: 5, y: 5)))  // something much later, the finger still down

        // Before the hold is up: the wobbly ink as drawn, off the true circle where it bulges.
        let early = try replay(script, stop: lastMove + 480)
        XCTAssertFalse(names(early).contains("shape.circle"), "\(names(early))")
        XCTAssertFalse(gaps(early, radius: 120).isEmpty, "the freehand strays from the circle")

        let held = try replay(script)
        XCTAssertEqual(held.session.timeline.first { $0.name == "shape.circle" }?.time, lastMove + 500, "\(names(held))")
        XCTAssertEqual(held.session.mode, .drawing, "the finger still rests")
        XCTAssertEqual(gaps(held, radius: 120), [], "the snapped circle's ink lies on the circle all round")
        for degrees in stride(from: 0, to: 360, by: 30) {
            let phi = Double(degrees) * Double.pi / 180
            for off in [-12.0, 12.0] {
                XCTAssertFalse(inked(held, Self.centre + Point(x: cos(phi), y: sin(phi)) * (120 + off)),
                               "no ink \(off) px off the circle at \(degrees)°: the freehand is gone")
            }
        }
        try keep(held, as: "snapped-circle.png")
    }

    /// With no event at all after the finger stops (it rests), the frame loop's own clock snaps it.
    func testTheHoldFiresFromTheFrameClockWithNoInput() throws {
        var script = Script()
        script.finger(Self.wobblyCircle())
        let replay = try replay(script)
        XCTAssertEqual(names(replay).last, "shape.circle", "\(names(replay))")
        XCTAssertEqual(gaps(replay, radius: 120), [])
    }

    /// The same trace on a 60 Hz and a 144 Hz display: the same snap at the same time, the same book.
    func testTheSnapDoesNotDependOnTheDisplay() throws {
        var script = Script()
        script.finger(Self.wobblyCircle(), lift: true, hold: 700)
        let slow = try replay(script)
        let fast = try replay(script, display: DisplayClock(refreshRate: 144, repaintWindow: 2))
        XCTAssertEqual(slow.session.timeline.filter { $0.name.hasPrefix("shape.") }, fast.session.timeline.filter { $0.name.hasPrefix("shape.") })
        XCTAssertEqual(slow.session.book.sheet.strokes, fast.session.book.sheet.strokes)
        XCTAssertEqual(slow.session.book.sheet.strokes.count, 1)
    }

    /// Lifting before 500 ms keeps the freehand; a finger wandering more than 4 px starts a new hold.
    func testNoSnapWithoutAFullHold() throws {
        var quick = Script()
        quick.finger(Self.wobblyCircle(), lift: true, hold: 450)
        let lifted = try replay(quick)
        XCTAssertFalse(names(lifted).contains { $0.hasPrefix("shape.") }, "\(names(lifted))")
        XCTAssertEqual(lifted.session.book.sheet.strokes.first?.points, Self.wobblyCircle())

        var wandering = Script()
        wandering.finger(Self.wobblyCircle())
        let end = Self.wobblyCircle().last ?? .zero
        for k in 1...6 { wandering.touch(.touchMotion(id: 1, to: end + Point(x: 5 * Double(k), y: 0)), after: 300) }
        wandering.touch(.touchUp(id: 1), after: 300)
        let moved = try replay(wandering)
        XCTAssertFalse(names(moved).contains { $0.hasPrefix("shape.") }, "\(names(moved))")
    }

    /// Dragging the held end: a circle grows about its centre, a line's end follows the finger;
    /// the book keeps the shape as it was when the finger lifted.
    func testDraggingTheHeldEndResizesTheShape() throws {
        var script = Script()
        let circle = Self.wobblyCircle()
        script.finger(circle)
        script.t += 600
        let grip = circle.last ?? .zero
        let outward = (grip - Self.centre) * (1 / grip.distance(to: Self.centre))
        for k in 1...5 { script.touch(.touchMotion(id: 1, to: grip + outward * (10 * Double(k)))) }
        script.touch(.touchUp(id: 1))
        let replay = try replay(script)
        let stroke = try XCTUnwrap(replay.session.book.sheet.strokes.last)
        let radius = grip.distance(to: Self.centre) + 50
        let centre = stroke.points.dropLast().reduce(Point.zero, +) * (1 / Double(stroke.points.count - 1))
        for p in stroke.points {
            XCTAssertEqual(p.distance(to: centre), stroke.points[0].distance(to: centre), accuracy: 0.01, "a circle")
        }
        // The snapped circle's radius is the fit's, about 120; 50 px farther out from its centre
        // the finger made it as much larger as the grip moved out.
        let fitted = stroke.points[0].distance(to: centre)
        XCTAssertEqual(fitted / (fitted - 50 * fitted / radius), radius / (radius - 50), accuracy: 0.02)
        XCTAssertGreaterThan(fitted, 160)
        XCTAssertEqual(gaps(replay, radius: fitted), [], "the screen shows the resized circle")

        var drawLine = Script()
        let line = (0...40).map { Point(x: 100 + 10 * Double($0), y: 100 + sin(Double($0)) * 1.5) }
        drawLine.finger(line)
        drawLine.t += 600
        drawLine.touch(.touchMotion(id: 1, to: Point(x: 500, y: 300)))
        drawLine.touch(.touchUp(id: 1))
        let lined = try self.replay(drawLine)
        XCTAssertTrue(names(lined).contains("shape.line"), "\(names(lined))")
        let kept = try XCTUnwrap(lined.session.book.sheet.strokes.last)
        XCTAssertEqual(kept.points.first, line.first)
        XCTAssertEqual(kept.points.last, Point(x: 500, y: 300), "the end where the finger took it")
    }

    /// One undo brings back the stroke as drawn (the pixels exactly those of hold to shape off),
    /// the next takes it away; redo brings the freehand, then the shape.
    func testOneUndoReturnsToTheFreehandTheNextRemovesIt() throws {
        var drawn = Script()
        drawn.finger(Self.wobblyCircle(), lift: true, hold: 700)
        let freehand = try replay(drawn, holdToShape: false)
        let snapped = try replay(drawn)
        XCTAssertNotEqual(snapped.session.book.sheet.strokes, freehand.session.book.sheet.strokes)

        var once = drawn
        once.undo()
        let undone = try replay(once)
        XCTAssertEqual(undone.session.book.sheet.strokes, freehand.session.book.sheet.strokes, "the stroke as drawn")
        XCTAssertTrue(undone.session.frame.allPixels == freehand.session.frame.allPixels, "and its pixels")

        var twice = once
        twice.undo()
        let empty = try replay(twice)
        XCTAssertEqual(empty.session.book.sheet.strokes, [])

        var back = twice
        back.redo()
        XCTAssertEqual(try replay(back).session.book.sheet.strokes, freehand.session.book.sheet.strokes)
        back.redo()
        let again = try replay(back)
        XCTAssertEqual(again.session.book.sheet.strokes, snapped.session.book.sheet.strokes)
        XCTAssertTrue(again.session.frame.allPixels == snapped.session.frame.allPixels)
    }

    /// The shape is an ordinary stroke: a page turn to a new sheet and back shows it as it was.
    func testTheShapeTurnsWithThePage() throws {
        var script = Script()
        script.finger(Self.wobblyCircle(), lift: true, hold: 700)
        let snapped = try replay(script)
        script.send(.key(KeyChord(key: "Next", modifiers: []), pressed: true), after: 100)
        script.send(.key(KeyChord(key: "Prior", modifiers: []), pressed: true), after: 2000)
        let turned = try replay(script)
        XCTAssertEqual(turned.session.book.sheets.count, 2, "\(names(turned))")
        XCTAssertEqual(turned.session.book.currentSheet, 0)
        XCTAssertTrue(turned.session.book.sheet.strokes == snapped.session.book.sheet.strokes)
        XCTAssertTrue(turned.session.frame.allPixels == snapped.session.frame.allPixels)
        XCTAssertEqual(gaps(turned, radius: 120), [])
    }

    /// Handwriting and a scribble, each held at its end: no shape, the strokes as drawn.
    func testFreehandHeldStaysAsDrawn() throws {
        let writing = (0...80).map { k -> Point in
            let t = Double(k) / 80 * 5 * 2 * Double.pi
            return Point(x: 100 + 40 * t / (2 * Double.pi) + 10 * sin(t), y: 200 - 15 * (1 - cos(t)))
        }
        let scribble = (0...80).map { k -> Point in
            let t = Double(k) / 8
            return Point(x: 300 + 60 * sin(t * 1.3) + 20 * cos(t * 3.1), y: 200 + 50 * sin(t * 2.2 + 1))
        }
        for points in [writing, scribble] {
            var script = Script()
            script.finger(points, lift: true, hold: 800)
            let replay = try replay(script)
            XCTAssertFalse(names(replay).contains { $0.hasPrefix("shape.") }, "\(names(replay))")
            XCTAssertEqual(replay.session.book.sheet.strokes.first?.points, points)
        }
    }

    /// `gestures.hold_to_shape = false`: a held circle stays as drawn.
    func testTheSettingTurnsItOff() throws {
        var script = Script()
        script.finger(Self.wobblyCircle(), lift: true, hold: 1000)
        let replay = try replay(script, holdToShape: false)
        XCTAssertFalse(names(replay).contains { $0.hasPrefix("shape.") })
        XCTAssertEqual(replay.session.book.sheet.strokes.first?.points, Self.wobblyCircle())
    }

    /// The mouse held still (it sends nothing) snaps a line; the pen keeps its pressure's course
    /// along a snapped rectangle.
    func testTheMouseAndThePen() throws {
        var mouse = Script()
        mouse.send(.pointerMotion(to: Point(x: 100, y: 300)))
        mouse.send(.pointerButton(.left, pressed: true))
        for k in 1...30 { mouse.send(.pointerMotion(to: Point(x: 100 + 12 * Double(k), y: 300 - 6 * Double(k) + (k % 2 == 0 ? 1 : -1)))) }
        mouse.send(.pointerButton(.left, pressed: false), after: 900)
        let moused = try replay(mouse)
        XCTAssertTrue(names(moused).contains("shape.line"), "\(names(moused))")
        XCTAssertEqual(moused.session.book.sheet.strokes.last?.points.last, Point(x: 460, y: 120 + 1))

        var pen = Script()
        let corners = [Point(x: 150, y: 100), Point(x: 450, y: 100), Point(x: 450, y: 300), Point(x: 150, y: 300)]
        var outline: [Point] = []
        for k in 0..<4 { outline += (0..<25).map { corners[k] + (corners[(k + 1) % 4] - corners[k]) * (Double($0) / 25) } }
        outline.append(corners[0] + Point(x: 2, y: 1))
        pen.pen(.tabletProximityIn(tool: .pen))
        pen.pen(.tabletMotion(to: outline[0], pressure: 0.2, tilt: nil))
        pen.pen(.tabletDown)
        for (k, p) in outline.enumerated() { pen.pen(.tabletMotion(to: p, pressure: 0.2 + 0.7 * Double(k) / Double(outline.count - 1), tilt: nil)) }
        pen.t += 600
        pen.pen(.tabletUp)
        let penned = try replay(pen)
        XCTAssertTrue(names(penned).contains("shape.rectangle"), "\(names(penned))")
        let stroke = try XCTUnwrap(penned.session.book.sheet.strokes.last)
        let pressures = try XCTUnwrap(stroke.pressures)
        XCTAssertEqual(pressures.count, stroke.points.count)
        XCTAssertEqual(pressures.first ?? 0, 0.2, accuracy: 0.01, "light where the stroke began")
        XCTAssertEqual(pressures.last ?? 0, 0.9, accuracy: 0.01, "firm where it ended")
        XCTAssertEqual(pressures[pressures.count / 2], 0.55, accuracy: 0.05, "halfway round, halfway firm")
        XCTAssertEqual(zip(pressures, pressures.dropFirst()).filter { $0.1 < $0.0 - 1e-4 }.count, 0, "its course kept")
        XCTAssertEqual(stroke.pressureCurve, .standard)
        try keep(penned, as: "snapped-pen-rectangle.png")
    }
}

extension Bitmap {
    /// Every pixel, row by row: two frames are the same picture when these are equal.
    fileprivate var allPixels: [UInt32] {
        (0..<height).flatMap { y in (0..<width).map { x in pixel(x: x, y: y) } }
    }
}
