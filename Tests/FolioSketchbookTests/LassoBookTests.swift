import FolioGeometry
import FolioRandom
import FolioTestSupport
import Foundation
import XCTest
@testable import FolioSketchbook

/// A lasso's edits in `book.folio`: a move or a recolour appends a record of a few bytes per
/// stroke (changes 6 and 7), whatever the strokes and those after them hold; the book reads back
/// to the bit; an older Folio refuses the new records as a newer Folio's.
final class LassoBookTests: XCTestCase {
    private var folder: URL!
    private var store: BookStore { BookStore(directory: folder) }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-lasso-book-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func stroke(_ random: inout SeededRandom, points: Int) -> Stroke {
        let start = Point(x: Double(random.next(2000)) / 3 - 100, y: Double(random.next(1500)) / 7 + 0.1)
        return Stroke(points: (0..<points).map { Point(x: start.x + Double($0) * 1.37, y: start.y - Double($0 % 9) / 3) },
                      style: InkStyle(width: 6, color: UInt32(random.next(0x100_0000))))
    }

    private func bytes() throws -> [UInt8] { [UInt8](try Data(contentsOf: store.file)) }

    private func same(_ a: Sketchbook, _ b: Sketchbook, _ message: String = "", line: UInt = #line) {
        XCTAssertEqual(a.sheets.map(\.strokes), b.sheets.map(\.strokes), message, line: line)
        // Equal doubles could still differ in sign of zero: compare the bits of every point.
        let bits = { (book: Sketchbook) in book.sheets.flatMap { $0.strokes.flatMap { $0.points.flatMap { [$0.x.bitPattern, $0.y.bitPattern] } } } }
        XCTAssertEqual(bits(a), bits(b), message, line: line)
    }

    /// A move saves the moved strokes' indices and first points (20 bytes each), not their points
    /// nor the 490 strokes after them; a recolour saves their indices; undo is a move back.
    func testAMoveAppendsItsRecordNotTheStrokes() throws {
        var random = SeededRandom(state: 11)
        var book = Sketchbook()
        for _ in 0..<500 { book.append(stroke(&random, points: 200)) }
        let writer = try store.openForWriting()
        try writer.save(book)
        let moved: Set = [3, 10, 250]
        let header = BookJournal.recordOverhead + 4  // the record, its change count

        var before = try bytes().count
        XCTAssertTrue(book.move(moved, by: Point(x: 13.37, y: -7.1)))
        try writer.save(book)
        XCTAssertEqual(try bytes().count - before, header + 1 + 4 + 4 + moved.count * 20, "one move record, no stroke")
        same(try store.load(), book, "after the move")

        before = try bytes().count
        XCTAssertTrue(book.recolour(moved, to: 0x00FF00))
        try writer.save(book)
        XCTAssertEqual(try bytes().count - before, header + 1 + 4 + 4 + 4 + moved.count * 4, "one recolour record")
        same(try store.load(), book, "after the recolour")

        for step in ["undo", "undo", "redo"] {
            before = try bytes().count
            if step == "undo" { book.undo() } else { book.redo() }
            try writer.save(book)
            XCTAssertLessThanOrEqual(try bytes().count - before, header + 1 + 4 + 4 + 4 + moved.count * 20, "\(step): no stroke rewritten")
            same(try store.load(), book, step)
        }
        // The book the writer holds is the one on disk.
        same(writer.book, book)
    }

    /// Moves, recolours, duplicates, erasures, undo and redo in any order read back as they were.
    func testLassoEditsRoundTripInAnyOrder() throws {
        var random = SeededRandom(state: 29)
        var book = Sketchbook()
        var writer: BookWriter? = try store.openForWriting()
        for step in 0..<300 {
            let count = book.sheet.strokes.count
            let some = Set((0..<min(count, 4)).map { _ in random.next(max(count, 1)) })
            switch random.next(9) {
            case 0, 1: book.append(stroke(&random, points: 1 + random.next(30)))
            case 2: book.move(some, by: Point(x: Double(random.next(400)) / 7 - 28, y: Double(random.next(400)) / 3 - 66.6))
            case 3: book.recolour(some, to: UInt32(random.next(0x100_0000)))
            case 4: book.duplicate(some, offset: Point(x: 24, y: 24))
            case 5: book.erase(some)
            case 6: book.undo()
            case 7: book.redo()
            default: if random.next(4) == 0 { _ = book.turnForward() } else { book.goToSheet(0) }
            }
            try writer?.save(book)
            same(try store.load(), book, "step \(step)")
            if step % 71 == 0 {
                writer = nil
                writer = try store.openForWriting()
            }
        }
    }

