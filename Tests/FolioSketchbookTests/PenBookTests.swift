import FolioGeometry
import Foundation
import FolioRandom
import XCTest
@testable import FolioSketchbook

/// A pen's pressure, its curve and its tilt in `book.folio` (the stroke's sample channels,
/// docs/book-format.md): kept in the tablet's own steps, read back exactly, and refused when a
/// record says something out of range.
final class PenBookTests: XCTestCase {
    private var folder: URL!
    private var store: BookStore { BookStore(directory: folder) }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-pen-book-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A stroke with pressure, tilt, both or neither, as the live app keeps them.
    private func stroke(_ random: inout SeededRandom) -> Stroke {
        let count = 1 + random.next(60)
        let points = (0..<count).map { _ in Point(x: Double(random.next(4000)) / 4 - 300, y: Double(random.next(3000)) / 8) }
        var stroke = Stroke(points: points, style: InkStyle(width: [6, 0.5, 1000][random.next(3)], color: UInt32(random.next(0x100_0000))))
        if random.next(3) > 0 {
            stroke.pressures = (0..<count).map { _ in Stroke.kept(pressure: [0, 1, random.unit()][random.next(3)]) }
            let minimum = 0.5 + random.unit() * 20
            stroke.pressureCurve = PressureCurve(minimum: minimum, maximum: minimum + random.unit() * 80, exponent: 0.1 + random.unit() * 9.9)
        }
        if random.next(2) > 0 {
            stroke.tilts = (0..<count).map { _ in Stroke.kept(tilt: PenTilt(x: random.unit() * 180 - 90, y: [-90, 90, random.unit() * 180 - 90][random.next(3)])) }
        }
        return stroke
    }

    func testPressureAndTiltAreKeptInTheTabletsSteps() {
        XCTAssertEqual(Stroke.kept(pressure: 0), 0)
        XCTAssertEqual(Stroke.kept(pressure: 1), 1)
        XCTAssertEqual(Stroke.kept(pressure: 1.5), 1)
        XCTAssertEqual(Stroke.kept(pressure: -0.5), 0)
        XCTAssertEqual(Stroke.kept(pressure: .nan), 0)
        XCTAssertEqual(Stroke.kept(tilt: PenTilt(x: 10.3, y: -5)), PenTilt(x: 10.30078125, y: -5))
        var random = SeededRandom(state: 3)
        for _ in 0..<10_000 {
            // What tablet-v2 sends is kept exactly; anything else moves less than half a step, once.
            let raw = random.next(65536)
            XCTAssertEqual(Stroke.kept(pressure: Double(raw) / 65535), Double(raw) / 65535)
            let p = random.unit(), kept = Stroke.kept(pressure: p)
            XCTAssertEqual(kept, p, accuracy: 0.5 / 65535)
            XCTAssertEqual(Stroke.kept(pressure: kept), kept)
            let tilt = PenTilt(x: random.unit() * 180 - 90, y: random.unit() * 180 - 90), keptTilt = Stroke.kept(tilt: tilt)
            XCTAssertEqual(keptTilt.x, tilt.x, accuracy: 0.5 / 256)
            XCTAssertEqual(Stroke.kept(tilt: keptTilt), keptTilt)
        }
    }

    func testRandomPenStrokesRoundTripThroughSnapshotsAndSaves() throws {
        var random = SeededRandom(state: 13)
        for round in 0..<20 {
            try? FileManager.default.removeItem(at: folder)
            var book = Sketchbook()
            for _ in 0..<(1 + random.next(8)) { book.append(stroke(&random)) }
            let writer = try store.openForWriting()
            try writer.save(book)  // the snapshot
            for _ in 0..<(1 + random.next(5)) { book.append(stroke(&random)) }
            try writer.save(book)  // a changes record
            let loaded = try store.load()
            XCTAssertEqual(loaded.sheets.map(\.strokes), book.sheets.map(\.strokes), "round \(round)")
        }
        // Many more straight through the snapshot coding.
        for _ in 0..<500 {
            let book = Sketchbook(sheets: [Sheet(strokes: (0..<(1 + random.next(4))).map { _ in stroke(&random) })], currentSheet: 0)
            let payload = try BookRecords.snapshot(book)
            let pages = try payload.withUnsafeBytes { bytes in
                var reader = ByteReader(bytes)
                return try BookRecords.readSnapshot(&reader)
            }
            XCTAssertEqual(pages.sheets.elements.map(\.strokes), book.sheets.map(\.strokes))
        }
    }

