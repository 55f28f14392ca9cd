import Foundation
import XCTest

/// The command-line contract (docs/cli.md): exit 0 on success, otherwise non-zero with one clear
/// line on stderr. These run the built `folio` binary as a person would.
final class CLITests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The `folio` binary SwiftPM built beside this test executable.
    static var folio: URL {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return me.deletingLastPathComponent().appendingPathComponent("folio")
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = Self.folio
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }

    private func write(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    private let stroke = """
    {"t": 0, "kind": "touch.down", "id": 1, "x": 200, "y": 200}
    {"t": 0, "kind": "touch.frame"}
    {"t": 16, "kind": "touch.motion", "id": 1, "x": 260, "y": 230}
    {"t": 16, "kind": "touch.frame"}
    {"t": 33, "kind": "touch.up", "id": 1}
    {"t": 33, "kind": "touch.frame"}
    """

    func testReplayPrintsTheSummary() throws {
        let trace = try write("stroke.jsonl", stroke)
        let result = try run(["replay", trace, "--size", "640x400"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(summary["strokes"] as? Int, 1)
        XCTAssertEqual(summary["sheet"] as? Int, 1)
        XCTAssertEqual((summary["fold"] as? [String: Any])?["state"] as? String, "idle")
        XCTAssertNotNil((summary["frameMs"] as? [String: Any])?["p99"])
        let events = try XCTUnwrap(summary["events"] as? [[String: Any]])
        XCTAssertEqual(events.compactMap { $0["event"] as? String }, ["stroke.began", "stroke.ended"])
    }

    func testAMalformedTraceNamesItsLineAndLeavesTheBookAlone() throws {
        let book = folder.appendingPathComponent("book")
        let good = try write("good.jsonl", stroke)
        XCTAssertEqual(try run(["replay", good, "--size", "640x400", "--book", book.path]).status, 0)
        let saved = try Data(contentsOf: book.appendingPathComponent("book.json"))

        let bad = try write("bad.jsonl", stroke + "\n{\"t\": 40, \"kind\": \"touch.down\", \"id\": 2, \"x\": 1}\n")
        let result = try run(["replay", bad, "--size", "640x400", "--book", book.path])
        XCTAssertNotEqual(result.status, 0)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("line 7"), result.stderr)
        XCTAssertEqual(try Data(contentsOf: book.appendingPathComponent("book.json")), saved)
    }

    func testInfoAndExportReadWhatReplaySaved() throws {
        let book = folder.appendingPathComponent("book").path
        let trace = try write("stroke.jsonl", stroke)
        XCTAssertEqual(try run(["replay", trace, "--size", "640x400", "--book", book]).status, 0)
        XCTAssertEqual(try run(["replay", trace, "--size", "640x400", "--book", book]).status, 0)
        let info = try run(["info", "--book", book])
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertEqual(info.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "{\"sheets\":[{\"strokes\":2}]}")

        let svg = folder.appendingPathComponent("sheet.svg").path
        let export = try run(["export", "--book", book, "--sheet", "1", "--svg", svg])
        XCTAssertEqual(export.status, 0, export.stderr)
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        XCTAssertEqual(text.components(separatedBy: "<path ").count - 1, 2)
        XCTAssertTrue(text.contains("stroke-width=\"6\""))

        let missing = try run(["export", "--book", book, "--sheet", "3", "--svg", svg])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.contains("no sheet 3"), missing.stderr)
    }

    /// A drawing that reaches past the largest bitmap (a book point at 2e4) is exported cut to
    /// 8192 px a side, with a warning, instead of trapping on a 20004×20004 bitmap.
    func testExportSizesItsBitmapWithinTheLimits() throws {
        let book = folder.appendingPathComponent("far")
        try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
        _ = try write("far/book.json", """
            {"currentSheet":0,"format":"folio-sketchbook","sheets":[{"strokes":[{"color":"#0000FF","points":[10,10,20000,300],"width":6}]}],"version":1}
            """)
        let png = folder.appendingPathComponent("far.png").path
        let export = try run(["export", "--book", book.path, "--sheet", "1", "--png", png])
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertTrue(export.stderr.contains("reaches 20004x304 px; the PNG holds its top-left 8192x304"), export.stderr)
        // The PNG's IHDR: width and height, big-endian, at bytes 16 and 20.
        let header = [UInt8](try Data(contentsOf: URL(fileURLWithPath: png)).prefix(24))
        let side = { (at: Int) in header[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        XCTAssertEqual([side(16), side(20)], [8192, 304])
    }

    func testReplayTurnsPagesAndInfoCountsStrokesPerSheet() throws {
        let book = folder.appendingPathComponent("book").path
        // A stroke, Page Down (a turn of 0.4 s), a stroke.
        let trace = try write("sheets.jsonl", stroke + """

        {"t": 500, "kind": "key", "keys": "Next", "state": "pressed"}
        {"t": 510, "kind": "key", "keys": "Next", "state": "released"}
        {"t": 1000, "kind": "touch.down", "id": 1, "x": 300, "y": 100}
        {"t": 1000, "kind": "touch.frame"}
        {"t": 1033, "kind": "touch.up", "id": 1}
        {"t": 1033, "kind": "touch.frame"}
        """)
        let replay = try run(["replay", trace, "--size", "640x400", "--book", book])
        XCTAssertEqual(replay.status, 0, replay.stderr)
        let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(replay.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(summary["sheets"] as? Int, 2)
        XCTAssertEqual(summary["sheet"] as? Int, 2)
        XCTAssertEqual(summary["strokes"] as? Int, 1)

        XCTAssertEqual(try run(["replay", trace, "--size", "640x400", "--book", book]).status, 0)
        let info = try run(["info", "--book", book])
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertEqual(info.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
                       "{\"sheets\":[{\"strokes\":1},{\"strokes\":2},{\"strokes\":1}]}",
                       "the second replay starts on sheet 2, draws there, turns and adds sheet 3")

        let svg = folder.appendingPathComponent("sheet3.svg").path
        let export = try run(["export", "--book", book, "--sheet", "3", "--svg", svg])
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertEqual(try String(contentsOfFile: svg, encoding: .utf8).components(separatedBy: "<path ").count - 1, 1)
    }

    func testADamagedBookIsReportedAndKept() throws {
        let book = folder.appendingPathComponent("book")
        try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
        let file = book.appendingPathComponent("book.json")
        try Data("{\"format\": \"folio-sketchbook\"".utf8).write(to: file)
        let trace = try write("stroke.jsonl", stroke)
        for arguments in [["info", "--book", book.path], ["replay", trace, "--size", "64x64", "--book", book.path]] {
            let result = try run(arguments)
            XCTAssertNotEqual(result.status, 0)
            XCTAssertTrue(result.stderr.contains("damaged"), result.stderr)
            XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "{\"format\": \"folio-sketchbook\"")
        }
    }

    func testBadArgumentsFailClearly() throws {
        for arguments in [["replay", "/nonexistent.jsonl", "--size", "640x400"], ["replay", "x", "--size", "0x400"],
                          ["render", "--size", "axb", "--out", "/tmp/x.png"], ["export", "--book", "/tmp", "--sheet", "1"]] {
            let result = try run(arguments)
            XCTAssertNotEqual(result.status, 0, "\(arguments)")
            XCTAssertTrue(result.stderr.hasPrefix("folio: "), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one line: \(result.stderr)")
        }
    }

    func testNoCompositorNamesWaylandDisplay() throws {
        let result = try run([], environment: ["WAYLAND_DISPLAY": "folio-test-no-such-socket",
                                               "XDG_RUNTIME_DIR": folder.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("WAYLAND_DISPLAY"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
    }
}
