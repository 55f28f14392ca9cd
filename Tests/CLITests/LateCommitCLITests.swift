import Foundation
import XCTest

/// `folio replay` draws a live stroke's frames late, just before each vblank's repaint deadline:
/// `frames.jsonl` shows each frame mid-stroke carrying input from the last few ms before its
/// deadline, not from the vblank before.
extension CLITests {
    func testReplayedStrokeFramesCarryInputFromJustBeforeTheDeadline() throws {
        var lines = [#"{"t": 10, "kind": "tablet.proximity_in", "tool": "pen"}"#]
        for step in 0...150 {
            let t = 10 + step * 4
            lines.append(#"{"t": \#(t), "kind": "tablet.motion", "x": \#(100 + step * 2), "y": \#(200 + step), "pressure": 0.5}"#)
            if step == 0 { lines.append(#"{"t": 10, "kind": "tablet.down"}"#) }
            lines.append(#"{"t": \#(t), "kind": "tablet.frame"}"#)
        }
        lines += [#"{"t": 620, "kind": "tablet.up"}"#, #"{"t": 620, "kind": "tablet.frame"}"#]
        let trace = try write("pen-stroke.jsonl", lines.joined(separator: "\n"))
        for (rate, window) in [("60", "7"), ("120", "3")] {
            let out = folder.appendingPathComponent("late-\(rate)").path
            let result = try run(["replay", trace, "--size", "640x480", "--out", out, "--refresh", rate, "--repaint-window", window])
            XCTAssertEqual(result.status, 0, result.stderr)
            let text = try String(contentsOfFile: "\(out)/frames.jsonl", encoding: .utf8)
            let frames = try text.split(separator: "\n").map { line in
                try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
            // Mid-stroke: after the first late frame (which keeps half a refresh) and before the lift.
            let midStroke = frames.filter { ($0["input"] as? Double).map { $0 >= 60 && $0 < 600 } ?? false }
            XCTAssertGreaterThan(midStroke.count, 20, "\(rate) Hz")
            for frame in midStroke {
                let presented = try XCTUnwrap(frame["presented"] as? Double), input = try XCTUnwrap(frame["input"] as? Double)
                // The window, the 1 ms margin, and at most one 4 ms gap between samples.
                XCTAssertLessThanOrEqual(presented - input, try XCTUnwrap(Double(window)) + 1 + 4, "\(rate) Hz: \(frame)")
            }
        }
    }
}
