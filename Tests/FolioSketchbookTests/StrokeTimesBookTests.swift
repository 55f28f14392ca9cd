import FolioGeometry
import Foundation
import FolioRandom
import XCTest
@testable import FolioSketchbook

/// When strokes were drawn, in `book.folio` (sample channel bit 2, docs/book-format.md): kept
/// to the millisecond through snapshots, saves and lasso moves; books without it load as before;
/// out-of-range times are refused with the file and the record's offset.
final class StrokeTimesBookTests: XCTestCase {
    private var folder: URL!
    private var store: BookStore { BookStore(directory: folder) }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-times-book-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func timedStroke(_ random: inout SeededRandom) -> Stroke {
        let count = 1 + random.next(40)
        let points = (0..<count).map { _ in Point(x: Double(random.next(2000)), y: Double(random.next(1500))) }
        var times = StrokeTimes(startingAt: 1_700_000_000 + random.unit() * 1_000_000)
        var elapsed = 0.0
        for _ in 1..<count {
            elapsed += random.unit() * 0.1
            times.add(after: elapsed)
        }
        return Stroke(points: points, style: InkStyle(width: 6, color: UInt32(random.next(0x100_0000))), times: times)
    }

    func testTimesAreKeptInWholeMillisecondsNeverGoingBack() {
        var times = StrokeTimes(startingAt: 10)
        times.add(after: 0.0124)
        times.add(after: 0.005)  // a clock stepping back keeps the point before's time
        times.add(after: .nan)
        times.add(after: 1e12)
        XCTAssertEqual(times.offsets, [0, 12, 12, 12, UInt32.max])
        XCTAssertTrue(times.isValid(forPoints: 5))
        XCTAssertFalse(times.isValid(forPoints: 4))
        XCTAssertEqual(StrokeTimes(startingAt: -5).start, 0)
        XCTAssertEqual(StrokeTimes(startingAt: .infinity).start, StrokeTimes.starts.upperBound)
        XCTAssertEqual(StrokeTimes(start: 3, offsets: [0, 300]).spread(over: 4).offsets, [0, 100, 200, 300])
        XCTAssertEqual(StrokeTimes(start: 3, offsets: [0, 300]).spread(over: 1).offsets, [0])
    }

    func testTimedStrokesRoundTripThroughSnapshotsAndSaves() throws {
        var random = SeededRandom(state: 26)
        for round in 0..<10 {
            try? FileManager.default.removeItem(at: folder)
            var book = Sketchbook()
            for _ in 0..<(1 + random.next(6)) { book.append(timedStroke(&random)) }
            book.append(Stroke(points: [Point(x: 1, y: 1), Point(x: 5, y: 5)]))  // one kept before times
            let writer = try store.openForWriting()
            try writer.save(book)
            for _ in 0..<(1 + random.next(4)) { book.append(timedStroke(&random)) }
            try writer.save(book)
            // A lasso move is a change 6: the moved strokes keep their times.
            XCTAssertTrue(book.move([0], by: Point(x: 7, y: -3)))
            try writer.save(book)
            let loaded = try store.load()
            XCTAssertEqual(loaded.sheets.map(\.strokes), book.sheets.map(\.strokes), "round \(round)")
            XCTAssertNotNil(loaded.sheet.strokes[0].times)
            XCTAssertNil(loaded.sheet.strokes.first { $0.points.count == 2 && $0.points[0] == Point(x: 1, y: 1) }?.times)
        }
    }

