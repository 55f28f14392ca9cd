import FolioGeometry
import FolioInput
import XCTest
@testable import FolioReplay

/// The sketchbook's sheets through traces with `key` events, as a person would use them.
final class SheetTests: XCTestCase {
    static let blue: UInt32 = 0xFF00_00FF
    static let white: UInt32 = 0xFFFF_FFFF

    /// Each line a stroke (`stroke y T`: a horizontal stroke at height y from x 100 to 300,
    /// starting at T ms), a key press (`key CHORD T`) or a trace line as it is (`{…}`). Page Down
    /// and Page Up play a turn of up to 0.4 s: input during it does nothing, so the scripts wait.
    private func replay(_ script: String) throws -> Replay {
        var lines: [String] = []
        for step in script.split(separator: "\n") {
            let words = step.split(separator: " ").map(String.init)
            let t = words.count > 2 ? Double(words[2]) ?? 0 : 0
            if step.hasPrefix("{") {
                lines.append(String(step))
            } else if words[0] == "key" {
                lines.append("{\"t\": \(t), \"kind\": \"key\", \"keys\": \"\(words[1])\", \"state\": \"pressed\"}")
                lines.append("{\"t\": \(t + 10), \"kind\": \"key\", \"keys\": \"\(words[1])\", \"state\": \"released\"}")
            } else {
                let y = Double(words[1]) ?? 0
                lines.append("{\"t\": \(t), \"kind\": \"touch.down\", \"id\": 1, \"x\": 100, \"y\": \(y)}")
                lines.append("{\"t\": \(t), \"kind\": \"touch.frame\"}")
                for i in 1...10 {
                    lines.append("{\"t\": \(t + Double(i) * 16), \"kind\": \"touch.motion\", \"id\": 1, \"x\": \(100 + i * 20), \"y\": \(y)}")
                    lines.append("{\"t\": \(t + Double(i) * 16), \"kind\": \"touch.frame\"}")
                }
                lines.append("{\"t\": \(t + 200), \"kind\": \"touch.up\", \"id\": 1}")
                lines.append("{\"t\": \(t + 200), \"kind\": \"touch.frame\"}")
            }
        }
        let replay = Replay(trace: try Trace(parsing: lines.joined(separator: "\n")), options: .init(width: 640, height: 400))
        try replay.run()
        return replay
    }

    private func strokesPerSheet(_ replay: Replay) -> [Int] {
        replay.session.book.sheets.map(\.strokes.count)
    }

    private func events(_ replay: Replay, prefix: String = "sheet.") -> [String] {
        replay.session.timeline.map(\.name).filter { $0.hasPrefix(prefix) }
    }

    private func inked(_ replay: Replay, y: Int) -> Bool {
        replay.session.frame.pixel(x: 200, y: y) == Self.blue
    }

    func testStrokesAfterPageDownLandOnTheNewSheet() throws {
        let replay = try replay("""
        stroke 100 0
        key Next 1000
        stroke 200 2000
        """)
        XCTAssertEqual(strokesPerSheet(replay), [1, 1])
        XCTAssertEqual(replay.session.book.sheets[1].strokes.first?.points.first?.y, 200)
        XCTAssertEqual(replay.session.book.currentSheet, 1)
        XCTAssertFalse(inked(replay, y: 100), "sheet 1's ink is not on sheet 2")
        XCTAssertTrue(inked(replay, y: 200))
        XCTAssertEqual(events(replay), ["sheet.added", "sheet.changed"])
        let summary = replay.summary()
        XCTAssertEqual(summary["sheet"] as? Int, 2)
        XCTAssertEqual(summary["sheets"] as? Int, 2)
        XCTAssertEqual(summary["strokes"] as? Int, 1)
    }

    func testPageUpShowsThePreviousSheetAgain() throws {
        let replay = try replay("""
        stroke 100 0
        key Next 1000
        stroke 200 2000
        key Prior 3000
        key Prior 3100
        """)
        XCTAssertEqual(replay.session.book.currentSheet, 0)
        XCTAssertTrue(inked(replay, y: 100))
        XCTAssertFalse(inked(replay, y: 200))
        XCTAssertEqual(events(replay), ["sheet.added", "sheet.changed", "sheet.changed"], "Page Up on sheet 1 does nothing")
        XCTAssertEqual(replay.summary()["sheets"] as? Int, 2)
    }

