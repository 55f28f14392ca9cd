import FolioTestSupport
import Foundation
import XCTest

/// `render --out`, `replay --out DIR` and `export`: every file goes through the one writer, so a
/// failed or refused write leaves what was there exactly as it was (docs/cli.md).
extension CLITests {
    /// `folio arguments` with its file-size limit set to `blocks` × 512 bytes by a shell that then
    /// becomes folio, with SIGXFSZ as a person's shell leaves it (default: the process dies).
    private func runWithFileSizeLimit(_ blocks: Int, _ arguments: [String]) throws -> (Result, Process.TerminationReason) {
        let previous = signal(SIGXFSZ, SIG_DFL)
        defer { signal(SIGXFSZ, previous) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -f \(blocks) && exec \"$0\" \"$@\"", Self.folio.path] + arguments
        let result = try collect(process)
        return (result, process.terminationReason)
    }

    private func names(in path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    /// A file-size limit is a full disk: one line with the system's words and status 1 (not death
    /// by SIGXFSZ, 153), the good file that was there kept byte for byte, no temporary left.
    func testAFileSizeLimitFailsEveryOutputCleanly() throws {
        if ProcessInfo.processInfo.environment["FOLIO_SANITIZER"] == "thread" {
            throw XCTSkip("SKIPPED under ThreadSanitizer: its runtime cannot start with RLIMIT_FSIZE set (`make test` runs this)")
        }
        let trace = try write("stroke.jsonl", ExampleTrace.stroke)
        let book = folder.appendingPathComponent("book").path
        XCTAssertEqual(try run(["replay", trace, "--size", "640x400", "--book", book]).status, 0)
        let outputs = folder.appendingPathComponent("out").path
        try FileManager.default.createDirectory(atPath: outputs, withIntermediateDirectories: false)
        let good = Data("a good file, kept whole".utf8)
        let render = outputs + "/render.png", final = outputs + "/final.png", export = outputs + "/sheet.png"
        for path in [render, final, export] { try good.write(to: URL(fileURLWithPath: path)) }
        let cases: [(arguments: [String], target: String)] = [
            (["render", "--size", "300x200", "--trace", trace, "--out", render], render),
            (["replay", trace, "--size", "300x200", "--out", outputs], final),
            (["export", "--book", book, "--sheet", "1", "--png", export, "--size", "300x200"], export),
        ]
        for (arguments, target) in cases {
            let (result, reason) = try runWithFileSizeLimit(1, arguments)
            XCTAssertEqual(reason, .exit, "\(arguments[0]) was killed by signal \(result.status)")
            XCTAssertEqual(result.status, 1, "\(arguments[0]): \(result.stderr)")
            XCTAssertEqual(result.stderr, "folio: \(target): cannot write (nothing was replaced): write: File too large\n")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: target)), good, "\(arguments[0])")
            XCTAssertEqual(try names(in: outputs), ["final.png", "render.png", "sheet.png"], "\(arguments[0]) left a temporary")
        }
        XCTAssertEqual(try names(in: book), [".folio.lock", "book.folio"])

        // A book saved as the app saves it, already past the limit: the save fails, the book is as it was.
        var long = [#"{"t": 0, "kind": "touch.down", "id": 1, "x": 100, "y": 200}"#, #"{"t": 0, "kind": "touch.frame"}"#]
        for i in 1...100 {
            long += [#"{"t": \#(i), "kind": "touch.motion", "id": 1, "x": \#(100 + i * 4), "y": \#(200 + i % 7)}"#, #"{"t": \#(i), "kind": "touch.frame"}"#]
        }
        long += [#"{"t": 200, "kind": "touch.up", "id": 1}"#, #"{"t": 200, "kind": "touch.frame"}"#]
        XCTAssertEqual(try run(["replay", try write("long.jsonl", long.joined(separator: "\n")), "--size", "640x400", "--book", book]).status, 0)
        let saved = try Data(contentsOf: URL(fileURLWithPath: book + "/book.folio"))
        XCTAssertGreaterThan(saved.count, 512)
        let (result, reason) = try runWithFileSizeLimit(1, ["replay", trace, "--size", "300x200", "--book", book])
        XCTAssertEqual(reason, .exit, "replay --book was killed by signal \(result.status)")
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "folio: \(book)/book.folio: cannot save (the previous save is kept): write: File too large\n")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: book + "/book.folio")), saved)
        XCTAssertEqual(try names(in: book), [".folio.lock", "book.folio"])
    }

    /// A link planted at the output, or at a frame's name, is refused in one line: neither it nor
    /// what it points to changes. Nor does anything that is not a regular file.
    func testOutRefusesLinksAndAnythingButAFile() throws {
        let trace = try write("stroke.jsonl", ExampleTrace.stroke)
        let victim = try write("victim", "another user's file")
        let link = folder.appendingPathComponent("out.png").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        let linked = try run(["render", "--size", "100x100", "--out", link])
        XCTAssertNotEqual(linked.status, 0)
        XCTAssertEqual(linked.stderr, "folio: \(link) is a symbolic link, which Folio neither follows nor replaces\n")

        let frames = folder.appendingPathComponent("frames").path
        try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: false)
        for name in ["frame-00000.png", "frame-00001.png"] {
            try FileManager.default.createSymbolicLink(atPath: frames + "/" + name, withDestinationPath: victim)
        }
        let planted = try run(["replay", trace, "--size", "100x100", "--out", frames, "--frames"])
        XCTAssertNotEqual(planted.status, 0)
        XCTAssertTrue(planted.stderr.hasSuffix(" is a symbolic link, which Folio neither follows nor replaces\n"), planted.stderr)
        XCTAssertEqual(planted.stderr.split(separator: "\n").count, 1, planted.stderr)
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "another user's file")
        XCTAssertEqual(try names(in: frames), ["frame-00000.png", "frame-00001.png"])

        // A FIFO with a reader (a write would not block) and a folder: refused, and still there.
        let fifo = folder.appendingPathComponent("fifo.png").path, directory = folder.appendingPathComponent("folder.png").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        for path in [fifo, directory] {
            let result = try run(["render", "--size", "100x100", "--out", path])
            XCTAssertNotEqual(result.status, 0)
            XCTAssertEqual(result.stderr, "folio: \(path): cannot write (nothing was replaced): not a regular file, which Folio never replaces\n")
        }
        var status = stat()
        XCTAssertEqual(lstat(fifo, &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFIFO)
        XCTAssertEqual(try names(in: directory), [])
    }

    /// `--out DIR` is the folder written: a link to one, a file, or a folder others may change
    /// that is not the user's, is refused with one line before anything is written.
    func testReplayOutRefusesALinkAFileAndASharedFolder() throws {
        let trace = try write("stroke.jsonl", ExampleTrace.stroke)
        let real = folder.appendingPathComponent("real").path, alias = folder.appendingPathComponent("alias").path
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: alias, withDestinationPath: real)
        let linked = try run(["replay", trace, "--size", "100x100", "--out", alias])
        XCTAssertNotEqual(linked.status, 0)
        XCTAssertEqual(linked.stderr, "folio: \(alias) is a symbolic link, which Folio neither follows nor replaces\n")
        XCTAssertEqual(try names(in: real), [])

        let file = try write("not-a-folder", "text")
        let onFile = try run(["replay", trace, "--size", "100x100", "--out", file])
        XCTAssertNotEqual(onFile.status, 0)
        XCTAssertEqual(onFile.stderr, "folio: \(file) is not a folder\n")
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "text")

        // Only root can give a folder to another user: elsewhere OutputFolderTests covers the rule.
        guard geteuid() == 0 else { return }
        let shared = folder.appendingPathComponent("shared").path
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        XCTAssertEqual(chmod(shared, 0o777), 0)
        XCTAssertEqual(chown(shared, 4242, 4242), 0)
        let result = try run(["replay", trace, "--size", "100x100", "--out", shared])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertEqual(result.stderr, "folio: \(shared) is writable by others and belongs to another user (uid 4242); "
                       + "Folio writes only into folders of its user or that others cannot change\n")
        XCTAssertEqual(try names(in: shared), [])
    }

    /// Another path to the book's folder (a bind mount) is still the book's folder.
    func testExportThroughABindMountOfTheBookIsRefused() throws {
        let trace = try write("stroke.jsonl", ExampleTrace.stroke)
        let book = folder.appendingPathComponent("book").path, mount = folder.appendingPathComponent("mount").path
        XCTAssertEqual(try run(["replay", trace, "--size", "640x400", "--book", book]).status, 0)
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: false)
        let saved = try Data(contentsOf: URL(fileURLWithPath: book + "/book.folio"))
        // A mount of its own (unshare -m), gone with the process: nothing outside the test changes.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "unshare -m sh -c 'mount --bind \"$1\" \"$2\" || exit 99; exec \"$0\" export --book \"$1\" --sheet 1 --png \"$2/book.folio\"' \"$0\" \"$@\"",
                             Self.folio.path, book, mount]
        let result = try collect(process)
        if result.status == 99 || result.stderr.hasPrefix("unshare:") {
            throw XCTSkip("SKIPPED: no private mount namespace here (unshare -m needs root): \(result.stderr)")
        }
        XCTAssertEqual(result.stderr, "folio: \(mount)/book.folio is inside the book folder \(book); export somewhere else\n")
        XCTAssertNotEqual(result.status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: book + "/book.folio")), saved)
        XCTAssertEqual(try names(in: book), [".folio.lock", "book.folio"])
    }
}
