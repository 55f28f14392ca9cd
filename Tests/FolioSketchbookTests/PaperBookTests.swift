import FolioGeometry
import FolioRandom
import Foundation
import XCTest
@testable import FolioSketchbook

/// Sheets' papers: the model's ranges and undo, and how books keep them (change 8, written in a
/// changes record after the snapshot, so the snapshot reads as every Folio reads it).
final class PaperBookTests: XCTestCase {
    private var folder: URL!
    private var store: BookStore { BookStore(directory: folder) }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-paper-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private let ruled = Paper(kind: .ruled, spacing: 24, color: 0x8899AA)
    private let dotted = Paper(kind: .dotted, spacing: 10.5, color: 0x112233)

    private func stroke(_ random: inout SeededRandom, points: Int = 8) -> Stroke {
        let start = Point(x: Double(random.next(800)), y: Double(random.next(600)))
        return Stroke(points: (0..<points).map { Point(x: start.x + Double($0) * 2, y: start.y + Double($0 % 5)) },
                      style: InkStyle(width: 6, color: UInt32(random.next(0x100_0000))))
    }

    private func same(_ a: Sketchbook, _ b: Sketchbook, _ message: String = "", line: UInt = #line) {
        XCTAssertEqual(a.sheets.map(\.strokes), b.sheets.map(\.strokes), message, line: line)
        XCTAssertEqual(a.sheets.map(\.paper), b.sheets.map(\.paper), message, line: line)
        XCTAssertEqual(a.currentSheet, b.currentSheet, message, line: line)
    }

    private func bytes() throws -> [UInt8] { [UInt8](try Data(contentsOf: store.file)) }

    private func words(_ values: UInt32...) -> [UInt8] {
        var out = ByteWriter()
        values.forEach { out.u32($0) }
        return out.bytes
    }

    /// A paper change's bytes: code 8, sheet, kind, spacing, colour.
    private func paperChange(sheet: UInt32, kind: UInt32, spacing: Double, color: UInt32) -> [UInt8] {
        var out = ByteWriter()
        out.u8(8)
        out.u32(sheet)
        out.u32(kind)
        out.f64(spacing)
        out.u32(color)
        return out.bytes
    }

    // MARK: - The model

    func testPaperValuesAreClampedToTheirRanges() {
        XCTAssertEqual(Paper(kind: .ruled, spacing: 1).spacing, 4)
        XCTAssertEqual(Paper(kind: .ruled, spacing: 1e9).spacing, 400)
        XCTAssertEqual(Paper(kind: .ruled, spacing: .nan).spacing, Paper.standardSpacing)
        XCTAssertEqual(Paper(kind: .ruled, spacing: -.infinity).spacing, Paper.standardSpacing)
        XCTAssertEqual(Paper(kind: .ruled, color: 0xFF12_3456).color, 0x12_3456)
        XCTAssertEqual(Paper(kind: .plain, spacing: 10, color: 1).forSheet, .plain)
        XCTAssertEqual(Sheet(paper: Paper(kind: .plain, spacing: 10)).paper, .plain, "a sheet keeps one plain paper")
        XCTAssertEqual(Paper.Kind.allCases.map(\.next), [.ruled, .squared, .dotted, .plain])
        XCTAssertEqual(Paper(kind: .ruled, spacing: 32).positions(along: 100), [32, 64, 96])
        XCTAssertEqual(Paper(kind: .ruled, spacing: 32).positions(along: 96), [32, 64], "no line on the edge")
        XCTAssertEqual(Paper.plain.positions(along: 100), [])
    }

    func testPaperIsAnUndoableEditOfItsSheet() {
        var book = Sketchbook()
        XCTAssertTrue(book.setPaper(ruled))
        XCTAssertFalse(book.setPaper(ruled), "the same paper again is no edit")
        XCTAssertTrue(book.sheet.isBlank, "paper is not ink")
        XCTAssertEqual(book.nextUndo, .stroke)
        book.undo()
        XCTAssertEqual(book.sheet.paper, .plain)
        book.redo()
        XCTAssertEqual(book.sheet.paper, ruled)
        book.insertBlankSheet(paper: dotted)
        XCTAssertEqual(book.sheet.paper, dotted)
        XCTAssertFalse(book.turnForward(paper: ruled), "the last sheet is blank")
        book.append(Stroke(points: [Point(x: 1, y: 1)]))
        XCTAssertTrue(book.turnForward(paper: ruled))
        XCTAssertEqual(book.sheets.map(\.paper), [ruled, dotted, ruled])
        book.deleteCurrentSheet(paper: dotted)
        book.goToSheet(0)
        book.deleteCurrentSheet(paper: dotted)
        book.deleteCurrentSheet(paper: dotted)
        XCTAssertEqual(book.sheets.map(\.paper), [dotted], "the only sheet deleted: a blank one on the paper given")
        book.undo()
        XCTAssertEqual(book.sheets.map(\.paper), [dotted], "undo puts the deleted sheet back with its paper")
    }