    /// What an older Folio sees: the header and the record are the version and kind it knows, and
    /// the change's code is one it does not, so it stops at its rule for unknown codes, which names
    /// a newer Folio. That rule is the same here for any code this Folio does not know (9): the
    /// move record with its code made 9 is the older Folio's view of a move record.
    func testAnOlderFolioRefusesAMoveAsANewerFolios() throws {
        var book = Sketchbook()
        book.append(Stroke(points: [Point(x: 10, y: 10), Point(x: 30, y: 12)]))
        let writer = try store.openForWriting()
        try writer.save(book)
        let savedSize = try bytes().count
        book.move([0], by: Point(x: 5, y: 5))
        try writer.save(book)
        var file = try bytes()
        XCTAssertEqual(Array(file[8..<12]), [2, 0, 0, 0], "still format version 2: an older Folio reads on")
        XCTAssertEqual(file[savedSize + 4], 2, "a changes record, a kind every version 2 Folio knows")
        let code = savedSize + 12 + 4
        XCTAssertEqual(file[code], 6, "the first change is the move")
        file[code] = 9
        try Data(withChecksumsFixed(file)).write(to: store.file)
        XCTAssertThrowsError(try store.load()) { error in
            XCTAssertEqual("\(error)".components(separatedBy: "book.folio ").last,
                           "is damaged and was left untouched: byte \(savedSize): change 1: unknown change 9 (written by a newer Folio?)")
        }
    }

    /// Records that break the move's and recolour's rules are damage, named as such.
    func testBrokenMoveAndRecolourRecordsAreRefused() throws {
        func words(_ values: UInt32...) -> [UInt8] {
            var out = ByteWriter()
            values.forEach { out.u32($0) }
            return out.bytes
        }
        func f64(_ values: Double...) -> [UInt8] {
            var out = ByteWriter()
            values.forEach { out.f64($0) }
            return out.bytes
        }
        let reserved: [UInt8] = [0, 0, 0, 0]
        let first: [UInt8] = reserved + words(0xFF) + f64(6) + words(1) + f64(1, 1)
        let second: [UInt8] = reserved + words(0xFF) + f64(6) + words(1) + f64(2, 2)
        let oneStroke: [UInt8] = words(0, 1, 2) + first + second
        let cases: [([UInt8], String)] = [
            (words(1) + [6] + words(0, 1, 2) + f64(1, 1), "change 1: stroke index 2 is not below 2"),
            (words(1) + [6] + words(0, 3) + words(0) + f64(1, 1), "moved stroke count 3 is beyond 2"),
            (words(1) + [6] + words(0, 2, 1) + f64(1, 1) + words(0) + f64(1, 1), "stroke index 0 does not follow 1"),
            (words(1) + [6] + words(0, 1, 0) + f64(2_000_000, 1), "leaves ±1000000 logical pixels"),
            (words(1) + [6] + words(0, 2, 0) + f64(1, 1), "2 moved strokes do not fit"),
            (words(1) + [7] + words(0, 0x100_0000, 1, 0), "colour 0x1000000 is not 0xRRGGBB"),
            (words(1) + [7] + words(0, 0xFF, 2, 1, 1), "stroke index 1 does not follow 1"),
            (words(1) + [7] + words(1, 0xFF, 0), "sheet index 1 is not below 1"),
        ]
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (changes, fragment) in cases {
            let data = BookJournal.fileHeader() + BookJournal.record(.snapshot, payload: oneStroke) + BookJournal.record(.change, payload: changes)
            try Data(data).write(to: store.file)
            XCTAssertThrowsError(try store.load(), fragment) { error in
                XCTAssertTrue("\(error)".contains(fragment), "\(error) should say \(fragment)")
            }
        }
        let move: [UInt8] = [6] + words(0, 1, 1) + f64(7, 8)
        let recolour: [UInt8] = [7] + words(0, 0x123456, 1, 0)
        let good: [UInt8] = words(2) + move + recolour
        try Data(BookJournal.fileHeader() + BookJournal.record(.snapshot, payload: oneStroke) + BookJournal.record(.change, payload: good))
            .write(to: store.file)
        let strokes = try store.load().sheet.strokes
        XCTAssertEqual(strokes[1].points, [Point(x: 7, y: 8)])
        XCTAssertEqual(strokes.map(\.style.color), [0x123456, 0xFF])
    }
}
