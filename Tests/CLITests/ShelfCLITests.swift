import FolioTestSupport
import XCTest

/// `folio replay --shelf`: one book or one shelf, never both.
extension CLITests {
    func testReplayTakesABookOrAShelfNotBoth() throws {
        let trace = try write("shelf.jsonl", ExampleTrace.stroke)
        let book = folder.appendingPathComponent("book").path, shelf = folder.appendingPathComponent("books").path
        let result = try run(["replay", trace, "--size", "640x400", "--book", book, "--shelf", shelf])
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(result.stderr.contains("--book and --shelf"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one line: \(result.stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: book), "nothing was made")
        XCTAssertFalse(FileManager.default.fileExists(atPath: shelf))
    }
}