    // MARK: - Books

    /// Random edits, papers among them, saved after each: the file reads back as the book in
    /// memory, papers included, through the writer that saved it and through a new one.
    func testPapersRoundTripThroughEverySave() throws {
        var random = SeededRandom(state: 11)
        let papers = [Paper.plain, ruled, dotted, Paper(kind: .squared, spacing: 400, color: 0xFFFFFF), Paper(kind: .ruled, spacing: 4, color: 0)]
        var book = Sketchbook()
        var writer: BookWriter? = try store.openForWriting()
        for step in 0..<300 {
            switch random.next(9) {
            case 0, 1: book.append(stroke(&random))
            case 2: book.setPaper(papers[random.next(papers.count)])
            case 3: book.undo()
            case 4: book.redo()
            case 5: book.insertBlankSheet(paper: papers[random.next(papers.count)])
            case 6: book.deleteCurrentSheet(paper: papers[random.next(papers.count)])
            case 7: book.goToSheet(random.next(book.sheets.count))
            default: _ = book.turnForward(paper: papers[random.next(papers.count)])
            }
            try writer?.save(book)
            same(try store.load(), book, "step \(step)")
            if step % 61 == 0 {
                writer = nil
                writer = try store.openForWriting()
                same(try XCTUnwrap(writer).book, book, "reopened at step \(step)")
            }
        }
        XCTAssertTrue(Set(book.sheets.map(\.paper)).count > 1, "the book ends with several papers")
    }

    /// A book whose sheets are all plain is the file it was before papers: one snapshot record,
    /// no paper change anywhere; such a book (every book written before) loads as plain paper.
    func testABookOfPlainSheetsIsWrittenAsBeforeAndLoadsPlain() throws {
        var random = SeededRandom(state: 2)
        var book = Sketchbook()
        for _ in 0..<5 { book.append(stroke(&random)) }
        book.insertBlankSheet()
        book.append(stroke(&random))
        try store.openForWriting().save(book)
        let expected = BookJournal.fileHeader() + BookJournal.record(.snapshot, payload: try BookRecords.snapshot(book))
        XCTAssertEqual(try bytes(), expected)
        let loaded = try store.load()
        XCTAssertEqual(loaded.sheets.map(\.paper), [.plain, .plain])
        same(loaded, book)
    }

