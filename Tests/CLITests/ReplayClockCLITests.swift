import FolioTestSupport
import Foundation
import XCTest

/// `folio replay --refresh HZ --repaint-window MS`: the display's clock, and `frames.jsonl`, the
/// record of each presented frame (docs/trace-format.md).
extension CLITests {
    private struct FrameLine: Decodable {
        let frame: Int
        let presented: Double
        let input: Double?
    }

    private func frameLines(in out: String) throws -> [FrameLine] {
        let text = try String(contentsOfFile: "\(out)/frames.jsonl", encoding: .utf8)
        XCTAssertTrue(text.hasSuffix("\n"), "every line ends")
        return try text.split(separator: "\n").map { try JSONDecoder().decode(FrameLine.self, from: Data($0.utf8)) }
    }

    func testFramesJSONLMatchesTheFramePNGsAndTheTrace() throws {
        let text = ExampleTrace.smallFold
        let trace = try write("stroke-and-pinch.jsonl", text)
        let traceTimes = Set(text.split(separator: "\n").compactMap { line -> Double? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return object["t"] as? Double
        })
        for (rate, window) in [("60", nil), ("120", "3"), ("90", "0")] as [(String, String?)] {
            let out = folder.appendingPathComponent("out-\(rate)").path
            let result = try run(["replay", trace, "--size", "640x400", "--out", out, "--frames", "--refresh", rate]
                                 + (window.map { ["--repaint-window", $0] } ?? []))
            XCTAssertEqual(result.status, 0, result.stderr)
            let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let lines = try frameLines(in: out)
            let pngs = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasPrefix("frame-") }.sorted()
            XCTAssertGreaterThan(lines.count, 10, "\(rate) Hz")
            XCTAssertEqual(summary["frames"] as? Int, lines.count, "one line per frame presented")
            XCTAssertEqual(lines.map(\.frame), Array(0..<lines.count))
            XCTAssertEqual(pngs, lines.map { String(format: "frame-%05d.png", $0.frame) }, "one PNG per line, same numbers")
            let hz = try XCTUnwrap(Double(rate))
            for (line, next) in zip(lines, lines.dropFirst()) {
                XCTAssertLessThan(line.presented, next.presented, "one frame per vblank")
                XCTAssertLessThanOrEqual(line.input ?? -1, next.input ?? -1, "input never goes back")
            }
            for line in lines {
                let vblank = line.presented * hz / 1000
                XCTAssertEqual(vblank, vblank.rounded(), accuracy: 1e-9, "\(line.presented) is a vblank at \(rate) Hz")
                if let input = line.input {
                    XCTAssertTrue(traceTimes.contains(input), "\(input) is the time of an event in the trace")
                    XCTAssertLessThan(input, line.presented, "input is drawn before it is shown")
                }
            }
            XCTAssertNil(lines.first?.input, "the first frame, drawn at the configure, shows no input")
            XCTAssertEqual(lines.last?.input, 500, "the last frames show the last event")
            XCTAssertEqual((summary["events"] as? [[String: Any]])?.last?["event"] as? String, "unfold.completed")
        }
        // The clock decides when frames show, never what the screen ends up as.
        let finals = try ["60", "120", "90"].map { try Data(contentsOf: folder.appendingPathComponent("out-\($0)/final.png")) }
        XCTAssertEqual(finals[1], finals[0])
        XCTAssertEqual(finals[2], finals[0])
    }

    func testARefreshRateOrRepaintWindowOutOfRangeIsRefusedInOneLine() throws {
        let trace = try write("stroke.jsonl", ExampleTrace.stroke)
        let out = folder.appendingPathComponent("out").path
        for (arguments, option) in [(["--refresh", "500"], "--refresh"), (["--refresh", "29"], "--refresh"), (["--refresh", "0"], "--refresh"),
                                    (["--refresh", "nan"], "--refresh"), (["--refresh", "inf"], "--refresh"), (["--refresh", "fast"], "--refresh"),
                                    (["--repaint-window", "-1"], "--repaint-window"), (["--repaint-window", "16.7"], "--repaint-window"),
                                    (["--refresh", "120", "--repaint-window", "9"], "--repaint-window"),
                                    (["--refresh", "240"], "--repaint-window (7 ms unless given)")] {
            let result = try run(["replay", trace, "--size", "640x400", "--out", out] + arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("folio: "), "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(option), "\(arguments) names \(option): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one line: \(result.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), "\(arguments): nothing written")
        }
        let accepted = try run(["replay", trace, "--size", "640x400", "--refresh", "240", "--repaint-window", "4"])
        XCTAssertEqual(accepted.status, 0, accepted.stderr)
    }
}