    func testNoEndlessBlankSheets() throws {
        let replay = try replay("""
        key Next 0
        key Next 100
        stroke 100 200
        key Next 1000
        key Next 1100
        key Next 1200
        """)
        XCTAssertEqual(strokesPerSheet(replay), [1, 0])
        XCTAssertEqual(replay.session.book.currentSheet, 1)
        XCTAssertEqual(events(replay), ["sheet.added", "sheet.changed"])
    }

    func testUndoOnEachSheetUndoesThatSheetsStrokesOnly() throws {
        let replay = try replay("""
        stroke 100 0
        stroke 150 300
        key Next 1000
        stroke 200 2000
        stroke 250 2300
        key ctrl+z 3000
        key Prior 3100
        key ctrl+z 3600
        """)
        XCTAssertEqual(strokesPerSheet(replay), [1, 1])
        XCTAssertEqual(replay.session.book.sheets[0].strokes.first?.points.first?.y, 100)
        XCTAssertEqual(replay.session.book.sheets[1].strokes.first?.points.first?.y, 200)
        XCTAssertTrue(inked(replay, y: 100))
        XCTAssertFalse(inked(replay, y: 150))
    }

    func testCtrlNAddsASheetAfterTheCurrentOne() throws {
        let replay = try replay("""
        stroke 100 0
        key Next 1000
        stroke 200 2000
        key Prior 3000
        key ctrl+n 3500
        stroke 300 3600
        """)
        XCTAssertEqual(strokesPerSheet(replay), [1, 1, 1])
        XCTAssertEqual(replay.session.book.sheets.map { $0.strokes.first?.points.first?.y }, [100, 300, 200])
        XCTAssertEqual(replay.session.book.currentSheet, 1)
    }

    func testDeleteThenCtrlZRestoresTheSheet() throws {
        let script = """
        stroke 100 0
        key Next 1000
        stroke 200 2000
        key ctrl+Delete 3000
        """
        let deleted = try replay(script)
        XCTAssertEqual(strokesPerSheet(deleted), [1])
        XCTAssertEqual(deleted.session.book.currentSheet, 0)
        XCTAssertTrue(inked(deleted, y: 100), "the sheet before the deleted last one is shown")
        XCTAssertFalse(inked(deleted, y: 200))
        XCTAssertEqual(deleted.summary()["sheets"] as? Int, 1)

        let restored = try replay(script + "\nkey ctrl+z 4000")
        XCTAssertEqual(strokesPerSheet(restored), [1, 1])
        XCTAssertEqual(restored.session.book.currentSheet, 1)
        XCTAssertTrue(inked(restored, y: 200))
        XCTAssertFalse(inked(restored, y: 100))
        XCTAssertEqual(events(restored), ["sheet.added", "sheet.changed", "sheet.deleted", "sheet.changed",
                                          "sheet.restored", "sheet.changed"])

        let thenStroke = try replay(script + "\nkey ctrl+z 4000\nkey ctrl+z 4100")
        XCTAssertEqual(strokesPerSheet(thenStroke), [1, 0], "the next Ctrl+Z undoes the restored sheet's stroke")
    }

    func testDeletingTheOnlySheetIsUndoable() throws {
        let deleted = try replay("""
        stroke 100 0
        key ctrl+Delete 1000
        """)
        XCTAssertEqual(strokesPerSheet(deleted), [0])
        XCTAssertFalse(inked(deleted, y: 100))
        let restored = try replay("""
        stroke 100 0
        key ctrl+Delete 1000
        key ctrl+z 2000
        """)
        XCTAssertEqual(strokesPerSheet(restored), [1])
        XCTAssertTrue(inked(restored, y: 100))
    }

    func testSheetKeysWhileDrawingDoNothing() throws {
        let replay = try replay("""
        {"t": 0, "kind": "touch.down", "id": 1, "x": 100, "y": 100}
        {"t": 0, "kind": "touch.frame"}
        key Next 20
        key ctrl+Delete 40
        key ctrl+n 60
        {"t": 80, "kind": "touch.motion", "id": 1, "x": 300, "y": 100}
        {"t": 80, "kind": "touch.frame"}
        {"t": 100, "kind": "touch.up", "id": 1}
        {"t": 100, "kind": "touch.frame"}
        """)
        XCTAssertEqual(strokesPerSheet(replay), [1])
        XCTAssertEqual(events(replay), [])
        XCTAssertTrue(inked(replay, y: 100))
    }
}
