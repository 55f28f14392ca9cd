import FolioGeometry
import FolioSketchbook
import Foundation
import XCTest

/// Hold to shape through the command line: `folio replay --book` snaps a held rectangle and the
/// drag that resizes it, `folio info` counts one stroke, `folio export --svg` draws the shape,
/// and after one undo the SVG is exactly the stroke as drawn (hold to shape off).
extension CLITests {
    /// A finger drawing a wobbly rectangle from (150, 100) round to where it began, resting 700 ms,
    /// then (with `drag`) moving 40 px out from the centre, lifting; then `after` lines.
    private func heldRectangle(drag: Bool, after: [String] = []) -> String {
        let corners = [Point(x: 150, y: 100), Point(x: 450, y: 100), Point(x: 450, y: 300), Point(x: 150, y: 300)]
        var points: [Point] = []
        for k in 0..<4 {
            points += (0..<20).map { i in
                let p = corners[k] + (corners[(k + 1) % 4] - corners[k]) * (Double(i) / 20)
                return p + Point(x: Double((i * 7 + k) % 5) - 2, y: Double((i * 3 + k) % 5) - 2)
            }
        }
        points.append(Point(x: 152, y: 101))
        var lines: [String] = []
        var t = 0
        func touch(_ body: String) {
            lines += [#"{"t": \#(t), \#(body)}"#, #"{"t": \#(t), "kind": "touch.frame"}"#]
            t += 8
        }
        touch(#""kind": "touch.down", "id": 1, "x": \#(points[0].x), "y": \#(points[0].y)"#)
        for p in points.dropFirst() { touch(#""kind": "touch.motion", "id": 1, "x": \#(p.x), "y": \#(p.y)"#) }
        t += 700
        if drag { touch(#""kind": "touch.motion", "id": 1, "x": 112, "y": 61"#) }
        touch(#""kind": "touch.up", "id": 1"#)
        t += 100
        for line in after { lines.append(#"{"t": \#(t), \#(line)}"#) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Replays `trace` into a new book (with `config` as its settings file) and exports its sheet as SVG.
    private func replayAndExport(_ name: String, _ trace: String, config: String? = nil) throws -> (events: String, svg: String, book: Sheet) {
        let book = folder.appendingPathComponent(name).path
        let file = folder.appendingPathComponent("\(name).jsonl")
        try Data(trace.utf8).write(to: file)
        var arguments = ["replay", file.path, "--size", "640x400", "--book", book]
        if let config {
            let settings = folder.appendingPathComponent("\(name).toml")
            try Data(config.utf8).write(to: settings)
            arguments += ["--config", settings.path]
        }
        let replay = try run(arguments)
        XCTAssertEqual(replay.status, 0, replay.stderr)
        let info = try run(["info", "--book", book])
        XCTAssertEqual(info.stdout.trimmingCharacters(in: .whitespacesAndNewlines), #"{"sheets":[{"strokes":1,"paper":"plain"}]}"#, name)
        let svg = folder.appendingPathComponent("\(name).svg").path
        XCTAssertEqual(try run(["export", "--book", book, "--sheet", "1", "--svg", svg, "--size", "640x400"]).status, 0)
        return (replay.stdout, try String(contentsOfFile: svg, encoding: .utf8),
                try BookStore(directory: URL(fileURLWithPath: book)).load().sheet)
    }

    func testAHeldRectangleSnapsResizesAndUndoesToTheFreehandThroughTheCommandLine() throws {
        let undo = [#""kind": "key", "keys": "ctrl+z", "state": "pressed""#]
        // Hold to shape off, and no drag: the stroke as it was when the held one snapped (the
        // drag moves the shape only, never the stroke as drawn).
        let freehand = try replayAndExport("freehand", heldRectangle(drag: false), config: "[gestures]\nhold_to_shape = false\n")
        let snapped = try replayAndExport("snapped", heldRectangle(drag: true))
        let undone = try replayAndExport("undone", heldRectangle(drag: true, after: undo))

        XCTAssertFalse(freehand.events.contains("shape."), freehand.events)
        XCTAssertTrue(snapped.events.contains(#""event":"shape.rectangle""#), snapped.events)
        XCTAssertNotEqual(snapped.svg, freehand.svg)
        XCTAssertEqual(undone.svg, freehand.svg, "one undo: the stroke as drawn")
        XCTAssertTrue(undone.book.strokes == freehand.book.strokes)

        // The snapped stroke lies on a rectangle square to the window, grown about its centre
        // (300, 200) by the drag from (152, 101) to (112, 61): every point on one of its sides.
        let stroke = try XCTUnwrap(snapped.book.strokes.first)
        let box = Rect(bounding: stroke.points)
        XCTAssertGreaterThan(box.width, 340)
        XCTAssertEqual((box.minX + box.maxX) / 2, 300, accuracy: 2)
        XCTAssertEqual((box.minY + box.maxY) / 2, 200, accuracy: 2)
        XCTAssertEqual(box.width / box.height, 1.5, accuracy: 0.03, "the proportions kept")
        for p in stroke.points {
            let onSide = min(abs(p.x - box.minX), abs(p.x - box.maxX), abs(p.y - box.minY), abs(p.y - box.maxY))
            XCTAssertLessThan(onSide, 1e-6, "\(p) off the rectangle")
        }
    }
}
