import FolioCore
import FolioGeometry
import FolioInput
import FolioTestSupport
import XCTest
@testable import FolioReplay

/// Two-finger taps undo and three-finger taps redo, replayed from traces: one undo step each,
/// no ink and no fold left behind; pinches fold exactly as they did.
final class TapGestureTests: XCTestCase {
    static let blue: UInt32 = 0xFF00_00FF
    static let white: UInt32 = 0xFFFF_FFFF

    private func replay(_ lines: [String], tapUndo: Bool = true, width: Int = 640, height: Int = 400) throws -> Replay {
        let replay = Replay(trace: try Trace(parsing: lines.joined(separator: "\n")), options: .init(width: width, height: height))
        replay.session.tapUndo = tapUndo
        try replay.run()
        return replay
    }

    private func names(_ replay: Replay) -> [String] { replay.session.timeline.map(\.name) }

    /// A finger drawing a line along y from x = 100 to 500, starting at `t0`.
    private func stroke(y: Double, at t0: Double) -> [String] {
        var lines = [#"{"t": \#(t0), "kind": "touch.down", "id": 1, "x": 100, "y": \#(y)}"#, #"{"t": \#(t0), "kind": "touch.frame"}"#]
        for i in 1...10 {
            let t = t0 + Double(i) * 16
            lines += [#"{"t": \#(t), "kind": "touch.motion", "id": 1, "x": \#(100 + 40 * i), "y": \#(y)}"#, #"{"t": \#(t), "kind": "touch.frame"}"#]
        }
        return lines + [#"{"t": \#(t0 + 176), "kind": "touch.up", "id": 1}"#, #"{"t": \#(t0 + 176), "kind": "touch.frame"}"#]
    }

    /// `fingers` fingers landing 10 ms apart around (300, 300) and lifting together 150 ms later.
    private func tap(fingers: Int, at t0: Double) -> [String] {
        var lines: [String] = []
        for f in 0..<fingers {
            let t = t0 + Double(f) * 10
            lines += [#"{"t": \#(t), "kind": "touch.down", "id": \#(10 + f), "x": \#(250 + 50 * f), "y": 300}"#, #"{"t": \#(t), "kind": "touch.frame"}"#]
        }
        for f in 0..<fingers { lines.append(#"{"t": \#(t0 + 150), "kind": "touch.up", "id": \#(10 + f)}"#) }
        return lines + [#"{"t": \#(t0 + 150), "kind": "touch.frame"}"#]
    }

    func testATwoFingerTapUndoesOneStrokeAndLeavesNoInkNorFold() throws {
        let replay = try replay(stroke(y: 100, at: 0) + stroke(y: 200, at: 500) + tap(fingers: 2, at: 1000))
        XCTAssertEqual(replay.session.book.sheet.strokes.map { $0.points.first?.y }, [100], "one undo step")
        XCTAssertEqual(replay.session.frame.pixel(x: 300, y: 200), Self.white, "the undone stroke is gone")
        XCTAssertEqual(replay.session.frame.pixel(x: 300, y: 100), Self.blue)
        XCTAssertEqual(replay.session.frame.pixel(x: 250, y: 300), Self.white, "the tap's first finger left no ink")
        let names = names(replay)
        XCTAssertEqual(names.filter { $0 == "tap.undo" }.count, 1, "\(names)")
        XCTAssertEqual(names.filter { $0 == "stroke.ended" }.count, 2, "the tap drew nothing: \(names)")
        XCTAssertFalse(names.contains("fold.ended") || names.contains("unfold.completed"), "the pages never folded: \(names)")
        XCTAssertEqual(Array(names.suffix(2)), ["fold.withdrawn", "tap.undo"], "\(names)")
        XCTAssertEqual(replay.session.mode, .idle)
        XCTAssertEqual(replay.session.foldScale, 1)
    }

    func testAThreeFingerTapRedoes() throws {
        let replay = try replay(stroke(y: 100, at: 0) + tap(fingers: 2, at: 500) + tap(fingers: 3, at: 1000))
        XCTAssertEqual(replay.session.book.sheet.strokes.count, 1)
        XCTAssertEqual(replay.session.frame.pixel(x: 300, y: 100), Self.blue)
        let names = names(replay)
        XCTAssertEqual(names.filter { $0.hasPrefix("tap.") }, ["tap.undo", "tap.redo"], "no undo from the three fingers: \(names)")
        XCTAssertFalse(names.contains("fold.ended"), "\(names)")
    }

    func testTapUndoOffLeavesATapAPinch() throws {
        let replay = try replay(stroke(y: 100, at: 0) + tap(fingers: 2, at: 1000), tapUndo: false)
        XCTAssertEqual(replay.session.book.sheet.strokes.count, 1)
        let names = names(replay)
        XCTAssertFalse(names.contains { $0.hasPrefix("tap.") } || names.contains("fold.withdrawn"), "\(names)")
        XCTAssertTrue(names.contains("fold.ended"), "\(names)")
    }

    /// The documented pinch folds exactly as with taps off: the same events at the same times,
    /// and the same frame at the end.
    func testPinchesFoldExactlyAsBefore() throws {
        let lines = ExampleTrace.text.split(separator: "\n").map(String.init)
        let on = try replay(lines, width: 1920, height: 1200)
        let off = try replay(lines, tapUndo: false, width: 1920, height: 1200)
        XCTAssertEqual(on.session.timeline, off.session.timeline)
        XCTAssertTrue(on.session.timeline.contains { $0.name == "fold.began" })
        let a = on.session.frame, b = off.session.frame
        for y in stride(from: 0, to: a.height, by: 3) {
            for x in stride(from: 0, to: a.width, by: 3) where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) {
                return XCTFail("the frames differ at (\(x), \(y))")
            }
        }
    }
}
