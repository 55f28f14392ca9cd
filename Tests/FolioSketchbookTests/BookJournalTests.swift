import CCRC32C
import FolioGeometry
import FolioRandom
import FolioTestSupport
import Foundation
import XCTest
@testable import FolioSketchbook

/// `book.folio`: records that append, checksums that refuse damage, torn tails that are dropped,
/// and version-1 books that migrate (docs/book-format.md).
final class BookJournalTests: XCTestCase {
    private var folder: URL!
    private var store: BookStore { BookStore(directory: folder) }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-journal-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func stroke(_ random: inout SeededRandom, points: Int? = nil) -> Stroke {
        let count = points ?? (1 + random.next(40))
        let start = Point(x: Double(random.next(2000)) - 500, y: Double(random.next(1500)) + 0.25)
        let style = InkStyle(width: [6, 0.5, 1000, 12.75][random.next(4)], color: UInt32(random.next(0x100_0000)))
        return Stroke(points: (0..<count).map { Point(x: start.x + Double($0) * 1.5, y: start.y - Double($0 % 9) / 3) }, style: style)
    }

    private func same(_ a: Sketchbook, _ b: Sketchbook, _ message: String = "", line: UInt = #line) {
        XCTAssertEqual(a.sheets.map(\.strokes), b.sheets.map(\.strokes), message, line: line)
        XCTAssertEqual(a.currentSheet, b.currentSheet, message, line: line)
    }

    private func bytes() throws -> [UInt8] { [UInt8](try Data(contentsOf: store.file)) }

    // MARK: - CRC-32C

    func testCRC32CMatchesTheStandardVectors() {
        // RFC 3720 (iSCSI), appendix B.4, and the "123456789" check value.
        let vectors: [([UInt8], UInt32)] = [
            (Array("123456789".utf8), 0xE306_9283),
            ([UInt8](repeating: 0, count: 32), 0x8A91_36AA),
            ([UInt8](repeating: 0xFF, count: 32), 0x62A8_AB43),
            ((0..<32).map { UInt8($0) }, 0x46DD_794E),
            ((0..<32).map { UInt8(31 - $0) }, 0x113F_DB5C),
            ([], 0),
        ]
        for (data, expected) in vectors {
            XCTAssertEqual(crc32c(data), expected, "\(data)")
            XCTAssertEqual(data.withUnsafeBytes { folio_crc32c_portable(0, $0.baseAddress, $0.count) }, expected)
        }
        var random = SeededRandom(state: 42)
        let long = (0..<10_000).map { _ in UInt8(random.next(256)) }
        for length in [1, 7, 8, 9, 63, 64, 65, 1000, 10_000] {
            let part = Array(long[..<length])
            XCTAssertEqual(crc32c(part), part.withUnsafeBytes { folio_crc32c_portable(0, $0.baseAddress, $0.count) }, "length \(length)")
            XCTAssertEqual(crc32c(part[(length / 2)...], continuing: crc32c(part[..<(length / 2)])), crc32c(part), "continued")
        }
    }

    // MARK: - Round trips