    func testAStrokeWithoutChannelsIsWrittenAsBefore() throws {
        let plain = Stroke(points: [Point(x: 1, y: 2), Point(x: 3, y: 4)])
        let payload = try BookRecords.snapshot(Sketchbook(sheets: [Sheet(strokes: [plain])], currentSheet: 0))
        XCTAssertEqual(payload.count, 12 + 20 + 32, "no channel bytes")
        XCTAssertEqual(payload[13], 0, "no channels")
        // Pressures that do not match the points are not a channel: the ink is the fixed width.
        var odd = plain
        odd.pressures = [0.5]
        odd.tilts = [PenTilt(x: 1, y: 1)]
        XCTAssertEqual(try BookRecords.snapshot(Sketchbook(sheets: [Sheet(strokes: [odd])], currentSheet: 0)), payload)
    }

    /// One pen stroke of three points with pressure and tilt, as a snapshot payload, and where
    /// its fields are: the channel byte, the curve, the pressures and the tilts.
    private func penPayload() throws -> (bytes: [UInt8], channels: Int, curve: Int, pressures: Int, tilts: Int) {
        var stroke = Stroke(points: [Point(x: 10, y: 10), Point(x: 20, y: 12), Point(x: 30, y: 10)],
                            pressures: [0, 0.5, 1].map(Stroke.kept(pressure:)),
                            tilts: [PenTilt(x: 0, y: 0), PenTilt(x: 45, y: -45), PenTilt(x: 90, y: -90)])
        stroke.pressureCurve = PressureCurve(minimum: 1, maximum: 12, exponent: 2)
        let bytes = try BookRecords.snapshot(Sketchbook(sheets: [Sheet(strokes: [stroke])], currentSheet: 0))
        let channels = 12 + 1, curve = 12 + 20 + 3 * 16, pressures = curve + 24, tilts = pressures + 3 * 2
        XCTAssertEqual(bytes.count, tilts + 3 * 4)
        XCTAssertEqual(bytes[channels], 0b11)
        return (bytes, channels, curve, pressures, tilts)
    }

    func testDamagedChannelsAreRefusedWithFileAndOffset() throws {
        let pen = try penPayload()
        func f64(_ value: Double) -> [UInt8] { withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) } }
        func with(_ at: Int, _ replacement: [UInt8], truncate: Int? = nil) -> [UInt8] {
            var bytes = pen.bytes
            bytes.replaceSubrange(at..<(at + replacement.count), with: replacement)
            return truncate.map { Array(bytes.prefix($0)) } ?? bytes
        }
        let cases: [([UInt8], String)] = [
            (with(pen.channels, [0b1111]), "sample channels 15 (written by a newer Folio?)"),
            (with(pen.channels, [0x80]), "sample channels 128"),
            (with(pen.tilts + 2, [0x01, 0x5A]), "tilt 0.0, 90.00390625 at point 1 is beyond ±90 degrees"),
            (with(pen.tilts + 8, [0xFF, 0xA5]), "tilt -90.00390625, -90.0 at point 3 is beyond ±90 degrees"),
            (with(pen.curve, f64(0.25)), "pressure curve 0.25 to 12.0 px, exponent 2.0, is out of range"),
            (with(pen.curve, f64(20)), "pressure curve 20.0 to 12.0 px"),
            (with(pen.curve + 8, f64(101)), "pressure curve 1.0 to 101.0 px"),
            (with(pen.curve + 16, f64(.nan)), "exponent nan"),
            (with(pen.curve + 16, f64(11)), "exponent 11.0"),
            (with(0, [], truncate: pen.pressures + 4), "3 pressures do not fit in the record"),
            (with(0, [], truncate: pen.tilts + 8), "3 tilts do not fit in the record"),
            (with(0, [], truncate: pen.curve + 20), "the record ends early"),
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
        // The undamaged payload reads back as the stroke it was.
        try Data(BookJournal.fileHeader() + BookJournal.record(.snapshot, payload: pen.bytes)).write(to: store.file)
        let stroke = try store.load().sheet.strokes[0]
        XCTAssertEqual(stroke.pressures, [0, 0.5, 1].map(Stroke.kept(pressure:)))
        XCTAssertEqual(stroke.tilts?.last, PenTilt(x: 90, y: -90))
        XCTAssertEqual(stroke.pressureCurve, PressureCurve(minimum: 1, maximum: 12, exponent: 2))
    }

    /// A single flipped bit in a channel is refused like one anywhere else (its checksum).
    func testAFlippedBitInAChannelIsRefused() throws {
        let pen = try penPayload()
        let file = BookJournal.fileHeader() + BookJournal.record(.snapshot, payload: pen.bytes)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for at in [pen.channels, pen.curve, pen.pressures + 1, pen.tilts + 3] {
            var damaged = file
            damaged[16 + 12 + at] ^= 0x10
            try Data(damaged).write(to: store.file)
            XCTAssertThrowsError(try store.load()) { error in
                XCTAssertTrue("\(error)".contains("byte 16: a record's checksum does not match"), "\(error)")
            }
        }
    }
}
