import FolioCore
import FolioGeometry
import FolioInput
import FolioPixels
import FolioRender
import FolioSketchbook
import FolioToolbar
import XCTest
@testable import FolioReplay

/// The `play` control through traces, as the live app plays them: the sheet draws itself again
/// stroke by stroke (frames show it partly drawn), ends on the sheet as it is, and a touch or a
/// key stops it at once without drawing; the book never changes. Strokes keep the trace's times.
final class PlaybackTests: XCTestCase {
    private let width = 800, height = 600
    private var layout: ToolbarLayout { ToolbarLayout(width: Double(width), height: Double(height)) }

    /// Three strokes (each 10 moves 16 ms apart, 100 ms between them, begun at 0, 260 and 520 ms), then the play control
    /// tapped at 1000 ms (the handle first), lifted at 1150; then `after`, from 1200 ms.
    private func trace(after: [TimedInputEvent] = []) -> Trace {
        var events: [TimedInputEvent] = []
        var t = 0.0
        func touch(_ event: InputEvent) {
            events.append(TimedInputEvent(time: t, event: event))
            events.append(TimedInputEvent(time: t, event: .touchFrame))
        }
        for y in [150.0, 250, 350] {
            touch(.touchDown(id: 1, at: Point(x: 100, y: y)))
            for i in 1...10 {
                t += 16
                touch(.touchMotion(id: 1, to: Point(x: 100 + Double(i) * 50, y: y + Double(i % 3) * 10)))
            }
            touch(.touchUp(id: 1))
            t += 100
        }
        func tap(_ rect: Rect) {
            touch(.touchDown(id: 2, at: Point(x: rect.minX + rect.width / 2, y: rect.minY + rect.height / 2)))
            t += 50
            touch(.touchUp(id: 2))
        }
        t = 1000
        tap(layout.handle)
        t = 1100
        guard let play = layout.slot(for: .play)?.rect else {
            XCTFail("no play control")
            return Trace(events: events)
        }
        tap(play)
        return Trace(events: events + after)
    }

    private func replay(_ trace: Trace, stop: Double? = nil) throws -> Replay {
        let replay = Replay(trace: trace, options: .init(width: width, height: height, stopTime: stop))
        try replay.run()
        return replay
    }