    func testAStrokeWithoutTimesIsWrittenAsBeforeAndOneWithThemAddsTheChannel() throws {
        let plain = Stroke(points: [Point(x: 1, y: 2), Point(x: 3, y: 4)])
        let payload = try BookRecords.snapshot(Sketchbook(sheets: [Sheet(strokes: [plain])], currentSheet: 0))
        XCTAssertEqual(payload.count, 12 + 20 + 32)
        var timed = plain
        timed.times = StrokeTimes(start: 1.5, offsets: [0, 16])
        let bytes = try BookRecords.snapshot(Sketchbook(sheets: [Sheet(strokes: [timed])], currentSheet: 0))
        XCTAssertEqual(bytes[13], 0b100, "bit 2")
        XCTAssertEqual(Array(bytes[(12 + 20 + 32)...]), [0, 0, 0, 0, 0, 0, 0xF8, 0x3F, 0, 0, 0, 0, 16, 0, 0, 0])
        // Times that do not fit the points are not kept.
        timed.times = StrokeTimes(start: 1.5, offsets: [5, 16])
        XCTAssertEqual(try BookRecords.snapshot(Sketchbook(sheets: [Sheet(strokes: [timed])], currentSheet: 0)), payload)
    }

    func testAMoveOfAStrokeWithOtherTimesIsNotAMove() {
        let a = Stroke(points: [Point(x: 1, y: 2), Point(x: 3, y: 4)], times: StrokeTimes(start: 1, offsets: [0, 5]))
        var b = a.moved(by: Point(x: 10, y: 0))
        XCTAssertTrue(a.isMove(to: b))
        b.times?.start = 2
        XCTAssertFalse(a.isMove(to: b))
    }

    func testDamagedTimesAreRefusedWithFileAndOffset() throws {
        let stroke = Stroke(points: [Point(x: 10, y: 10), Point(x: 20, y: 12), Point(x: 30, y: 10)],
                            times: StrokeTimes(start: 1_700_000_000, offsets: [0, 8, 20]))
        let good = try BookRecords.snapshot(Sketchbook(sheets: [Sheet(strokes: [stroke])], currentSheet: 0))
        let start = 12 + 20 + 3 * 16, offsets = start + 8
        XCTAssertEqual(good.count, offsets + 12)
        func f64(_ value: Double) -> [UInt8] { withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) } }
        func u32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        func with(_ at: Int, _ replacement: [UInt8], truncate: Int? = nil) -> [UInt8] {
            var bytes = good
            bytes.replaceSubrange(at..<(at + replacement.count), with: replacement)
            return truncate.map { Array(bytes.prefix($0)) } ?? bytes
        }
        let cases: [([UInt8], String)] = [
            (with(start, f64(.nan)), "start time nan is not within 0 to 253402300799 seconds"),
            (with(start, f64(-1)), "start time -1.0 is not within"),
            (with(start, f64(253_402_300_800)), "start time 253402300800.0 is not within"),
            (with(offsets, u32(3)), "point 1 is at 3 ms, not 0"),
            (with(offsets + 8, u32(7)), "point 3 at 7 ms comes before point 2 at 8 ms"),
            (with(0, [], truncate: offsets + 4), "3 times do not fit in the record"),
            (with(0, [], truncate: start + 4), "the record ends early"),
            (with(13, [0b1100]), "sample channels 12 (written by a newer Folio?)"),
        ]
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = store.file.path
        for (payload, fragment) in cases {
            let file = BookJournal.fileHeader() + BookJournal.record(.snapshot, payload: payload)
            try Data(file).write(to: store.file)
            for open in [{ _ = try self.store.load() }, { _ = try self.store.openForWriting() }] {
                XCTAssertThrowsError(try open(), fragment) { error in
                    guard case .damaged = error as? BookError else { return XCTFail("\(error)") }
                    XCTAssertTrue("\(error)".hasPrefix("\(path) is damaged and was left untouched: byte 16: sheet 1, stroke 1"), "\(error)")
                    XCTAssertTrue("\(error)".contains(fragment), "\(error) should say \(fragment)")
                }
            }
            XCTAssertEqual([UInt8](try Data(contentsOf: store.file)), file, "left untouched")
        }
        try Data(BookJournal.fileHeader() + BookJournal.record(.snapshot, payload: good)).write(to: store.file)
        XCTAssertEqual(try store.load().sheet.strokes, [stroke])
    }
}
