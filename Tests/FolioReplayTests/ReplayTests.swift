import FolioCore
import FolioGeometry
import FolioInput
import FolioPixels
import FolioRender
import FolioTestSupport
import XCTest
@testable import FolioReplay

final class ReplayTests: XCTestCase {
    static let blue: UInt32 = 0xFF00_00FF
    static let white: UInt32 = 0xFFFF_FFFF

    private func replay(_ text: String, width: Int = 640, height: Int = 400, scale: BufferScale = 1,
                        stopTime: Double? = nil, prediction: Bool = true) throws -> Replay {
        let replay = Replay(trace: try Trace(parsing: text), options: .init(width: width, height: height, scale: scale, stopTime: stopTime))
        replay.session.predictsInk = prediction
        try replay.run()
        return replay
    }

    private func stroke(id: Int = 1, from start: Point, to end: Point, at t0: Double = 0, steps: Int = 12) -> String {
        var lines = ["{\"t\": \(t0), \"kind\": \"touch.down\", \"id\": \(id), \"x\": \(start.x), \"y\": \(start.y)}",
                     "{\"t\": \(t0), \"kind\": \"touch.frame\"}"]
        for i in 1...steps {
            let f = Double(i) / Double(steps), t = t0 + Double(i) * 16
            let p = start + (end - start) * f
            lines.append("{\"t\": \(t), \"kind\": \"touch.motion\", \"id\": \(id), \"x\": \(p.x), \"y\": \(p.y)}")
            lines.append("{\"t\": \(t), \"kind\": \"touch.frame\"}")
        }
        let t = t0 + Double(steps + 1) * 16
        lines.append("{\"t\": \(t), \"kind\": \"touch.up\", \"id\": \(id)}")
        lines.append("{\"t\": \(t), \"kind\": \"touch.frame\"}")
        return lines.joined(separator: "\n")
    }

    func testTheDocumentedExampleTimeline() throws {
        let replay = try replay(ExampleTrace.text, width: 1920, height: 1200)
        let events = replay.session.timeline.map { "\($0.name)@\(Int($0.time.rounded()))" }
        XCTAssertEqual(events, ["stroke.began@0", "stroke.ended@33", "stroke.began@500", "stroke.withdrawn@500",
                                "fold.began@500", "fold.ended@700", "unfold.completed@1367"])
        XCTAssertEqual(replay.session.book.sheet.strokes.count, 1)
        XCTAssertEqual(replay.session.mode, .idle)
        let summary = replay.summary()
        XCTAssertEqual(summary["strokes"] as? Int, 1)
        XCTAssertEqual(summary["sheet"] as? Int, 1)
        XCTAssertEqual((summary["fold"] as? [String: Any])?["state"] as? String, "idle")
        XCTAssertGreaterThan(summary["frames"] as? Int ?? 0, 3)
    }

    func testStoppingMidPinchReportsTracking() throws {
        let replay = try replay(ExampleTrace.text, width: 1920, height: 1200, stopTime: 650)
        XCTAssertEqual(replay.session.mode, .folding(.pinch))
        XCTAssertEqual(replay.session.foldScale, 0.75, accuracy: 1e-9)
    }

    func testAStrokeLeavesInkAlongItsPath() throws {
        let replay = try replay(stroke(from: Point(x: 100, y: 200), to: Point(x: 500, y: 200)))
        let frame = replay.session.frame
        for x in stride(from: 110, through: 490, by: 20) {
            XCTAssertEqual(frame.pixel(x: x, y: 200), Self.blue, "ink at x = \(x)")
            XCTAssertEqual(frame.pixel(x: x, y: 190), Self.white, "paper above the ink at x = \(x)")
        }
        XCTAssertEqual(frame.pixel(x: 50, y: 50), Self.white)
    }

    func testATapLeavesADot() throws {
        let replay = try replay("""
        {"t": 0, "kind": "touch.down", "id": 1, "x": 300, "y": 100}
        {"t": 0, "kind": "touch.frame"}
        {"t": 40, "kind": "touch.up", "id": 1}
        {"t": 40, "kind": "touch.frame"}
        """)
        XCTAssertEqual(replay.session.book.sheet.strokes.count, 1)
        XCTAssertEqual(replay.session.frame.pixel(x: 300, y: 100), Self.blue)
        XCTAssertEqual(replay.session.frame.pixel(x: 306, y: 100), Self.white)
    }

