import FolioSketchbook
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

    /// `--log-level` (anywhere on the line) and `FOLIO_LOG` choose what the log shows; an unknown
    /// level is a malformed command line that names the accepted ones.
    func testLogLevelFromTheOptionOrTheEnvironment() throws {
        let book = folder.appendingPathComponent("far")
        try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
        _ = try write("far/book.json", """
            {"currentSheet":0,"format":"folio-sketchbook","sheets":[{"strokes":[{"color":"#0000FF","points":[10,10,20000,300],"width":6}]}],"version":1}
            """)
        let png = folder.appendingPathComponent("far.png").path
        let export = ["export", "--book", book.path, "--sheet", "1", "--png", png]
        XCTAssertTrue(try run(export).stderr.hasPrefix("folio: the drawing reaches"), "warnings show by default")
        let quiet = try run(export + ["--log-level", "error"])
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertEqual(quiet.stderr, "", "--log-level error hides warnings")
        XCTAssertEqual(try run(["--log-level=critical"] + export).stderr, "")
        XCTAssertEqual(try run(export, environment: ["FOLIO_LOG": "error"]).stderr, "")
        XCTAssertFalse(try run(export + ["--log-level", "info"], environment: ["FOLIO_LOG": "error"]).stderr.isEmpty,
                       "the option wins over FOLIO_LOG")

        for (arguments, environment) in [(["info", "--book", book.path, "--log-level", "loud"], [:]), (["info", "--book", book.path], ["FOLIO_LOG": "loud"])] {
            let bad = try run(arguments, environment: environment)
            XCTAssertEqual(bad.status, 64, bad.stderr)
            XCTAssertTrue(bad.stderr.hasPrefix("folio: "), bad.stderr)
            XCTAssertTrue(bad.stderr.contains("\"loud\" is not a log level; use one of trace, debug, info, notice, warning, error, critical"),
                          bad.stderr)
        }
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

    private func mode(_ path: String) throws -> Int {
        Int(try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int))
    }

    func testReplayMakesAPrivateBookUnderAnyUmask() throws {
        let trace = try write("stroke.jsonl", stroke)
        for mask: mode_t in [0o022, 0o077] {
            let book = folder.appendingPathComponent("book-\(mask)")
            let previous = umask(mask)  // inherited by the folio process
            defer { umask(previous) }
            for _ in 0..<2 {
                XCTAssertEqual(try run(["replay", trace, "--size", "640x400", "--book", book.path]).status, 0)
                XCTAssertEqual(try mode(book.path), 0o700, "umask \(String(mask, radix: 8))")
                XCTAssertEqual(try mode(book.appendingPathComponent("book.json").path), 0o600)
            }
        }
    }

    func testASecondWriterIsRefusedAndReadersStillRead() throws {
        let book = folder.appendingPathComponent("book")
        let trace = try write("stroke.jsonl", stroke)
        XCTAssertEqual(try run(["replay", trace, "--size", "640x400", "--book", book.path]).status, 0)
        let file = book.appendingPathComponent("book.json")
        let saved = try Data(contentsOf: file)

        // This test process is the first writer: it holds the lock as the app would.
        var holder: BookWriter? = try BookStore(directory: book).openForWriting()
        let second = try run(["replay", trace, "--size", "640x400", "--book", book.path])
        XCTAssertNotEqual(second.status, 0)
        XCTAssertEqual(second.stderr, "folio: \(book.path) is in use by another Folio (pid \(getpid()))\n")
        XCTAssertEqual(try Data(contentsOf: file), saved, "the refused writer left the book as it was")
        let info = try run(["info", "--book", book.path])
        XCTAssertEqual(info.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "{\"sheets\":[{\"strokes\":1}]}", info.stderr)
        let svg = folder.appendingPathComponent("sheet.svg").path
        XCTAssertEqual(try run(["export", "--book", book.path, "--sheet", "1", "--svg", svg]).status, 0, "export only reads")
        XCTAssertNotNil(holder)

        holder = nil
        XCTAssertEqual(try run(["replay", trace, "--size", "640x400", "--book", book.path]).status, 0)
        let after = try run(["info", "--book", book.path])
        XCTAssertEqual(after.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "{\"sheets\":[{\"strokes\":2}]}")
    }

    func testLinksInTheBookAreRefusedInOneLine() throws {
        let trace = try write("stroke.jsonl", stroke)
        let victim = try write("victim.json", "precious")
        for destination in [victim, folder.appendingPathComponent("missing.json").path] {
            let book = folder.appendingPathComponent("book-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
            let file = book.appendingPathComponent("book.json").path
            try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: destination)
            for arguments in [["info", "--book", book.path], ["replay", trace, "--size", "64x64", "--book", book.path]] {
                let result = try run(arguments)
                XCTAssertNotEqual(result.status, 0)
                XCTAssertEqual(result.stderr, "folio: \(file) is a symbolic link, which Folio neither follows nor replaces\n")
            }
            XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: file), destination)
        }
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("missing.json").path))
    }

    func testAnUnfinishedSaveIsCleanedUpAtTheNextOpen() throws {
        let book = folder.appendingPathComponent("book")
        let trace = try write("stroke.jsonl", stroke)
        XCTAssertEqual(try run(["replay", trace, "--size", "640x400", "--book", book.path]).status, 0)
        // What kill -9 in the middle of a save leaves.
        let orphan = book.appendingPathComponent(".book.json.00ff00ff00ff00ff.tmp").path
        try Data(repeating: 0x20, count: 65536).write(to: URL(fileURLWithPath: orphan))
        XCTAssertEqual(try run(["info", "--book", book.path]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: orphan), "reading writes nothing")
        XCTAssertEqual(try run(["replay", trace, "--size", "640x400", "--book", book.path]).status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: book.path).sorted(), [".folio.lock", "book.json"])
    }

    func testAFailedExportKeepsTheExistingFile() throws {
        // ThreadSanitizer's runtime itself faults (SIGBUS at start-up) under a file-size limit.
        if ProcessInfo.processInfo.environment["FOLIO_SANITIZER"] == "thread" {
            throw XCTSkip("SKIPPED under ThreadSanitizer: its runtime cannot start with RLIMIT_FSIZE set (`make test` runs this)")
        }
        let book = folder.appendingPathComponent("book").path
        let trace = try write("stroke.jsonl", stroke)
        XCTAssertEqual(try run(["replay", trace, "--size", "640x400", "--book", book]).status, 0)
        let target = try write("sheet.png", "the previous export")
        // A file-size limit, inherited by folio, makes the write fail part-way (a full disk).
        signal(SIGXFSZ, SIG_IGN)
        var saved = rlimit()
        getrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
        var small = saved
        small.rlim_cur = 512
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &small)
        let result = try run(["export", "--book", book, "--sheet", "1", "--png", target, "--size", "3000x3000"])
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.hasPrefix("folio: \(target): cannot write (nothing was replaced)"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "the previous export")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(),
                       ["book", "sheet.png", "stroke.jsonl"], "no temporary file is left beside it")
    }

    func testExportingIntoTheBookIsRefused() throws {
        let book = folder.appendingPathComponent("book")
        let trace = try write("stroke.jsonl", stroke)
        XCTAssertEqual(try run(["replay", trace, "--size", "640x400", "--book", book.path]).status, 0)
        let file = book.appendingPathComponent("book.json").path
        let saved = try Data(contentsOf: URL(fileURLWithPath: file))
        for arguments in [["--png", file], ["--svg", book.appendingPathComponent("sheet.svg").path]] {
            let result = try run(["export", "--book", book.path, "--sheet", "1"] + arguments)
            XCTAssertNotEqual(result.status, 0)
            XCTAssertEqual(result.stderr, "folio: \(arguments[1]) is inside the book folder \(book.path); export somewhere else\n")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), saved)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: book.path).sorted(), [".folio.lock", "book.json"])
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
