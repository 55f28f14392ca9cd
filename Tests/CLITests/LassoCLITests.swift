import Foundation
import XCTest

/// The lasso end to end, as a test author drives it: `folio controls` gives the `lasso` control,
/// `folio replay --book` saves, `folio replay`'s `selection` gives the bar, and `folio info` and
/// the SVG export show what the book holds.
extension CLITests {
    /// Trace lines for one finger along `points`, 16 ms apart, from `t0`.
    private func lassoTouch(_ points: [(Double, Double)], at t0: Int) -> [String] {
        var lines: [String] = []
        for (i, p) in points.enumerated() {
            let t = t0 + i * 16
            lines.append(#"{"t": \#(t), "kind": "touch.\#(i == 0 ? "down" : "motion")", "id": 1, "x": \#(p.0), "y": \#(p.1)}"#)
            lines.append(#"{"t": \#(t), "kind": "touch.frame"}"#)
        }
        let end = t0 + points.count * 16
        return lines + [#"{"t": \#(end), "kind": "touch.up", "id": 1}"#, #"{"t": \#(end), "kind": "touch.frame"}"#]
    }

    private func lassoLine(_ a: (Double, Double), _ b: (Double, Double)) -> [(Double, Double)] {
        (0...10).map { step in
            let f = Double(step) / 10
            return (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f)
        }
    }

    private func centre(_ rect: [Double]) -> (Double, Double) { (rect[0] + rect[2] / 2, rect[1] + rect[3] / 2) }

    /// Taps on the handle and `lasso`, then a loop round the stroke at y 100.
    private func selectTopStroke(at t0: Int) throws -> [String] {
        let layout = try run(["controls", "--size", "640x400"])
        let object = try JSONSerialization.jsonObject(with: Data(layout.stdout.utf8)) as? [String: Any]
        let handle = object?["handle"] as? [Double] ?? []
        let lasso = (object?["controls"] as? [[String: Any]] ?? []).first { $0["name"] as? String == "lasso" }?["rect"] as? [Double]
        let corners: [(Double, Double)] = [(80, 70), (320, 70), (320, 130), (80, 130), (80, 70)]
        var loop: [(Double, Double)] = []
        for (a, b) in zip(corners, corners.dropFirst()) { loop += lassoLine(a, b).dropLast() }
        loop.append((80, 70))
        return lassoTouch([centre(handle)], at: t0) + lassoTouch([centre(try XCTUnwrap(lasso))], at: t0 + 100)
            + lassoTouch(loop, at: t0 + 300)
    }

    /// Replays `lines` over `book` and saves it (without a book: over none, and nothing is saved).
    private func replayLasso(_ lines: [String], book: String?) throws -> [String: Any] {
        let path = try write("lasso-\(UUID().uuidString).jsonl", lines.joined(separator: "\n"))
        let result = try run(["replay", path, "--size", "640x400"] + (book.map { ["--book", $0] } ?? []))
        XCTAssertEqual(result.status, 0, result.stderr)
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
    }

    /// The sheet's paths in the SVG export: each path's first point.
    private func svgStarts(_ book: String) throws -> [String] {
        let svg = folder.appendingPathComponent("sheet-\(UUID().uuidString).svg").path
        let result = try run(["export", "--book", book, "--sheet", "1", "--svg", svg])
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        return text.components(separatedBy: "<path d=\"M").dropFirst().map { String($0.prefix { $0 != " " && $0 != "C" }) + " " + String($0.split(separator: " ")[1]) }
    }

    private func strokeCounts(_ book: String) throws -> String {
        try run(["info", "--book", book]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testALassoMoveIsSavedAsItsRecordAndShownWhereItWent() throws {
        let book = folder.appendingPathComponent("book").path
        let strokes = lassoTouch(lassoLine((100, 100), (300, 100)), at: 0) + lassoTouch(lassoLine((100, 300), (300, 300)), at: 400)
        _ = try replayLasso(strokes, book: book)
        let file = book + "/book.folio"
        let before = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        XCTAssertEqual(try svgStarts(book), ["100 100", "100 300"])

        let moved = try replayLasso(try selectTopStroke(at: 0) + lassoTouch(lassoLine((200, 100), (230, 180)), at: 1500)
            + lassoTouch([(500, 200)], at: 2200), book: book)
        let events = (moved["events"] as? [[String: Any]] ?? []).compactMap { $0["event"] as? String }
        XCTAssertEqual(events.filter { $0.hasPrefix("lasso.") || $0.hasPrefix("selection.") },
                       ["lasso.began", "lasso.ended", "selection.made", "selection.moved", "selection.ended"])
        XCTAssertEqual(try strokeCounts(book), #"{"sheets":[{"strokes":2,"paper":"plain"}]}"#)
        XCTAssertEqual(try svgStarts(book), ["130 180", "100 300"], "the moved stroke where it went, the other where it was")
        // The file grew by one move record (16 bytes of record, 4 of change count, a 9-byte
        // change head, 20 bytes for the stroke), not by the strokes (each 196 bytes here).
        let after = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        XCTAssertEqual(after - before, 16 + 4 + 9 + 20)

        // Undo (two fingers) and redo (three) in the session that moved, saved, read back.
        func fingers(_ count: Int, at t0: Int) -> [String] {
            (0..<count).flatMap { f in [#"{"t": \#(t0 + f * 10), "kind": "touch.down", "id": \#(20 + f), "x": \#(420 + 40 * f), "y": 250}"#,
                                        #"{"t": \#(t0 + f * 10), "kind": "touch.frame"}"#] }
                + (0..<count).map { f in #"{"t": \#(t0 + 150), "kind": "touch.up", "id": \#(20 + f)}"# } + [#"{"t": \#(t0 + 150), "kind": "touch.frame"}"#]
        }
        let other = folder.appendingPathComponent("undo").path
        let moveBack = try selectTopStroke(at: 0) + lassoTouch(lassoLine((200, 100), (230, 180)), at: 1500) + lassoTouch([(500, 200)], at: 2200)
        _ = try replayLasso(strokes, book: other)
        _ = try replayLasso(moveBack + fingers(2, at: 2600), book: other)
        XCTAssertEqual(try svgStarts(other), ["100 100", "100 300"], "undone")
        XCTAssertEqual(try strokeCounts(other), #"{"sheets":[{"strokes":2,"paper":"plain"}]}"#)
        let again = folder.appendingPathComponent("redo").path
        _ = try replayLasso(strokes, book: again)
        _ = try replayLasso(moveBack + fingers(2, at: 2600) + fingers(3, at: 3200), book: again)
        XCTAssertEqual(try svgStarts(again), ["130 180", "100 300"], "redone")
    }

    func testTheLassosBarDeletesDuplicatesAndRecoloursThroughTraces() throws {
        let book = folder.appendingPathComponent("bar").path
        let strokes = lassoTouch(lassoLine((100, 100), (300, 100)), at: 0) + lassoTouch(lassoLine((100, 300), (300, 300)), at: 400)
        _ = try replayLasso(strokes, book: book)
        // The selection as `folio replay` prints it at the end (a saving replay ends it first).
        let selected = try replayLasso(strokes + (try selectTopStroke(at: 1000)), book: nil)
        let selection = try XCTUnwrap(selected["selection"] as? [String: Any])
        XCTAssertEqual(selection["strokes"] as? [Int], [1])
        var buttons: [String: [Double]] = [:]
        for button in selection["bar"] as? [[String: Any]] ?? [] {
            if let name = button["name"] as? String, let rect = button["rect"] as? [Double] { buttons[name] = rect }
        }
        XCTAssertEqual(Set(buttons.keys), Set(["selection.delete", "selection.duplicate"] + (1...6).map { "selection.color.\($0)" }))

        // The same strokes selected in the book give the same bar.
        let select = try selectTopStroke(at: 0)
        _ = try replayLasso(select + lassoTouch([centre(try XCTUnwrap(buttons["selection.duplicate"]))], at: 1500), book: book)
        XCTAssertEqual(try strokeCounts(book), #"{"sheets":[{"strokes":3,"paper":"plain"}]}"#, "the copy is appended")
        XCTAssertEqual(try svgStarts(book), ["100 100", "100 300", "124 124"])

        _ = try replayLasso(select + lassoTouch([centre(try XCTUnwrap(buttons["selection.color.3"]))], at: 1500), book: book)
        let svg = folder.appendingPathComponent("colours.svg").path
        XCTAssertEqual(try run(["export", "--book", book, "--sheet", "1", "--svg", svg]).status, 0)
        let colours = try String(contentsOfFile: svg, encoding: .utf8).components(separatedBy: "stroke=\"").dropFirst().map { $0.prefix(7) }
        XCTAssertEqual(colours, ["#D81B1B", "#0000FF", "#D81B1B"], "the loop took the stroke and its copy (both mostly inside)")

        _ = try replayLasso(select + lassoTouch([centre(try XCTUnwrap(buttons["selection.delete"]))], at: 1500), book: book)
        XCTAssertEqual(try strokeCounts(book), #"{"sheets":[{"strokes":1,"paper":"plain"}]}"#)
        XCTAssertEqual(try svgStarts(book), ["100 300"])
    }
}