    /// Books Folio wrote before papers (the fuzzer's seed books) load with every sheet plain.
    func testBooksFromBeforePapersLoadAsPlainPaper() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("BookFuzzer/corpus")
        for name in ["one-sheet.folio", "pen-strokes.folio", "sheets-and-undo.folio"] {
            let bytes = [UInt8](try Data(contentsOf: corpus.appendingPathComponent(name)))
            let book = try BookStore.decode(journal: bytes, path: name)
            XCTAssertFalse(book.sheets.isEmpty, name)
            XCTAssertEqual(Set(book.sheets.map(\.paper)), [.plain], name)
        }
    }

    /// The first save (and every compaction) writes the snapshot exactly as a plain book's, then
    /// the papers as change 8 in a changes record: a Folio from before papers reads the snapshot
    /// and stops at that change with its "unknown change 8 (written by a newer Folio?)".
    func testPapersFollowTheSnapshotAsChangesAnOlderFolioRefuses() throws {
        var random = SeededRandom(state: 4)
        var book = Sketchbook(sheets: [Sheet(paper: ruled), Sheet(), Sheet(paper: dotted)], currentSheet: 1)
        book.append(stroke(&random))
        try store.openForWriting().save(book)
        let file = try bytes()
        let snapshot = BookJournal.record(.snapshot, payload: try BookRecords.snapshot(book))
        XCTAssertEqual(Array(file.prefix(BookJournal.headerSize + snapshot.count)), BookJournal.fileHeader() + snapshot,
                       "the snapshot is a plain book's")
        let records = try file.withUnsafeBytes { try BookJournal.scan($0, path: "book.folio").records }
        XCTAssertEqual(records.map(\.kind), [.snapshot, .change])
        var expected = words(2)
        expected += paperChange(sheet: 0, kind: 1, spacing: 24, color: 0x8899AA)
        expected += paperChange(sheet: 2, kind: 3, spacing: 10.5, color: 0x112233)
        XCTAssertEqual(Array(file[records[1].payload]), expected)
        same(try store.load(), book)

        // A Folio that knows codes up to 7 refuses the first one it does not know, untouched;
        // this one says the same of the codes after 8.
        let newer = BookJournal.fileHeader() + snapshot + BookJournal.record(.change, payload: words(1) + [9] + words(0))
        try Data(newer).write(to: store.file)
        XCTAssertThrowsError(try store.load()) { error in
            XCTAssertTrue("\(error)".hasSuffix("byte \(16 + snapshot.count): change 1: unknown change 9 (written by a newer Folio?)"), "\(error)")
        }
    }

    /// Compaction keeps papers: the new file is a snapshot and the papers' record.
    func testCompactionKeepsPapers() throws {
        var random = SeededRandom(state: 9)
        var book = Sketchbook(sheets: [Sheet(paper: dotted), Sheet(paper: ruled)])
        let writer = try store.openForWriting()
        var sizes: [Int] = []
        for _ in 0..<400 {
            book.append(stroke(&random, points: 200))
            try writer.save(book)
            sizes.append(try bytes().count)
        }
        XCTAssertTrue(zip(sizes, sizes.dropFirst()).contains { $1 < $0 }, "compacted at least once")
        same(try store.load(), book)
        let reopened = try BookStore(directory: folder).load()
        XCTAssertEqual(reopened.sheets.map(\.paper), [dotted, ruled])
    }

    /// A paper change that breaks a rule is damage, named with the record's offset.
    func testDamagedPaperChangesAreRefused() throws {
        let snapshot = BookJournal.record(.snapshot, payload: words(0, 1, 0))
        func paper(sheet: UInt32 = 0, kind: UInt32 = 1, spacing: Double = 32, color: UInt32 = 0) -> [UInt8] {
            let change = paperChange(sheet: sheet, kind: kind, spacing: spacing, color: color)
            return BookJournal.fileHeader() + snapshot + BookJournal.record(.change, payload: words(1) + change)
        }
        let cases: [([UInt8], String)] = [
            (paper(kind: 4), "byte 44: change 1: a paper of unknown kind 4 (written by a newer Folio?)"),
            (paper(spacing: 3.99), "byte 44: change 1: paper spacing 3.99 is not within 4.0-400.0 logical pixels"),
            (paper(spacing: 400.5), "byte 44: change 1: paper spacing 400.5 is not within 4.0-400.0 logical pixels"),
            (paper(spacing: .nan), "byte 44: change 1: paper spacing nan is not within 4.0-400.0 logical pixels"),
            (paper(color: 0x0100_0000), "byte 44: change 1: paper colour 0x1000000 is not 0xRRGGBB"),
            (paper(sheet: 1), "byte 44: change 1: sheet index 1 is not below 1"),
            (paper(kind: 0, spacing: 10), "byte 44: change 1: plain paper with spacing 10.0 and colour 0x0"),
        ]
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (data, expected) in cases {
            try Data(data).write(to: store.file)
            XCTAssertThrowsError(try store.load(), expected) { error in
                guard case .damaged = error as? BookError else { return XCTFail("\(error)") }
                XCTAssertTrue("\(error)".contains("is damaged and was left untouched: " + expected), "\(error) should say \(expected)")
            }
        }
        // A record cut inside the change, checksums right: the record ends early.
        let short = BookJournal.fileHeader() + snapshot + BookJournal.record(.change, payload: words(1) + paperChange(sheet: 0, kind: 1, spacing: 32, color: 0).prefix(11))
        try Data(short).write(to: store.file)
        XCTAssertThrowsError(try store.load()) { error in
            XCTAssertTrue("\(error)".contains("change 1: the record ends early"), "\(error)")
        }
        // And a good one loads.
        try Data(paper(kind: 2, spacing: 4, color: 0xFF_FFFF)).write(to: store.file)
        XCTAssertEqual(try store.load().sheet.paper, Paper(kind: .squared, spacing: 4, color: 0xFF_FFFF))
    }
}
