import Foundation
import TestCompositor
import XCTest

/// Weston killed (SIGKILL, as a crash or an OOM kill ends it) while Folio is in the middle of a
/// stroke or a pinch: Folio prints one line, exits 0, and the book holds every stroke. Weston
/// headless has no seat, so the input comes from `folio --demo TRACE --book DIR`, which plays
/// the trace through the same frame loop as real touches.
final class VanishingWestonTests: XCTestCase {
    func testWestonKilledMidStrokeKeepsTheStroke() throws {
        // A stroke at 0.2-0.7 s, then a second one from 1 s that lasts 30 s.
        var lines = stroke(id: 1, from: (200, 200), to: (900, 260), start: 200, steps: 30, step: 16)
        lines += stroke(id: 2, from: (200, 500), to: (1000, 560), start: 1000, steps: 1800, step: 16, lift: false)
        try killWeston(during: lines, expectedStrokes: 2)
    }

    func testWestonKilledMidPinchKeepsTheStroke() throws {
        var lines = stroke(id: 1, from: (200, 200), to: (900, 260), start: 200, steps: 30, step: 16)
        // Two fingers land at 1 s, 400 px apart, and close in slowly for 30 s (the fold stays on screen).
        lines.append(#"{"t": 1000, "kind": "touch.down", "id": 2, "x": 440, "y": 400}"#)
        lines.append(#"{"t": 1000, "kind": "touch.down", "id": 3, "x": 840, "y": 400}"#)
        lines.append(#"{"t": 1000, "kind": "touch.frame"}"#)
        for i in 1...1800 {
            let t = 1000 + i * 16, inset = Double(i) / 18
            lines.append(#"{"t": \#(t), "kind": "touch.motion", "id": 2, "x": \#(440 + inset), "y": 400}"#)
            lines.append(#"{"t": \#(t), "kind": "touch.motion", "id": 3, "x": \#(840 - inset), "y": 400}"#)
            lines.append(#"{"t": \#(t), "kind": "touch.frame"}"#)
        }
        try killWeston(during: lines, expectedStrokes: 1)
    }

    /// Plays `trace` under a private Weston with a book; once the first stroke is saved (0.7 s
    /// into the trace) and a second later, with the trace's last gesture under way, kills Weston.
    private func killWeston(during trace: [String], expectedStrokes: Int) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/weston") else {
            throw unavailable("/usr/bin/weston is missing (apt-get install weston; `make test` does)")
        }
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let session = try WestonSession.start()
        defer { session.stop() }
        let tracePath = work + "/trace.jsonl"
        try (trace.joined(separator: "\n") + "\n").write(toFile: tracePath, atomically: true, encoding: .utf8)
        let book = work + "/book"
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = session.runtimeDirectory
        environment["WAYLAND_DISPLAY"] = session.display
        environment["WAYLAND_SOCKET"] = nil
        environment["XDG_DATA_HOME"] = work
        let folioPath = try ClientProcess.folioExecutable()
        let folio = try ClientProcess.start(folioPath, arguments: ["--demo", tracePath, "--book", book], environment: environment)
        defer { folio.terminate() }

        let deadline = Date().addingTimeInterval(30)
        while try strokes(in: book, folio: folioPath) < 1 {
            guard folio.isRunning, Date() < deadline else {
                return XCTFail("the first stroke was never saved; stderr: \(folio.standardError.suffix(2000))")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Thread.sleep(forTimeInterval: 1)
        XCTAssertTrue(folio.isRunning, "folio is still playing the trace")
        XCTAssertEqual(kill(session.pid, SIGKILL), 0)

        let status = try folio.waitForExit(timeout: .seconds(20))
        let stderr = folio.standardError
        XCTAssertEqual(status, 0, "exit status (nil: killed by signal \(folio.terminatingSignal ?? 0)); stderr: \(stderr)")
        let lines = stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "one line: \(stderr)")
        XCTAssertTrue(stderr.hasPrefix("folio: ") && stderr.contains(book), "the line names the book: \(stderr)")
        XCTAssertEqual(try strokes(in: book, folio: folioPath), expectedStrokes, "strokes in the book")
    }

    /// Lines of one finger's stroke: down, `steps` motions `step` ms apart, and (with `lift`) up.
    private func stroke(id: Int, from: (Double, Double), to: (Double, Double), start: Int, steps: Int, step: Int,
                        lift: Bool = true) -> [String] {
        var lines = [#"{"t": \#(start), "kind": "touch.down", "id": \#(id), "x": \#(from.0), "y": \#(from.1)}"#,
                     #"{"t": \#(start), "kind": "touch.frame"}"#]
        for i in 1...steps {
            let f = Double(i) / Double(steps), t = start + i * step
            let x = from.0 + (to.0 - from.0) * f, y = from.1 + (to.1 - from.1) * f
            lines += [#"{"t": \#(t), "kind": "touch.motion", "id": \#(id), "x": \#(x), "y": \#(y)}"#, #"{"t": \#(t), "kind": "touch.frame"}"#]
        }
        if lift {
            let t = start + (steps + 1) * step
            lines += [#"{"t": \#(t), "kind": "touch.up", "id": \#(id)}"#, #"{"t": \#(t), "kind": "touch.frame"}"#]
        }
        return lines
    }

    /// Strokes on the book's first sheet as `folio info` reads them; 0 before the first save.
    private func strokes(in book: String, folio: String) throws -> Int {
        guard FileManager.default.fileExists(atPath: book + "/book.folio") else { return 0 }
        let (status, output, errors) = try WestonSession.run(folio, ["info", "--book", book])
        guard status == 0 else { throw WestonError("folio info failed: \(errors)") }
        let info = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        let sheets = info?["sheets"] as? [[String: Any]]
        return sheets?.first?["strokes"] as? Int ?? 0
    }
}