    /// Pixels of the canvas that are not paper.
    private func ink(_ bitmap: Bitmap) -> Int {
        var count = 0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap.pixel(x: x, y: y) != CanvasRenderer.paper { count += 1 }
        }
        return count
    }

    private func names(_ replay: Replay) -> [String] { replay.session.timeline.map(\.name) }

    func testStrokesKeepTheTracesTimes() throws {
        let strokes = try replay(trace()).session.book.sheet.strokes
        XCTAssertEqual(strokes.count, 3)
        XCTAssertEqual(strokes[0].times, StrokeTimes(start: 0, offsets: (0...10).map { UInt32($0 * 16) }))
        XCTAssertEqual(strokes[1].times?.start ?? 0, 0.26, accuracy: 1e-9)
        XCTAssertTrue(strokes.allSatisfy(\.hasTimes))
    }

    func testPlaybackDrawsTheSheetAgainAndEndsOnIt() throws {
        let whole = try replay(trace())
        let sheet = ink(whole.session.frame)
        XCTAssertGreaterThan(sheet, 1000)
        XCTAssertEqual(Array(names(whole).suffix(4)), ["control.play", "toolbar.hidden", "playback.began", "playback.ended"])
        XCTAssertFalse(whole.session.isPlayingBack)
        // The sheet plays 0.16 s a stroke with 0.1 s pauses: 0.68 s from the tap's lift at 1150 ms
        // (ended at the first frame after it, 60 Hz).
        let ended = try XCTUnwrap(whole.session.timeline.first { $0.name == "playback.ended" }).time
        XCTAssertEqual(ended, 1150 + 680, accuracy: 17)
        // Frames during it show the sheet partly drawn, more as it goes on.
        var shown: [Int] = []
        for stop in [1160.0, 1300, 1500, 1700] {
            let partway = try replay(trace(), stop: stop)
            XCTAssertTrue(partway.session.isPlayingBack, "at \(stop)")
            shown.append(ink(partway.session.frame))
        }
        XCTAssertEqual(shown, shown.sorted(), "\(shown)")
        XCTAssertLessThan(shown[0], sheet / 4)
        XCTAssertGreaterThan(shown[3], sheet / 2)
        XCTAssertLessThan(shown[3], sheet)
        // And it ends on exactly the pixels of the sheet drawn from its strokes.
        let canvas = CanvasRenderer(width: width, height: height, scale: 1)
        canvas.rebuild(strokes: whole.session.book.sheet.strokes)
        XCTAssertEqual(ink(canvas.frame), sheet)
        XCTAssertEqual((0..<height).map { y in (0..<width).map { whole.session.frame.pixel(x: $0, y: y) } },
                       (0..<height).map { y in (0..<width).map { canvas.frame.pixel(x: $0, y: y) } })
    }

    func testATouchStopsItShowingTheSheetAndDrawsNothing() throws {
        let before = try replay(trace(), stop: 1160)
        let touch: [TimedInputEvent] = [
            TimedInputEvent(time: 1400, event: .touchDown(id: 3, at: Point(x: 300, y: 500))),
            TimedInputEvent(time: 1400, event: .touchFrame),
            TimedInputEvent(time: 1420, event: .touchMotion(id: 3, to: Point(x: 400, y: 520))),
            TimedInputEvent(time: 1420, event: .touchFrame),
            TimedInputEvent(time: 1440, event: .touchUp(id: 3)),
            TimedInputEvent(time: 1440, event: .touchFrame),
        ]
        let stopped = try replay(trace(after: touch))
        XCTAssertEqual(Array(names(stopped).suffix(4)), ["control.play", "toolbar.hidden", "playback.began", "playback.stopped"])
        XCTAssertEqual(try XCTUnwrap(stopped.session.timeline.last).time, 1400)
        XCTAssertEqual(stopped.session.book.sheet.strokes, before.session.book.sheet.strokes, "nothing drawn, nothing changed")
        XCTAssertEqual(stopped.session.revision, before.session.revision, "the book was not touched")
        XCTAssertEqual(ink(stopped.session.frame), ink(try replay(trace(), stop: 1000).session.frame), "the whole sheet shows")
        // Stopped at 1400 ms, where the playback showed part of the sheet: frames then showed the whole.
        let atStop = try replay(trace(after: Array(touch.prefix(2))), stop: 1401)
        XCTAssertFalse(atStop.session.isPlayingBack)
        XCTAssertEqual(ink(atStop.session.frame), ink(stopped.session.frame))
    }

    func testAKeyStopsItWithoutActing() throws {
        let key: [TimedInputEvent] = [
            TimedInputEvent(time: 1300, event: .key(KeyChord(key: "z", modifiers: [.ctrl]), pressed: true)),
            TimedInputEvent(time: 1350, event: .key(KeyChord(key: "z", modifiers: [.ctrl]), pressed: false)),
        ]
        let stopped = try replay(trace(after: key))
        XCTAssertEqual(names(stopped).last, "playback.stopped")
        XCTAssertEqual(stopped.session.book.sheet.strokes.count, 3, "the key did not undo")
        XCTAssertEqual(stopped.session.book.nextUndo, .stroke, "the undo history is as it was")
    }

    func testAClickStopsItAndTheNextContactDrawsAsUsual() throws {
        let events: [(Double, InputEvent)] = [
            (1290, .pointerMotion(to: Point(x: 300, y: 500))),
            (1300, .pointerButton(.left, pressed: true)),
            (1320, .pointerMotion(to: Point(x: 400, y: 520))),
            (1340, .pointerButton(.left, pressed: false)),
            (1500, .touchDown(id: 4, at: Point(x: 100, y: 450))), (1500, .touchFrame),
            (1520, .touchMotion(id: 4, to: Point(x: 200, y: 460))), (1520, .touchFrame),
            (1540, .touchUp(id: 4)), (1540, .touchFrame),
        ]
        let replay = try replay(trace(after: events.map { TimedInputEvent(time: $0.0, event: $0.1) }))
        XCTAssertEqual(Array(names(replay).suffix(4)), ["playback.began", "playback.stopped", "stroke.began", "stroke.ended"])
        XCTAssertEqual(replay.session.book.sheet.strokes.count, 4, "the click drew nothing; the touch after it drew")
        XCTAssertEqual(replay.session.book.sheet.strokes.last?.points.first, Point(x: 100, y: 450))
    }

    func testABlankSheetHasNothingToPlay() throws {
        var session = Session(width: width, height: height)
        XCTAssertTrue(session.toolbar.disabled.contains(.play))
        session = try replay(trace()).session
        XCTAssertFalse(session.toolbar.disabled.contains(.play))
    }
}
