import FolioFiles
import FolioGeometry
import Foundation
import FolioRandom
import XCTest
@testable import FolioSketchbook

final class BookStoreTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-book-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func sampleBook() -> Sketchbook {
        var first = Sheet()
        first.append(Stroke(points: [Point(x: 1.5, y: 2), Point(x: 30.25, y: 40)]))
        first.append(Stroke(points: [Point(x: 7, y: 8)], style: InkStyle(width: 3, color: 0x12AB00)))
        var second = Sheet()
        second.append(Stroke(points: [Point(x: 100, y: 100), Point(x: 120, y: 90), Point(x: 140, y: 100)]))
        return Sketchbook(sheets: [first, second], currentSheet: 1)
    }

    func testAMissingBookIsANewEmptyOne() throws {
        let book = try BookStore(directory: folder).load()
        XCTAssertEqual(book.sheets.count, 1)
        XCTAssertEqual(book.sheet.strokes, [])
    }

    func testSaveAndLoadRoundTrip() throws {
        let store = BookStore(directory: folder)
        try store.openForWriting().save(sampleBook())
        let loaded = try store.load()
        XCTAssertEqual(loaded.sheets.map(\.strokes), sampleBook().sheets.map(\.strokes))
        XCTAssertEqual(loaded.currentSheet, 1)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(leftovers, [".folio.lock", "book.folio"], "no temporary file is left behind")
    }

    func testDamagedFilesAreReportedAndNeverOverwritten() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = BookStore(directory: folder)
        let cases: [(String, String)] = [
            ("{\"format\": \"folio-sketchbook\", \"version\": 1, \"currentSheet\": 0, \"sheets\": [{\"strokes\": [", "not a Folio sketchbook"),
            ("\u{0}\u{1}binary", "not a Folio sketchbook"),
            ("{\"format\": \"other\", \"version\": 1, \"currentSheet\": 0, \"sheets\": [{\"strokes\": []}]}", "format is \"other\""),
            ("{\"format\": \"folio-sketchbook\", \"version\": 9, \"currentSheet\": 0, \"sheets\": [{\"strokes\": []}]}", "newer Folio"),
            ("{\"format\": \"folio-sketchbook\", \"version\": 1, \"currentSheet\": 3, \"sheets\": [{\"strokes\": []}]}", "currentSheet 3 names no sheet"),
            ("{\"format\": \"folio-sketchbook\", \"version\": 1, \"currentSheet\": 9223372036854775807, \"sheets\": [{\"strokes\": []}]}",
             "currentSheet 9223372036854775807 names no sheet"),
            ("{\"format\": \"folio-sketchbook\", \"version\": 1, \"currentSheet\": -9223372036854775808, \"sheets\": [{\"strokes\": []}]}",
             "currentSheet -9223372036854775808 names no sheet"),
            ("{\"format\": \"folio-sketchbook\", \"version\": 1, \"currentSheet\": 0, \"sheets\": [{\"strokes\": [{\"width\": 6, \"color\": \"#0000FF\", \"points\": [1, 2, 1e300, 4]}]}]}",
             "sheet 1, stroke 1: point 2 is beyond ±1000000"),
            ("{\"format\": \"folio-sketchbook\", \"version\": 1, \"currentSheet\": 0, \"sheets\": [{\"strokes\": [{\"width\": 6, \"color\": \"#0000FF\", \"points\": [-1000000.5, 2]}]}]}",
             "point 1 is beyond"),
            ("{\"format\": \"folio-sketchbook\", \"version\": 1, \"currentSheet\": 0, \"sheets\": [{\"strokes\": [{\"width\": 6, \"color\": \"#0000FF\", \"points\": [1, 2, 3]}]}]}", "x, y pairs"),
            ("{\"format\": \"folio-sketchbook\", \"version\": 1, \"currentSheet\": 0, \"sheets\": [{\"strokes\": [{\"width\": -6, \"color\": \"#0000FF\", \"points\": [1, 2]}]}]}", "ink width"),
            ("{\"format\": \"folio-sketchbook\", \"version\": 1, \"currentSheet\": 0, \"sheets\": [{\"strokes\": [{\"width\": 6, \"color\": \"blue\", \"points\": [1, 2]}]}]}", "colour"),
        ]
        for (text, fragment) in cases {
            try Data(text.utf8).write(to: store.legacyFile)
            for open in [{ _ = try store.load() }, { _ = try store.openForWriting() }] {
                XCTAssertThrowsError(try open(), text) { error in
                    guard case .damaged = error as? BookError else { return XCTFail("\(error)") }
                    XCTAssertTrue("\(error)".contains(fragment), "\(error) should mention \(fragment)")
                    XCTAssertTrue("\(error)".contains(store.legacyFile.path))
                }
            }
            XCTAssertEqual(try Data(contentsOf: store.legacyFile), Data(text.utf8), "the damaged file is untouched")
            XCTAssertFalse(FileManager.default.fileExists(atPath: store.file.path), "and not migrated")
        }
    }

    /// A full disk (here: a file-size limit) fails the save with a clear error and keeps the old book.
    func testAFailedSaveKeepsThePreviousBook() throws {
        let store = BookStore(directory: folder)
        let writer = try store.openForWriting()
        try writer.save(sampleBook())
        let before = try Data(contentsOf: store.file)
        var big = sampleBook()
        big.append(Stroke(points: (0..<5000).map { Point(x: Double($0), y: Double($0 % 7)) }))

        signal(SIGXFSZ, SIG_IGN)
        var saved = rlimit()
        getrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
        var small = saved
        small.rlim_cur = 4096
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &small)
        defer { setrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved) }

        XCTAssertThrowsError(try writer.save(big)) { error in
            guard case .io = error as? BookError else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("the previous save is kept"), "\(error)")
        }
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
        XCTAssertEqual(try Data(contentsOf: store.file), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), [".folio.lock", "book.folio"])
        try writer.save(big)
        XCTAssertEqual(try store.load().sheets.map(\.strokes), big.sheets.map(\.strokes), "saved once there is room")
    }

    func testDefaultFolderFollowsXDG() throws {
        let home = FileManager.default.temporaryDirectory.path
        XCTAssertEqual(try BookStore.defaultDirectory(in: UserFolders(environment: ["XDG_DATA_HOME": "/data", "HOME": home])).path, "/data/folio")
        XCTAssertEqual(try BookStore.defaultDirectory(in: UserFolders(environment: ["HOME": home])).path, home + "/.local/share/folio")
        XCTAssertEqual(try BookStore.defaultDirectory(in: UserFolders(environment: ["XDG_DATA_HOME": "relative", "HOME": home])).path,
                       home + "/.local/share/folio", "a relative XDG_DATA_HOME is ignored, as the XDG Base Directory specification says")
    }

    /// Mutated books either load or are reported as damaged: never a crash, never another error.
    /// Numbers are also swapped for the extremes of Double and Int, and a book that loads keeps
    /// every rule of docs/book-format.md.
    func testFuzzedBooksAreLoadedOrReportedDamaged() throws {
        let valid = Array(String(decoding: try VersionOneBooks.encode(sampleBook()), as: UTF8.self))
        let alphabet = Array("{}[]\",:0123456789.-eE#ABCDEFtruefalsnul \\\u{00e9}")
        var random = SeededRandom(state: 0xB00C)
        func next(_ bound: Int) -> Int { random.next(bound) }
        for _ in 0..<3000 {
            var text = valid
            for _ in 0...next(4) where !text.isEmpty {
                let at = next(text.count)
                switch next(4) {
                case 0: text.remove(at: at)
                case 1: text.insert(alphabet[next(alphabet.count)], at: at)
                case 2: text[at] = alphabet[next(alphabet.count)]
                default:
                    let numbers = numberStarts(in: text)
                    let place = numbers.isEmpty ? at : numbers[next(numbers.count)]
                    replaceNumber(in: &text, at: place, with: Array(extremeNumbers[next(extremeNumbers.count)]))
                }
            }
            do {
                let book = try BookFile.decode(Data(String(text).utf8), path: "fuzz.json")
                XCTAssertTrue(book.sheets.indices.contains(book.currentSheet), String(text))
                for stroke in book.sheets.flatMap(\.strokes) {
                    XCTAssertTrue(stroke.points.allSatisfy(SurfaceLimits.isWithinReach), String(text))
                    XCTAssertTrue(stroke.style.width > 0 && stroke.style.width <= 1000, String(text))
                }
            } catch let error as BookError {
                guard case .damaged = error else { return XCTFail("\(error)") }
            }
        }
    }
}

/// Numbers at the edges of what JSON, Double and Int hold, and of Folio's ranges.
let extremeNumbers = ["1e308", "-1e308", "1.7976931348623157e308", "9223372036854775807", "-9223372036854775808",
                      "9223372036854775808", "1e-320", "-0", "1e20", "1000000", "-1000000.5", "4294967296", "1e999"]

/// Where each number in `text` starts.
func numberStarts(in text: [Character]) -> [Int] {
    text.indices.filter { i in (text[i].isNumber || text[i] == "-") && (i == 0 || !numberCharacters.contains(text[i - 1])) }
}

/// Replaces the number starting at `start` with `number`.
func replaceNumber(in text: inout [Character], at start: Int, with number: [Character]) {
    var end = start
    while end < text.count, numberCharacters.contains(text[end]) { end += 1 }
    text.replaceSubrange(start..<end, with: number)
}

private let numberCharacters = Set("0123456789.-+eE")
