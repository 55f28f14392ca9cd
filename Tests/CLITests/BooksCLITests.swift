import FolioGeometry
import FolioSketchbook
import FolioTestSupport
import Foundation
import XCTest

/// `folio books`: the shelf as one line of JSON, after moving Folio 0.1's book onto it, which
/// no kill -9 can make lose anything.
extension CLITests {
    private var dataHome: [String: String] { ["XDG_DATA_HOME": folder.path] }
    private var oldPlace: URL { folder.appendingPathComponent("folio") }

    /// A book with `strokes` strokes of `points` points on its first sheet and a second sheet.
    private func shelfBook(strokes: Int, points: Int = 20) -> Sketchbook {
        var book = Sketchbook()
        for index in 0..<strokes {
            book.append(Stroke(points: (0..<points).map { Point(x: Double($0 * 3), y: Double(index % 900)) }))
        }
        book.insertBlankSheet()
        return book
    }

    private func shelfFolders() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: oldPlace.appendingPathComponent("books").path)) ?? [])
            .filter { !$0.hasPrefix(".") }.sorted()
    }

    func testBooksListsAnEmptyShelf() throws {
        let result = try run(["books"], environment: dataHome)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "{\"books\":[]}\n")
    }

    func testBooksMovesTheOldBookFirstAndEscapesNames() throws {
        let book = shelfBook(strokes: 5)
        try BookStore(directory: oldPlace).openForWriting().save(book)
        let result = try run(["books"], environment: dataHome)
        XCTAssertEqual(result.status, 0, result.stderr)
        let id = try XCTUnwrap(shelfFolders().first)
        let path = oldPlace.appendingPathComponent("books/\(id)").path
        let name = try XCTUnwrap(result.stdout.firstMatch(of: /"name":"(Book \d{4}-\d{2}-\d{2})"/)?.1)
        XCTAssertEqual(result.stdout, "{\"books\":[{\"name\":\"\(name)\",\"path\":\"\(path)\",\"sheets\":2,\"strokes\":5}]}\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: oldPlace.appendingPathComponent("book.folio").path))
        XCTAssertEqual(try BookStore(directory: URL(fileURLWithPath: path)).load(), book)

        // A name with quotes, a backslash and a tab (written by hand: renaming refuses the tab).
        let entry = URL(fileURLWithPath: path + "/shelf.json")
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: entry)) as? [String: Any])
        object["name"] = "say \"hi\" \\ \t now"
        try JSONSerialization.data(withJSONObject: object).write(to: entry)
        let named = try run(["books"], environment: dataHome)
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertTrue(named.stdout.hasPrefix(#"{"books":[{"name":"say \"hi\" \\ \t now","path":"#), named.stdout)
        let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(named.stdout.utf8)) as? [String: [[String: Any]]])
        XCTAssertEqual(parsed["books"]?.first?["name"] as? String, "say \"hi\" \\ \t now")
    }

    func testBooksDoesNotMoveAnOldBookOpenInARunningFolio() throws {
        let book = shelfBook(strokes: 2)
        var writer: BookWriter? = try BookStore(directory: oldPlace).openForWriting()
        try writer?.save(book)
        let result = try run(["books"], environment: dataHome)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertEqual(result.stderr, "folio: \(oldPlace.path) is open in a running Folio (pid \(getpid())), so it is not moved onto the shelf of books; close it there first\n")
        XCTAssertEqual(shelfFolders(), [])
        writer = nil
        XCTAssertEqual(try run(["books"], environment: dataHome).status, 0)
        XCTAssertEqual(shelfFolders().count, 1)
    }

    /// `folio books` killed at random moments while it moves a big book: every copy of the book
    /// that exists afterwards reads back whole, and the next full run leaves exactly one.
    func testBooksKilledAtAnyMomentLosesNothing() throws {
        let book = shelfBook(strokes: 2000, points: 100)
        let store = BookStore(directory: oldPlace)
        try store.openForWriting().save(book)
        let original = try XCTUnwrap(try BookStore.readFile(store.file.path))
        let started = ContinuousClock.now
        XCTAssertEqual(try run(["books"], environment: dataHome).status, 0)
        let whole = max(0.02, (ContinuousClock.now - started).seconds)
        var generator = SystemRandomNumberGenerator()
        var interrupted = 0
        for round in 0..<TestBudget.rounds(20, sanitized: 5) {
            if !FileManager.default.fileExists(atPath: store.file.path) {
                // Moved: start again from the old book alone.
                try FileManager.default.removeItem(at: oldPlace)
                try FileManager.default.createDirectory(at: oldPlace, withIntermediateDirectories: true)
                try Data(original).write(to: store.file)
            }
            let process = Process()
            process.executableURL = Self.folio
            process.arguments = ["books"]
            process.environment = ProcessInfo.processInfo.environment.merging(dataHome) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(Double.random(in: 0...(whole * 1.1), using: &generator) * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { interrupted += 1 }
            if FileManager.default.fileExists(atPath: store.file.path) {
                XCTAssertEqual(try store.load(), book, "the old book, round \(round)")
            }
            for id in shelfFolders() {
                let moved = BookStore(directory: oldPlace.appendingPathComponent("books/\(id)"))
                XCTAssertEqual(try moved.load(), book, "the moved book, round \(round)")
            }
            XCTAssertTrue(FileManager.default.fileExists(atPath: store.file.path) || shelfFolders().count == 1, "round \(round)")
        }
        XCTAssertGreaterThan(interrupted, 0)
        XCTAssertEqual(try run(["books"], environment: dataHome).status, 0)
        XCTAssertEqual(shelfFolders().count, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.file.path))
        let moved = BookStore(directory: oldPlace.appendingPathComponent("books/\(shelfFolders()[0])"))
        XCTAssertEqual(try moved.load(), book)
    }
}

private extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

extension CLITests {
    /// `shelf.list`: a shelf of 50 books listed and their covers loaded, leaving no folder behind.
    func testBenchTimesTheShelfOfFiftyBooks() throws {
        let scratch = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let result = try run(["bench", "--only", "shelf.list", "--size", "1920x1200", "--json"], environment: ["TMPDIR": scratch.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let figures = try XCTUnwrap(object?["results"] as? [[String: Any]])
        XCTAssertEqual(figures.compactMap { $0["name"] as? String }, ["floor.memcpy", "shelf.list"])
        XCTAssertGreaterThan(figures.last?["p50_ms"] as? Double ?? 0, 0)
        let size = try XCTUnwrap(figures.last?["size"] as? String)
        XCTAssertNotNil(size.wholeMatch(of: /(4[89]\d|50\d|51[0-2])x\d+/), size)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path), [])
    }
}
