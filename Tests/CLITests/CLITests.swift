import FolioPixels
import FolioRender
import FolioSketchbook
import FolioTestSupport
import Foundation
import XCTest

/// The command-line contract (docs/cli.md): exit 0 on success, otherwise non-zero with one clear
/// line on stderr. These run the built `folio` binary as a person would.
final class CLITests: XCTestCase {
    var folder: URL!

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
        return try collect(process)
    }

    /// Runs `process` to its end with its output and errors collected.
    func collect(_ process: Process) throws -> Result {
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Both pipes at once: a child that fills stderr (a sanitizer's report) while the test
        // still waits for stdout's end would otherwise wait for ever.
        let errors = PipeReader.start(err.fileHandleForReading)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }

    func write(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    private let stroke = ExampleTrace.stroke

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
        let saved = try Data(contentsOf: book.appendingPathComponent("book.folio"))

        let bad = try write("bad.jsonl", stroke + "\n{\"t\": 40, \"kind\": \"touch.down\", \"id\": 2, \"x\": 1}\n")
        let result = try run(["replay", bad, "--size", "640x400", "--book", book.path])
        XCTAssertNotEqual(result.status, 0)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("line 7"), result.stderr)
        XCTAssertEqual(try Data(contentsOf: book.appendingPathComponent("book.folio")), saved)
    }

    func testInfoAndExportReadWhatReplaySaved() throws {
        let book = folder.appendingPathComponent("book").path
        let trace = try write("stroke.jsonl", stroke)
        XCTAssertEqual(try run(["replay", trace, "--size", "640x400", "--book", book]).status, 0)
        XCTAssertEqual(try run(["replay", trace, "--size", "640x400", "--book", book]).status, 0)
        let info = try run(["info", "--book", book])
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertEqual(info.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "{\"sheets\":[{\"strokes\":2,\"paper\":\"plain\"}]}")

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
    /// level names the accepted ones: from the option a malformed command line, from FOLIO_LOG a
    /// warning (the default level is used).
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

        for (arguments, environment, status) in [(["info", "--book", book.path, "--log-level", "loud"], [:], 64),
                                                  (["info", "--book", book.path], ["FOLIO_LOG": "loud"], 0)] {
            let bad = try run(arguments, environment: environment)
            XCTAssertEqual(bad.status, Int32(status), bad.stderr)
            XCTAssertTrue(bad.stderr.hasPrefix("folio: "), bad.stderr)
            XCTAssertEqual(bad.stderr.split(separator: "\n").count, 1, bad.stderr)
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
                       "{\"sheets\":[{\"strokes\":1,\"paper\":\"plain\"},{\"strokes\":2,\"paper\":\"plain\"},{\"strokes\":1,\"paper\":\"plain\"}]}",
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
                XCTAssertEqual(try mode(book.appendingPathComponent("book.folio").path), 0o600)
            }
        }
    }

    func testASecondWriterIsRefusedAndReadersStillRead() throws {
        let book = folder.appendingPathComponent("book")
        let trace = try write("stroke.jsonl", stroke)
        XCTAssertEqual(try run(["replay", trace, "--size", "640x400", "--book", book.path]).status, 0)
        let file = book.appendingPathComponent("book.folio")
        let saved = try Data(contentsOf: file)

        // This test process is the first writer: it holds the lock as the app would.
        var holder: BookWriter? = try BookStore(directory: book).openForWriting()
        let second = try run(["replay", trace, "--size", "640x400", "--book", book.path])
        XCTAssertNotEqual(second.status, 0)
        XCTAssertEqual(second.stderr, "folio: \(book.path) is in use by another Folio (pid \(getpid()))\n")
        XCTAssertEqual(try Data(contentsOf: file), saved, "the refused writer left the book as it was")
        let info = try run(["info", "--book", book.path])
        XCTAssertEqual(info.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "{\"sheets\":[{\"strokes\":1,\"paper\":\"plain\"}]}", info.stderr)
        let svg = folder.appendingPathComponent("sheet.svg").path
        XCTAssertEqual(try run(["export", "--book", book.path, "--sheet", "1", "--svg", svg]).status, 0, "export only reads")
        XCTAssertNotNil(holder)

        holder = nil
        XCTAssertEqual(try run(["replay", trace, "--size", "640x400", "--book", book.path]).status, 0)
        let after = try run(["info", "--book", book.path])
        XCTAssertEqual(after.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "{\"sheets\":[{\"strokes\":2,\"paper\":\"plain\"}]}")
    }

    func testLinksInTheBookAreRefusedInOneLine() throws {
        let trace = try write("stroke.jsonl", stroke)
        let victim = try write("victim.json", "precious")
        let destinations = [victim, folder.appendingPathComponent("missing.json").path]
        for (name, destination) in ["book.folio", "book.json"].flatMap({ name in destinations.map { (name, $0) } }) {
            let book = folder.appendingPathComponent("book-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
            let file = book.appendingPathComponent(name).path
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
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: book.path).sorted(), [".folio.lock", "book.folio"])
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
        let file = book.appendingPathComponent("book.folio").path
        let saved = try Data(contentsOf: URL(fileURLWithPath: file))
        for arguments in [["--png", file], ["--svg", book.appendingPathComponent("sheet.svg").path]] {
            let result = try run(["export", "--book", book.path, "--sheet", "1"] + arguments)
            XCTAssertNotEqual(result.status, 0)
            XCTAssertEqual(result.stderr, "folio: \(arguments[1]) is inside the book folder \(book.path); export somewhere else\n")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), saved)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: book.path).sorted(), [".folio.lock", "book.folio"])
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

    /// The width and height in a PNG file's header.
    private func pngSize(_ path: String) throws -> [Int] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertGreaterThanOrEqual(bytes.count, 24)
        func int(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return [int(16), int(20)]
    }

    /// `--scale` takes fractions (1–8, at the nearest 1/120): frames are the logical size times
    /// the scale, rounded as wp_fractional_scale_v1 rounds; anything else is one clear line.
    func testReplayAndRenderTakeFractionalScales() throws {
        let trace = try write("stroke.jsonl", stroke)
        let out = folder.appendingPathComponent("replay").path
        let replayed = try run(["replay", trace, "--size", "640x400", "--scale", "1.5", "--out", out])
        XCTAssertEqual(replayed.status, 0, replayed.stderr)
        XCTAssertEqual(try pngSize("\(out)/final.png"), [960, 600])
        let folded = folder.appendingPathComponent("fold.png").path
        let rendered = try run(["render", "--size", "641x401", "--scale", "1.25", "--fold", "0.75", "--trace", trace, "--out", folded])
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        XCTAssertEqual(try pngSize(folded), [801, 501])  // 801.25 and 501.25, rounded
        for arguments in [["replay", trace, "--size", "640x400", "--scale", "0.5"], ["replay", trace, "--size", "640x400", "--scale", "8.5"],
                          ["render", "--size", "640x400", "--scale", "one", "--out", folded],
                          ["render", "--size", "6000x400", "--scale", "1.5", "--out", folded]] {
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

    /// A trace of `strokes` strokes of `points` points each, 16 ms apart.
    private func longTrace(strokes: Int, points: Int) -> String {
        var lines: [String] = []
        var t = 0
        for index in 0..<strokes {
            let y = 20 + (index * 7) % 300
            lines.append(#"{"t": \#(t), "kind": "touch.down", "id": 1, "x": 40, "y": \#(y)}"#)
            lines.append(#"{"t": \#(t), "kind": "touch.frame"}"#)
            for step in 1..<points {
                t += 16
                lines.append(#"{"t": \#(t), "kind": "touch.motion", "id": 1, "x": \#(40 + step * 2), "y": \#(y + step % 5)}"#)
                lines.append(#"{"t": \#(t), "kind": "touch.frame"}"#)
            }
            t += 16
            lines.append(#"{"t": \#(t), "kind": "touch.up", "id": 1}"#)
            lines.append(#"{"t": \#(t), "kind": "touch.frame"}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// kill -9 at random moments of runs that each add strokes and save (appends, the first
    /// snapshot, compactions): every book left behind opens, holds every save that finished and
    /// never less, and the next writer leaves no temporary file behind.
    func testKillNineAtRandomMomentsLosesNothingSaved() throws {
        let book = folder.appendingPathComponent("book")
        let trace = try write("strokes.jsonl", longTrace(strokes: 40, points: 60))
        let arguments = ["replay", trace, "--size", "400x340", "--book", book.path]
        // How long one whole run takes here: kills land in its later part, where it loads and saves.
        let started = Date()
        XCTAssertEqual(try run(arguments).status, 0)
        let runTime = Date().timeIntervalSince(started)
        var saved = 40
        var random = SystemRandomNumberGenerator()
        var killedInsideASave = 0, killedInsideASnapshot = 0
        let kills = TestBudget.rounds(30, sanitized: 6)
        for round in 0..<kills {
            let process = Process()
            process.executableURL = Self.folio
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(Double.random(in: 0.6...1.02, using: &random) * runTime * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let left = try FileManager.default.contentsOfDirectory(atPath: book.path)
            if left.contains(where: { $0.hasSuffix(".tmp") }) { killedInsideASnapshot += 1 }
            let info = try run(["info", "--book", book.path])
            XCTAssertEqual(info.status, 0, "round \(round): \(info.stderr)")
            if info.stderr.contains("cut short") { killedInsideASave += 1 }
            let strokes = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: [[String: Any]]])["sheets"]?
                .compactMap { $0["strokes"] as? Int }.reduce(0, +)
            let finished = process.terminationReason == .exit
            XCTAssertTrue(strokes == saved || strokes == saved + 40, "round \(round): \(strokes ?? -1) strokes after \(saved) (finished: \(finished))")
            saved = strokes ?? saved
        }
        XCTAssertEqual(try run(arguments).status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: book.path).sorted(), [".folio.lock", "book.folio"],
                       "the next writer removed what the kills left")
        let info = try run(["info", "--book", book.path])
        XCTAssertTrue(info.stdout.contains("\(saved + 40)"), info.stdout)
        print("kill -9 loop: one run \(Int(runTime * 1000)) ms; of \(kills) kills, \(killedInsideASave) cut an append short "
              + "and \(killedInsideASnapshot) left a snapshot's temporary file")
    }

    /// A poppler tool for reading PDFs back: missing fails under CI, and skips loudly elsewhere.
    func poppler(_ tool: String) throws -> String {
        for folder in ["/usr/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: "\(folder)/\(tool)") {
            return "\(folder)/\(tool)"
        }
        let reason = "\(tool) (Debian package poppler-utils, installed by make test) is not installed"
        if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail(reason) }
        print("SKIPPED: \(reason)")
        throw XCTSkip(reason)
    }

    func runTool(_ path: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(path) \(arguments)")
        return String(decoding: data, as: UTF8.self)
    }

    /// The whole book as a PDF: a page per sheet, vector paths (no images), and a page rendered by
    /// poppler has ink where the PNG export of that sheet has it, and paper where it has paper.
    func testThePDFHasAVectorPagePerSheetWithTheInkOfThePNGExport() throws {
        let pdfinfo = try poppler("pdfinfo"), pdftoppm = try poppler("pdftoppm"), pdfimages = try poppler("pdfimages")
        let book = folder.appendingPathComponent("book").path
        let trace = try write("sheets.jsonl", stroke + """

        {"t": 500, "kind": "key", "keys": "Next", "state": "pressed"}
        {"t": 510, "kind": "key", "keys": "Next", "state": "released"}
        {"t": 1000, "kind": "touch.down", "id": 1, "x": 300, "y": 100}
        {"t": 1000, "kind": "touch.frame"}
        {"t": 1016, "kind": "touch.motion", "id": 1, "x": 420, "y": 330}
        {"t": 1016, "kind": "touch.frame"}
        {"t": 1033, "kind": "touch.motion", "id": 1, "x": 100, "y": 300}
        {"t": 1033, "kind": "touch.frame"}
        {"t": 1050, "kind": "touch.up", "id": 1}
        {"t": 1050, "kind": "touch.frame"}
        {"t": 1100, "kind": "key", "keys": "Next", "state": "pressed"}
        {"t": 1110, "kind": "key", "keys": "Next", "state": "released"}
        {"t": 1600, "kind": "touch.down", "id": 1, "x": 50, "y": 50}
        {"t": 1600, "kind": "touch.frame"}
        {"t": 1633, "kind": "touch.up", "id": 1}
        {"t": 1633, "kind": "touch.frame"}
        """)
        XCTAssertEqual(try run(["replay", trace, "--size", "640x400", "--book", book]).status, 0)
        let pdf = folder.appendingPathComponent("book.pdf").path
        let export = try run(["export", "--book", book, "--pdf", pdf, "--size", "640x400"])
        XCTAssertEqual(export.status, 0, export.stderr)
        let info = try runTool(pdfinfo, [pdf])
        XCTAssertTrue(info.contains("Pages:           3"), info)
        XCTAssertTrue(info.contains("Page size:       480 x 300 pts"), info)
        let images = try runTool(pdfimages, ["-list", pdf]).split(separator: "\n")
        XCTAssertEqual(images.count, 2, "only pdfimages' two header lines, no image: \(images)")

        for sheet in 1...3 {
            let png = folder.appendingPathComponent("sheet\(sheet).png").path
            XCTAssertEqual(try run(["export", "--book", book, "--sheet", "\(sheet)", "--png", png, "--size", "640x400"]).status, 0)
            let prefix = folder.appendingPathComponent("page").path
            _ = try runTool(pdftoppm, ["-r", "96", "-png", "-f", "\(sheet)", "-l", "\(sheet)", "-singlefile", pdf, prefix])
            let page = try PNG.read(from: prefix + ".png"), expected = try PNG.read(from: png)
            XCTAssertEqual([page.width, page.height], [640, 400])
            // Away from the edges of strokes (where antialiasing may differ), ink and paper agree.
            func red(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> Int { Int((bitmap.pixel(x: x, y: y) >> 16) & 0xFF) }
            var inked = 0, mismatches: [String] = []
            for y in 1..<399 {
                for x in 1..<639 {
                    let around = (-1...1).flatMap { dy in (-1...1).map { dx in red(expected, x + dx, y + dy) } }
                    if around.allSatisfy({ $0 < 40 }) {
                        inked += 1
                        if red(page, x, y) > 120 { mismatches.append("(\(x), \(y)) paper in the PDF") }
                    } else if around.allSatisfy({ $0 > 250 }), red(page, x, y) < 200 {
                        mismatches.append("(\(x), \(y)) ink in the PDF")
                    }
                }
            }
            XCTAssertGreaterThan(inked, 2, "sheet \(sheet) has ink (sheet 3 is a tap: a dot)")
            XCTAssertEqual(mismatches.count, 0, "sheet \(sheet): \(mismatches.prefix(5))")
        }
        let refused = try run(["export", "--book", book, "--pdf", pdf, "--sheet", "1"])
        XCTAssertEqual(refused.status, 64, refused.stderr)
    }
}

/// Reads a pipe to its end on a thread of its own; `wait()` returns what it read.
final class PipeReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written once before `done` is signalled, read only after waiting for it.
    private var data = Data()

    static func start(_ handle: FileHandle) -> PipeReader {
        let reader = PipeReader()
        Thread {
            reader.data = handle.readDataToEndOfFile()
            reader.done.signal()
        }.start()
        return reader
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
