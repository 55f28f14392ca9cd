import Foundation
import XCTest

/// What Folio is given from outside — arguments, the environment's folders, the log level, files
/// that are not regular files, numbers out of range — is used as given or refused in one line.
final class InputCLITests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The test's environment less the variables Folio takes folders, the log level and the
    /// display from, plus `extra` (as bytes), and no compositor: an app that got as far as the
    /// display stops there.
    private func environment(_ extra: [String: [UInt8]]) -> [[UInt8]] {
        let replaced: Set = ["HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_PICTURES_DIR", "FOLIO_LOG", "WAYLAND_DISPLAY",
                             "WAYLAND_SOCKET", "XDG_RUNTIME_DIR"]
        var all = ProcessInfo.processInfo.environment.filter { !replaced.contains($0.key) }.map { Array("\($0.key)=\($0.value)".utf8) }
        all.append(Array("WAYLAND_DISPLAY=folio-test-no-such-socket".utf8))
        all.append(Array("XDG_RUNTIME_DIR=\(folder.path)".utf8))
        for (name, value) in extra { all.append(Array("\(name)=".utf8) + value) }
        return all
    }

    private func run(_ arguments: [String], _ extra: [String: String] = [:], in cwd: URL? = nil) throws -> CLITests.Result {
        try runFolio(arguments.map { Array($0.utf8) }, environment: environment(extra.mapValues { Array($0.utf8) }), in: cwd ?? folder)
    }

    private func write(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    private func assertOneLine(_ result: CLITests.Result, status: Int32, saying fragment: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, status, result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.hasPrefix("folio: "), result.stderr, file: file, line: line)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one line: \(result.stderr)", file: file, line: line)
        XCTAssertTrue(result.stderr.contains(fragment), "\(result.stderr) should say \(fragment)", file: file, line: line)
    }

    private let frame = "{\"t\": 0, \"kind\": \"touch.frame\"}"

    /// A path argument with a byte that is not UTF-8 would be read with U+FFFD in its place:
    /// another file. Refused, naming the argument and its bytes.
    func testAnArgumentThatIsNotUTF8IsRefused() throws {
        // The file the replaced name would reach: it must not be read.
        _ = try write("caf\u{FFFD}.jsonl", frame + "\n")
        let path = Array(folder.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".jsonl".utf8)
        let result = try runFolio([Array("replay".utf8), path, Array("--size".utf8), Array("100x100".utf8)],
                                  environment: environment([:]), in: folder)
        assertOneLine(result, status: 64, saying: "argument 2 (\(folder.path)/caf\\xE9.jsonl) is not UTF-8 text")
        XCTAssertEqual(result.stdout, "")
    }

    /// HOME whose bytes are not UTF-8 would put the book in another folder: refused by name.
    func testAHomeThatIsNotUTF8IsRefused() throws {
        let home = folder.appendingPathComponent("h\u{FFFD}")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let bytes = Array(folder.path.utf8) + Array("/h".utf8) + [0xE9]
        let result = try runFolio([], environment: environment(["HOME": bytes]), in: folder)
        assertOneLine(result, status: 1, saying: "HOME is not UTF-8 text")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home.path), [], "nothing made in the other folder")
    }

    /// An empty HOME meant a book under the current folder; a missing one, its folders made.
    /// Both are refused before anything is written; a relative XDG_DATA_HOME is ignored.
    func testTheDefaultBookNeedsAnAbsoluteHomeThatExists() throws {
        let work = folder.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        assertOneLine(try run([], ["HOME": ""], in: work), status: 1, saying: "HOME is empty, so there is no shelf of books; give --book DIR")
        assertOneLine(try run([], ["HOME": "home"], in: work), status: 1, saying: "HOME (home) is not an absolute path")
        let missing = folder.appendingPathComponent("nonexistent")
        assertOneLine(try run([], ["HOME": missing.path], in: work), status: 1,
                      saying: "HOME (\(missing.path)) is not a folder that exists")
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing.path), "no folders made above the home")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: work.path), [], "nothing in the current folder")

        // A home that exists: the shelf of books goes under it (and the app then stops for want of a display).
        let home = folder.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let result = try run([], ["HOME": home.path, "XDG_DATA_HOME": "data"], in: work)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("WAYLAND_DISPLAY"), result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.appendingPathComponent(".local/share/folio/books/.shelf.lock").path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: work.path), [], "a relative XDG_DATA_HOME is ignored")
    }

    /// `--book ''` would be the current folder; a book folder that does not exist is no empty
    /// book to read.
    func testAnEmptyOrMissingBookFolderIsRefused() throws {
        let png = folder.appendingPathComponent("out.png").path
        for arguments in [["info", "--book", ""], ["export", "--book", "", "--sheet", "1", "--png", png], ["--book", ""],
                          ["replay", try write("t.jsonl", frame), "--size", "100x100", "--book", ""]] {
            assertOneLine(try run(arguments), status: 64, saying: "--book is empty; give the sketchbook folder")
        }
        let missing = folder.appendingPathComponent("no/such/dir").path
        for arguments in [["info", "--book", missing], ["export", "--book", missing, "--sheet", "1", "--png", png],
                          ["export", "--book", missing, "--pdf", png], ["render", "--size", "100x100", "--book", missing, "--out", png]] {
            assertOneLine(try run(arguments), status: 1, saying: "\(missing): no such book folder")
        }
        let file = try write("file", "")
        assertOneLine(try run(["info", "--book", file]), status: 1, saying: "\(file) is not a folder")
        XCTAssertFalse(FileManager.default.fileExists(atPath: png), "nothing exported")
    }

    /// Help and version always answer; a bad FOLIO_LOG is one warning line and the default level,
    /// a bad --log-level still a malformed command line.
    func testABadLogLevelNeverStopsHelpOrVersion() throws {
        for arguments in [["--version"], ["--help"], ["help", "render"], ["render", "--help"]] {
            let result = try run(arguments, ["FOLIO_LOG": "bogus"])
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stdout.isEmpty, "\(arguments)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        }
        XCTAssertEqual(try run(["--version"], ["FOLIO_LOG": "bogus"]).stdout, "0.1.0\n")
        for arguments in [["--version", "--log-level", "loud"], ["--log-level=loud", "--help"]] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stdout.isEmpty, "\(arguments)")
        }
        let book = folder.appendingPathComponent("book")
        try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
        let info = try run(["info", "--book", book.path], ["FOLIO_LOG": "bogus"])
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertEqual(info.stderr, "folio: FOLIO_LOG: \"bogus\" is not a log level; use one of trace, debug, info, notice, warning, "
                       + "error, critical; showing warning and worse\n")
        assertOneLine(try run(["info", "--book", book.path, "--log-level", "loud"]), status: 64, saying: "\"loud\" is not a log level")
    }

    /// A FIFO (or /dev/stdin) or a folder as the trace or the config: refused by its kind, never
    /// opened to wait for a writer. The FIFO here has none.
    func testAFIFOOrAFolderAsTraceOrConfigIsNamedForWhatItIs() throws {
        let fifo = folder.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let directory = folder.appendingPathComponent("dir")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let png = folder.appendingPathComponent("out.png").path
        assertOneLine(try run(["replay", fifo, "--size", "100x100"]), status: 1, saying: "\(fifo) is a FIFO, not a regular file")
        assertOneLine(try run(["render", "--size", "100x100", "--trace", fifo, "--out", png]), status: 1,
                      saying: "\(fifo) is a FIFO, not a regular file")
        assertOneLine(try run(["replay", directory.path, "--size", "100x100"]), status: 1, saying: "\(directory.path) is a folder, not a file")
        let trace = try write("t.jsonl", frame)
        let fromFIFO = try run(["replay", trace, "--size", "100x100", "--config", fifo])
        XCTAssertEqual(fromFIFO.status, 0, fromFIFO.stderr)
        XCTAssertEqual(fromFIFO.stderr, "folio: \(fifo) is a FIFO, not a regular file; using the default settings\n")
        let fromFolder = try run(["replay", trace, "--size", "100x100", "--config", directory.path])
        XCTAssertEqual(fromFolder.stderr, "folio: \(directory.path) is a folder, not a file; using the default settings\n")
    }

    /// A negative size was read as an unknown option ("Missing value"); every size out of range
    /// says which side and the range, and negative numbers reach their own checks.
    func testSizesAndNumbersOutOfRangeSaySo() throws {
        let png = folder.appendingPathComponent("out.png").path
        assertOneLine(try run(["render", "--size", "-5x10", "--out", png]), status: 64,
                      saying: "the width -5 is out of range (each side is an integer from 2 to 8192)")
        assertOneLine(try run(["controls", "--size", "640x9000"]), status: 64,
                      saying: "the height 9000 is out of range (each side is an integer from 2 to 8192)")
        assertOneLine(try run(["render", "--size", "big", "--out", png]), status: 64, saying: "a size is WxH, such as 1280x800")
        let trace = try write("t.jsonl", frame)
        assertOneLine(try run(["replay", trace, "--size", "100x100", "--at", "-1"]), status: 64, saying: "--at must be a time in ms, 0 or more")
        assertOneLine(try run(["render", "--size", "100x100", "--flip", "-0.5", "--out", png]), status: 64, saying: "--flip takes a progress from 0 to 1")
        assertOneLine(try run(["replay", trace, "--size", "100x100", "--scale", "-2"]), status: 64, saying: "--scale must be a number from 1 to 8")
        assertOneLine(try run(["bench", "--threads", "-1"]), status: 64, saying: "--threads -1 is outside 1…16")
        assertOneLine(try run(["bench", "--size", "800x600"]), status: 64,
                      saying: "--size 800x600 is not measured: the sizes are 1280x800, 1920x1200, 2560x1600")
        XCTAssertFalse(FileManager.default.fileExists(atPath: png))
    }

    /// CRLF and CR line ends read as LF; `1e999` names its field and line.
    func testTracesWithCRLFAndHugeNumbers() throws {
        let stroke = """
        {"t": 0, "kind": "touch.down", "id": 1, "x": 100, "y": 100}
        {"t": 16, "kind": "touch.motion", "id": 1, "x": 200, "y": 150}
        {"t": 32, "kind": "touch.up", "id": 1}
        """
        for end in ["\r\n", "\r"] {
            let trace = try write("t.jsonl", stroke.replacingOccurrences(of: "\n", with: end) + end)
            let result = try run(["replay", trace, "--size", "400x300"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stdout.contains("\"strokes\":1"), result.stdout)
            let bad = try write("bad.jsonl", [frame, frame, "{\"t\": 1e999, \"kind\": \"touch.frame\"}"].joined(separator: end))
            assertOneLine(try run(["replay", bad, "--size", "100x100"]), status: 1,
                          saying: "\(bad): trace line 3: \"t\" is out of range: the number is too large for a 64-bit float")
        }
    }

    /// A config.toml with a NUL was read up to it, and the toolbar's choice then written back
    /// without the rest. It is invalid TOML: one line with its line number, and never written.
    func testAConfigWithANulIsReportedAndNeverWritten() throws {
        let config = folder.appendingPathComponent("config.toml").path
        let text = "[ink]\ncolor = \"#0000FF\"\n\u{0}\n[gestures]\npinch = false\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: config))
        let layout = try JSONSerialization.jsonObject(with: Data(try run(["controls", "--size", "1280x800"]).stdout.utf8)) as? [String: Any]
        let handle = layout?["handle"] as? [Double] ?? []
        let red = ((layout?["controls"] as? [[String: Any]])?.first { $0["name"] as? String == "color.3" }?["rect"] as? [Double]) ?? []
        XCTAssertEqual(handle.count, 4)
        XCTAssertEqual(red.count, 4)
        func tap(_ x: Double, _ y: Double, at t: Int, id: Int) -> String {
            """
            {"t": \(t), "kind": "touch.down", "id": \(id), "x": \(x), "y": \(y)}
            {"t": \(t + 50), "kind": "touch.up", "id": \(id)}
            """
        }
        let trace = try write("taps.jsonl", tap(handle[0] + 40, handle[1] + 24, at: 0, id: 1) + "\n" + tap(red[0] + 24, red[1] + 24, at: 300, id: 2))
        let result = try run(["replay", trace, "--size", "1280x800", "--config", config])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("\"color\":\"#D81B1B\""), "the tap chose red: \(result.stdout)")
        XCTAssertEqual(result.stderr.split(separator: "\n").first.map(String.init),
                       "folio: \(config):3: invalid TOML: a NUL character, which TOML does not allow; using the default settings")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: config)), Data(text.utf8), "left as its owner wrote it")
    }
}