    /// Random edits of every kind the app makes, saved after each: the file always reads back as
    /// the book in memory, through the writer that saved it and through a new one.
    func testEveryKindOfChangeRoundTrips() throws {
        var random = SeededRandom(state: 7)
        var book = Sketchbook()
        var writer: BookWriter? = try store.openForWriting()
        for step in 0..<400 {
            switch random.next(10) {
            case 0...3: book.append(stroke(&random))
            case 4: book.undo()
            case 5: book.redo()
            case 6: book.insertBlankSheet()
            case 7: book.deleteCurrentSheet()
            case 8: book.goToSheet(random.next(book.sheets.count))
            default: _ = book.turnForward()
            }
            try writer?.save(book)
            same(try store.load(), book, "step \(step)")
            if step % 97 == 0 {
                writer = nil
                writer = try store.openForWriting()
                same(try XCTUnwrap(writer).book, book, "reopened at step \(step)")
            }
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), [".folio.lock", "book.folio"])
    }

    /// Saving a stroke appends one record of about the stroke's size, however big the book is.
    func testSavingAStrokeWritesAboutTheStroke() throws {
        var random = SeededRandom(state: 3)
        var book = Sketchbook()
        for _ in 0..<500 { book.append(stroke(&random, points: 200)) }
        let writer = try store.openForWriting()
        try writer.save(book)
        let bookSize = try bytes().count
        XCTAssertGreaterThan(bookSize, 500 * 200 * 16)
        for _ in 0..<5 {
            let before = try bytes().count
            book.append(stroke(&random, points: 200))
            try writer.save(book)
            let strokeBytes = 20 + 200 * 16
            XCTAssertEqual(try bytes().count - before, strokeBytes + 13 + BookJournal.recordOverhead,
                           "one change record: its header, the change's fields and the stroke")
        }
        try writer.save(book)
        XCTAssertEqual(try bytes().count, bookSize + 5 * (20 + 3200 + 29), "an unchanged book writes nothing")
    }

    /// A journal that outgrows its snapshot is compacted into one snapshot, atomically.
    func testTheJournalIsCompactedOnceItOutgrowsItsSnapshot() throws {
        var random = SeededRandom(state: 5)
        var book = Sketchbook()
        let writer = try store.openForWriting()
        var sizes: [Int] = []
        for _ in 0..<600 {
            book.append(stroke(&random, points: 200))
            try writer.save(book)
            sizes.append(try bytes().count)
        }
        XCTAssertTrue(zip(sizes, sizes.dropFirst()).contains { $1 < $0 }, "compacted at least once")
        let records = try bytes().withUnsafeBytes { try BookJournal.scan($0, path: "book.folio").records }
        XCTAssertLessThan(records.count, 600)
        same(try store.load(), book)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), [".folio.lock", "book.folio"])
    }

    /// The sheet limit: a million sheets save and load; one more is not saved, and says why.
    func testAMillionSheetsLoadAndOneMoreIsNotSaved() throws {
        let million = Sketchbook(sheets: Array(repeating: Sheet(), count: BookRecords.maximumSheets), currentSheet: 999_999)
        let writer = try store.openForWriting()
        try writer.save(million)
        XCTAssertEqual(try bytes().count, 16 + 16 + 8 + 4 * BookRecords.maximumSheets, "4 bytes a sheet")
        let loaded = try store.load()
        XCTAssertEqual(loaded.sheets.count, BookRecords.maximumSheets)
        XCTAssertEqual(loaded.currentSheet, 999_999)
        var more = million
        more.insertBlankSheet()
        XCTAssertThrowsError(try writer.save(more)) {
            XCTAssertTrue("\($0)".contains("the book has 1000001 sheets; a book holds at most 1000000"), "\($0)")
        }
        XCTAssertEqual(try store.load().sheets.count, BookRecords.maximumSheets, "the saved book is kept")
    }

    // MARK: - Torn and damaged records

    /// The book after three saves, and the offset where the last save's record begins.
    private func threeSaves() throws -> (before: Sketchbook, after: Sketchbook, lastRecord: Int) {
        var random = SeededRandom(state: 11)
        var book = Sketchbook()
        book.append(stroke(&random))
        let writer = try store.openForWriting()
        try writer.save(book)
        book.append(stroke(&random, points: 3))
        book.insertBlankSheet()
        try writer.save(book)
        let before = book
        let lastRecord = try bytes().count
        book.append(stroke(&random, points: 5))
        try writer.save(book)
        return (before, book, lastRecord)
    }

    func testAJournalTornAtEveryByteOfItsLastRecordOpensAsTheSaveBefore() throws {
        let (before, after, lastRecord) = try threeSaves()
        let whole = try bytes()
        same(try store.load(), after)
        for cut in (lastRecord + 1)..<whole.count {
            try Data(whole[..<cut]).write(to: store.file)
            var warnings: [String] = []
            same(try store.load { warnings.append($0) }, before, "cut at \(cut)")
            XCTAssertEqual(warnings.count, 1)
            XCTAssertTrue(warnings.first?.contains("\(store.file.path): the last save was cut short") == true, "\(warnings)")
            XCTAssertTrue(warnings.first?.contains("from byte \(lastRecord)") == true, "\(warnings)")
            XCTAssertEqual(try bytes().count, cut, "reading changes nothing")

            // A writer drops the incomplete record, and the next save follows the whole ones.
            warnings = []
            var writer: BookWriter? = try store.openForWriting { warnings.append($0) }
            XCTAssertEqual(warnings.count, 1)
            XCTAssertTrue(warnings.first?.contains("it was dropped") == true, "\(warnings)")
            XCTAssertEqual(try bytes(), Array(whole[..<lastRecord]))
            try writer?.save(after)
            writer = nil
            var none: [String] = []
            same(try store.load { none.append($0) }, after)
            XCTAssertEqual(none, [])
        }
    }

    /// Space a crash left allocated but unwritten reads as zeros: dropped like a torn record.
    func testZerosAfterTheLastRecordAreATornTail() throws {
        let (_, after, _) = try threeSaves()
        let handle = try FileHandle(forWritingTo: store.file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(count: 4096))
        try handle.close()
        var warnings: [String] = []
        same(try store.load { warnings.append($0) }, after)
        XCTAssertEqual(warnings.count, 1)
    }

    /// Any one flipped bit, anywhere in the file, is refused with the file and a byte offset, and
    /// the file is left exactly as it was, by readers and writers alike.
    func testABitFlipAnywhereIsRefusedWithFileAndOffset() throws {
        _ = try threeSaves()
        let whole = try bytes()
        let path = store.file.path
        for offset in 0..<whole.count {
            var damaged = whole
            damaged[offset] ^= UInt8(1 << (offset % 8))
            try Data(damaged).write(to: store.file)
            // Writers check the same way; every fifth byte keeps the test quick.
            let opens = [{ _ = try self.store.load() }] + (offset % 5 == 0 ? [{ _ = try self.store.openForWriting() }] : [])
            for open in opens {
                XCTAssertThrowsError(try open(), "bit \(offset % 8) of byte \(offset)") { error in
                    guard case let .damaged(errorPath, reason) = error as? BookError else { return XCTFail("\(error)") }
                    XCTAssertEqual(errorPath, path)
                    XCTAssertTrue(reason.hasPrefix("byte "), reason)
                    XCTAssertTrue("\(error)".hasPrefix("\(path) is damaged and was left untouched: byte "), "\(error)")
                }
            }
            XCTAssertEqual(try bytes(), damaged, "byte \(offset): untouched")
        }
    }

    /// Records that pass their checksums but say impossible things are damage too.
    func testRecordsThatBreakTheRulesAreRefused() throws {
        func file(_ payloads: [(BookJournal.Kind, [UInt8])]) -> [UInt8] {
            payloads.reduce(BookJournal.fileHeader()) { $0 + BookJournal.record($1.0, payload: $1.1) }
        }
        func words(_ values: UInt32...) -> [UInt8] {
            var out = ByteWriter()
            values.forEach { out.u32($0) }
            return out.bytes
        }
        // Typed bytes: Swift 6.2 gives up on long sums of array literals.
        func bytes(_ values: UInt8...) -> [UInt8] { values }
        let emptyBook = words(0, 1, 0)
        var strokeBytes = ByteWriter()
        strokeBytes.u32(0)  // change count patched below
        // One append per case: Swift 6.2 gives up type-checking them as one array literal.
        var cases: [([UInt8], String)] = []
        cases.append((file([(.change, words(0))]), "the first record is not a snapshot"))
        cases.append((file([(.snapshot, emptyBook), (.snapshot, emptyBook)]), "a second snapshot"))
        cases.append((file([(.snapshot, words(0, 0))]), "the book has no sheets"))
        cases.append((file([(.snapshot, words(3, 1, 0))]), "current sheet 3 names no sheet"))
        cases.append((file([(.snapshot, words(0, 2_000_000))]), "sheet count 2000000 is beyond 1000000"))
        cases.append((file([(.snapshot, words(0, 1000))]), "1000 sheets do not fit"))
        cases.append((file([(.snapshot, words(0, 1, 5))]), "5 strokes do not fit"))
        cases.append((file([(.snapshot, emptyBook + [0])]), "1 bytes follow"))
        cases.append((file([(.snapshot, emptyBook), (.change, words(1) + [2] + words(0))]), "removes the only sheet"))
        cases.append((file([(.snapshot, emptyBook), (.change, words(1) + [3] + words(0, 1))]), "stroke count 1 is beyond 0"))
        cases.append((file([(.snapshot, emptyBook), (.change, words(1) + [9] + words(0))]), "unknown change 9"))
        cases.append((file([(.snapshot, emptyBook), (.change, words(1) + [5] + words(1))]), "current sheet 1 is not below 1"))
        cases.append((file([(.snapshot, words(0, 1, 1) + bytes(0, 0, 0, 0) + words(0) + bytes(0, 0, 0, 0, 0, 0, 0x18, 0x40) + words(1) + [UInt8](repeating: 0, count: 8) + bytes(0, 0, 0, 0, 0, 0, 0xF0, 0x7F))]), "not within"))
        cases.append((file([(.snapshot, words(0, 1, 1) + bytes(0, 0, 0, 0) + words(0) + bytes(0, 0, 0, 0, 0, 0, 0xF0, 0xBF) + words(1) + [UInt8](repeating: 0, count: 16))]), "ink width -1"))
        cases.append((file([(.snapshot, words(0, 1, 1) + bytes(0, 8, 0, 0) + words(0) + bytes(0, 0, 0, 0, 0, 0, 0x18, 0x40) + words(1) + [UInt8](repeating: 0, count: 16))]), "sample channels 8"))
        cases.append((file([(.snapshot, words(0, 1, 1) + bytes(0, 0, 0, 0) + words(0x0100_0000) + bytes(0, 0, 0, 0, 0, 0, 0x18, 0x40) + words(1) + [UInt8](repeating: 0, count: 16))]), "is not 0xRRGGBB"))
        cases.append((Array("FolioBk\n".utf8) + words(3) + words(crc32c(Array("FolioBk\n".utf8) + words(3))), "newer Folio (format version 3)"))
        cases.append((Array("FolioBk\n".utf8), "shorter than its 16-byte header"))
        cases.append((Array("{\"format\":1}....".utf8), "wrong magic number"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (data, fragment) in cases {
            try Data(data).write(to: store.file)
            XCTAssertThrowsError(try store.load(), fragment) { error in
                guard case .damaged = error as? BookError else { return XCTFail("\(error)") }
                XCTAssertTrue("\(error)".contains(fragment), "\(error) should say \(fragment)")
            }
        }
        // The same rules hold for a book that loads: one hand-made file, read back.
        try Data(file([(.snapshot, words(0, 2, 0, 0)), (.change, words(1) + [5] + words(1))])).write(to: store.file)
        XCTAssertEqual(try store.load().currentSheet, 1)
    }

    /// Only what this Folio does not know names a newer one: reserved bytes that are not zero in
    /// a record or stroke it knows, and a stroke without points, are said as what they are.
    func testDamageIsNamedAsWhatItIs() throws {
        func words(_ values: UInt32...) -> [UInt8] {
            var out = ByteWriter()
            values.forEach { out.u32($0) }
            return out.bytes
        }
        func stroke(_ head: [UInt8], points: UInt32) -> [UInt8] {
            head + words(0) + [0, 0, 0, 0, 0, 0, 0x18, 0x40] + words(points) + [UInt8](repeating: 0, count: 16 * Int(points))
        }
        let snapshot = BookJournal.record(.snapshot, payload: words(0, 1, 0))
        func recordWith(byte: Int, _ value: UInt8) -> [UInt8] {
            var record = snapshot
            record[byte] = value
            return withChecksumsFixed(BookJournal.fileHeader() + record)
        }
        let book = { (payload: [UInt8]) in BookJournal.fileHeader() + BookJournal.record(.snapshot, payload: payload) }
        let cases: [([UInt8], String)] = [
            (recordWith(byte: 6, 1), "byte 16: a record's reserved bytes are 0, 1, 0, not zero"),
            (recordWith(byte: 4, 3), "byte 16: a record of unknown kind 3 (written by a newer Folio?)"),
            (book(words(0, 1, 1) + stroke([0, 0, 0, 1], points: 1)), "byte 16: sheet 1, stroke 1: reserved bytes 0x100 are not zero"),
            (book(words(0, 1, 1) + stroke([1, 0, 0, 0], points: 1)), "byte 16: sheet 1, stroke 1: a stroke of kind 1 with sample channels 0 (written by a newer Folio?)"),
            (book(words(0, 1, 1) + stroke([0, 0, 0, 0], points: 0)), "byte 16: sheet 1, stroke 1 has no points"),
            (book(words(0, 1, 2) + stroke([0, 0, 0, 0], points: 1) + stroke([0, 0, 0, 0], points: 0)), "byte 16: sheet 1, stroke 2 has no points"),
            (book(words(0, 1, 1) + [0, 0, 0, 0, 0, 0]), "byte 16: sheet 1: 1 stroke does not fit in the record"),
            (book(words(0, 1, 1) + Array(stroke([0, 0, 0, 0], points: 2).dropLast(16))), "byte 16: sheet 1, stroke 1: 2 points do not fit in the record"),
            (BookJournal.fileHeader() + snapshot + BookJournal.record(.change, payload: words(1) + [4] + words(0, 1) + stroke([0, 0, 0, 0], points: 0)),
             "byte 44: sheet 1, stroke 1 has no points"),
        ]
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (data, expected) in cases {
            try Data(data).write(to: store.file)
            XCTAssertThrowsError(try store.load(), expected) { error in
                guard case .damaged = error as? BookError else { return XCTFail("\(error)") }
                XCTAssertTrue("\(error)".hasSuffix("is damaged and was left untouched: " + expected), "\(error) should say \(expected)")
            }
        }
    }

    // MARK: - Migration from version 1

    private func versionOneBooks() -> [Sketchbook] {
        var random = SeededRandom(state: 19)
        var many = Sketchbook()
        for sheet in 0..<6 {
            if sheet > 0 { many.insertBlankSheet() }
            for _ in 0..<(sheet * 3) { many.append(stroke(&random)) }
        }
        many.goToSheet(2)
        var tap = Sketchbook()
        tap.append(Stroke(points: [Point(x: -1_000_000, y: 1_000_000)], style: InkStyle(width: 0.001, color: 0xFFFFFF)))
        return [Sketchbook(), many, tap, Sketchbook(sheets: [Sheet(), Sheet(), Sheet()], currentSheet: 2)]
    }

    func testVersionOneBooksOpenAndMigrateWithoutLoss() throws {
        for (index, book) in versionOneBooks().enumerated() {
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try VersionOneBooks.encode(book).write(to: store.legacyFile)
            same(try store.load(), book, "read as it is, book \(index)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: store.file.path), "readers do not migrate")

            let writer = try store.openForWriting()
            same(writer.book, book, "book \(index)")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), [".folio.lock", "book.folio"],
                           "book \(index): migrated, the original removed once the new file is durable")
            same(try store.load(), book, "book \(index) after migration")
            var changed = book
            changed.append(Stroke(points: [Point(x: 1, y: 2)]))
            try writer.save(changed)
            same(try store.load(), changed)
        }
    }

    /// A migration that cannot finish (a full disk) leaves the version-1 book as it was.
    func testAFailedMigrationKeepsTheOriginal() throws {
        let book = versionOneBooks()[1]
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let original = try VersionOneBooks.encode(book)
        try original.write(to: store.legacyFile)
        signal(SIGXFSZ, SIG_IGN)
        var saved = rlimit()
        getrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
        var small = saved
        small.rlim_cur = 64
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &small)
        XCTAssertThrowsError(try store.openForWriting()) { error in
            guard case .io = error as? BookError else { return XCTFail("\(error)") }
        }
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
        XCTAssertEqual(try Data(contentsOf: store.legacyFile), original)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), [".folio.lock", "book.json"])
        same(try store.openForWriting().book, book, "migrated once there is room")
    }

    /// A full disk during an append: the save fails, the journal is as before, and the next
    /// save (with room again) writes the same changes.
    func testAFullDiskLosesNothing() throws {
        var random = SeededRandom(state: 23)
        var book = Sketchbook()
        book.append(stroke(&random))
        let writer = try store.openForWriting()
        try writer.save(book)
        let before = try bytes()
        book.append(stroke(&random, points: 2000))
        signal(SIGXFSZ, SIG_IGN)
        var saved = rlimit()
        getrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
        var small = saved
        small.rlim_cur = rlim_t(before.count + 100)
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &small)
        XCTAssertThrowsError(try writer.save(book)) { XCTAssertTrue("\($0)".contains("the previous save is kept"), "\($0)") }
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
        XCTAssertEqual(try bytes(), before, "a partial record is taken back")
        try writer.save(book)
        same(try store.load(), book)
    }

    /// A loader fed mutated files loads them or reports them damaged: never a crash, a hang or
    /// another error. Seeded, so every run tries the same inputs (`make fuzz` runs libFuzzer).
    func testFuzzedJournalsAreLoadedOrReportedDamaged() throws {
        _ = try threeSaves()
        let valid = try bytes()
        var random = SeededRandom(state: 0xF00D)
        for _ in 0..<6000 {
            var data = valid
            for _ in 0...random.next(4) where !data.isEmpty {
                let at = random.next(data.count)
                switch random.next(4) {
                case 0: data.remove(at: at)
                case 1: data.insert(UInt8(random.next(256)), at: at)
                case 2: data[at] = UInt8(random.next(256))
                default: data.removeSubrange(at...)
                }
            }
            // Half the inputs get their checksums made right, so they reach the record decoders.
            if random.next(2) == 0 { data = withChecksumsFixed(data) }
            do {
                let (pages, _, _) = try BookStore.decodeJournal(data, path: "fuzz.folio")
                XCTAssertTrue((0..<pages.sheets.count).contains(pages.current))
            } catch let error as BookError {
                guard case .damaged = error else { return XCTFail("\(error)") }
            }
        }
    }
}