    func testHiDPIDrawsAtTheBufferScale() throws {
        let replay = try replay(stroke(from: Point(x: 100, y: 100), to: Point(x: 300, y: 100)), width: 400, height: 300, scale: 2)
        let frame = replay.session.frame
        XCTAssertEqual(frame.width, 800)
        XCTAssertEqual(frame.height, 600)
        XCTAssertEqual(frame.pixel(x: 400, y: 200), Self.blue)
        XCTAssertEqual(frame.pixel(x: 400, y: 192), Self.white)  // 8 buffer px = 4 logical px from the centre
    }

    /// The live stroke, drawn piecewise into its damage, must equal the baked stroke exactly:
    /// lifting the finger changes no pixel (predicted ink, drawn past the end, is off here).
    func testLiftingTheFingerChangesNoPixel() throws {
        let text = stroke(from: Point(x: 60, y: 80), to: Point(x: 420, y: 310), steps: 25)
        let lines = text.split(separator: "\n")
        let beforeLift = try replay(lines.dropLast(2).joined(separator: "\n"), prediction: false)
        let afterLift = try replay(text)
        XCTAssertTrue(beforeLift.session.isDrawing)
        XCTAssertFalse(afterLift.session.isDrawing)
        XCTAssertEqual(differingPixels(beforeLift.session.frame, afterLift.session.frame), 0)
    }

    func testStrokeFramesDamageOnlyAroundTheStroke() throws {
        let session = Session(width: 800, height: 600)
        _ = session.renderFrame()
        session.handle(.touchDown(id: 1, at: Point(x: 100, y: 100)), at: 0)
        session.handle(.touchFrame, at: 0)
        var x = 100.0
        for i in 1...30 {
            x += 7
            session.handle(.touchMotion(id: 1, to: Point(x: x, y: 100 + Double(i % 3))), at: Double(i) * 16)
            session.handle(.touchFrame, at: Double(i) * 16)
            let damage = session.renderFrame().bounds
            XCTAssertFalse(damage.isEmpty)
            XCTAssertLessThanOrEqual(damage.height, 20, "frame \(i): \(damage)")
            XCTAssertLessThanOrEqual(damage.width, 50, "frame \(i): \(damage)")
            XCTAssertTrue(PixelRect(x: Int(x) - 60, y: 88, width: 80, height: 26).contains(damage), "frame \(i): \(damage)")
        }
    }

    func testUndoAndRedoRedrawTheCanvas() throws {
        let text = stroke(from: Point(x: 100, y: 100), to: Point(x: 300, y: 100)) + "\n" + """
        {"t": 1000, "kind": "key", "keys": "ctrl+z", "state": "pressed"}
        """
        let undone = try replay(text)
        XCTAssertEqual(undone.session.book.sheet.strokes.count, 0)
        XCTAssertEqual(undone.session.frame.pixel(x: 200, y: 100), Self.white)
        let redone = try replay(text + "\n{\"t\": 1100, \"kind\": \"key\", \"keys\": \"ctrl+shift+z\", \"state\": \"pressed\"}")
        XCTAssertEqual(redone.session.book.sheet.strokes.count, 1)
        XCTAssertEqual(redone.session.frame.pixel(x: 200, y: 100), Self.blue)
    }

    func testAResizeKeepsTheDrawing() throws {
        let text = stroke(from: Point(x: 100, y: 100), to: Point(x: 300, y: 100)) + "\n" + """
        {"t": 1000, "kind": "resize", "width": 500, "height": 200, "scale": 2}
        """
        let replay = try replay(text)
        XCTAssertEqual(replay.session.frame.width, 1000)
        XCTAssertEqual(replay.session.frame.pixel(x: 400, y: 200), Self.blue)
    }

    func testInputDuringTheUnfoldDoesNotDraw() throws {
        let text = ExampleTrace.text + "\n" + """
        {"t": 800, "kind": "touch.down", "id": 7, "x": 100, "y": 900}
        {"t": 800, "kind": "touch.frame"}
        {"t": 820, "kind": "touch.motion", "id": 7, "x": 300, "y": 900}
        {"t": 820, "kind": "touch.frame"}
        {"t": 840, "kind": "touch.up", "id": 7}
        {"t": 840, "kind": "touch.frame"}
        """
        let replay = try replay(text, width: 1920, height: 1200)
        XCTAssertEqual(replay.session.book.sheet.strokes.count, 1)
        XCTAssertEqual(replay.session.frame.pixel(x: 200, y: 900), Self.white)
    }

    private func differingPixels(_ a: Bitmap, _ b: Bitmap) -> Int {
        var count = 0
        for y in 0..<a.height { for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { count += 1 } }
        return count
    }
}
