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

/// `folio replay --shelf` on the books folder itself: the shelf the app and `folio books` share.
extension CLITests {
    /// A tap at (x, y) at `t` ms, as trace lines.
    private func tapLines(_ x: Double, _ y: Double, at t: Int) -> [String] {
        [#"{"t":\#(t),"kind":"touch.down","id":1,"x":\#(x),"y":\#(y)}"#, #"{"t":\#(t),"kind":"touch.frame"}"#,
         #"{"t":\#(t + 60),"kind":"touch.up","id":1}"#, #"{"t":\#(t + 60),"kind":"touch.frame"}"#]
    }

    /// The shelf's summary and `folio books` after a replay on the data folder `data`.
    private func replayShelf(_ lines: [String], data: String, name: String) throws -> (shelf: [String: Any], books: String) {
        let trace = try write(name, lines.joined(separator: "\n") + "\n")
        let result = try run(["replay", trace, "--size", "800x600", "--shelf", data])
        XCTAssertEqual(result.status, 0, result.stderr)
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let listed = try run(["books"], environment: ["XDG_DATA_HOME": (data as NSString).deletingLastPathComponent])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        return (try XCTUnwrap(summary["shelf"] as? [String: Any], "\(summary)"), listed.stdout)
    }

    func testReplayOnTheShelfMakesOpensDrawsInClosesDeletesAndRestoresABook() throws {
        let data = folder.appendingPathComponent("data/folio").path
        // The bar's controls at 800 px: five 112 px buttons 8 apart, centred, at y 12–60; the first
        // cover's middle, three covers to a row between 48 px margins.
        let newBook = (160.0, 36.0), delete = (400.0, 36.0), undo = (640.0, 36.0), cover = (146.0, 245.0)
        var lines = tapLines(newBook.0, newBook.1, at: 100) + tapLines(cover.0, cover.1, at: 400)
        lines.append(#"{"t":2000,"kind":"touch.down","id":2,"x":300,"y":300}"#)
        lines.append(#"{"t":2000,"kind":"touch.frame"}"#)
        for i in 1...10 {
            lines.append(#"{"t":\#(2000 + i * 16),"kind":"touch.motion","id":2,"x":\#(300 + i * 15),"y":\#(300 + i * 5)}"#)
            lines.append(#"{"t":\#(2000 + i * 16),"kind":"touch.frame"}"#)
        }
        lines += [#"{"t":2300,"kind":"touch.up","id":2}"#, #"{"t":2300,"kind":"touch.frame"}"#,
                  #"{"t":3000,"kind":"key","keys":"Escape","state":"pressed"}"#, #"{"t":3010,"kind":"key","keys":"Escape","state":"released"}"#,
                  #"{"t":5000,"kind":"pointer.motion","x":5,"y":5}"#]
        let made = try replayShelf(lines, data: data, name: "make.jsonl")
        XCTAssertEqual(made.shelf["shown"] as? Bool, true, "closed back onto the shelf: \(made.shelf)")
        XCTAssertEqual((made.shelf["books"] as? [Any])?.count, 1, "\(made.shelf)")
        XCTAssertTrue(made.books.contains(#""sheets":1,"strokes":1}"#), "the stroke was saved in the book: \(made.books)")

        // Deleted and brought back by undo in one run: listed again, stroke and all.
        let restored = try replayShelf(tapLines(delete.0, delete.1, at: 100) + tapLines(cover.0, cover.1, at: 300)
                                       + tapLines(undo.0, undo.1, at: 600) + [#"{"t":1000,"kind":"pointer.motion","x":5,"y":5}"#],
                                       data: data, name: "restore.jsonl")
        XCTAssertEqual((restored.shelf["books"] as? [Any])?.count, 1, "\(restored.shelf)")
        XCTAssertEqual(restored.books, made.books)
        // Deleted for good: the trash is emptied when the run quits.
        let deleted = try replayShelf(tapLines(delete.0, delete.1, at: 100) + tapLines(cover.0, cover.1, at: 300)
                                      + [#"{"t":1000,"kind":"pointer.motion","x":5,"y":5}"#], data: data, name: "delete.jsonl")
        XCTAssertEqual((deleted.shelf["books"] as? [Any])?.count, 0, "\(deleted.shelf)")
        XCTAssertEqual(deleted.books, "{\"books\":[]}\n")
        let trash = (try? FileManager.default.contentsOfDirectory(atPath: data + "/books/.trash")) ?? []
        XCTAssertEqual(trash, [], "the trash is empty once the run quit")
    }
}
