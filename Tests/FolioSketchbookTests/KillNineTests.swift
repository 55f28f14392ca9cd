import FolioGeometry
import FolioTestSupport
import Foundation
import XCTest
@testable import FolioSketchbook

/// kill -9 in the middle of saving: a child process (this test bundle, running
/// `testWriterUntilKilled`) appends big records one after another — two strokes of 100,000
/// points, about 3.2 MB each, as the app appends them, with a sync now and then and the
/// compactions they bring — and says after each append how many saves are in the book; the
/// parent kills it, either the moment it sees the file grow (inside a `pwrite`, which a kill
/// cuts short) or at a random moment, and checks the book.
final class KillNineTests: XCTestCase {
    private static let childVariable = "FOLIO_TEST_WRITE_UNTIL_KILLED"
    private static let bigStrokes = 2
    private static let bigPoints = 100_000

    /// The book after `saves` saves: one small stroke per save (its y is the save's number), then
    /// the big strokes of the last save (their first x is the number of saves).
    private static func book(after saves: Int) -> Sketchbook {
        let small = (0..<saves).map { Stroke(points: [Point(x: 1, y: Double($0)), Point(x: 2, y: Double($0))]) }
        let big = saves == 0 ? [] : (0..<bigStrokes).map { k in
            Stroke(points: (0..<bigPoints).map { Point(x: $0 == 0 ? Double(saves) : Double(k), y: Double($0 % 997)) })
        }
        return Sketchbook(sheets: [Sheet(strokes: small + big)])
    }

    /// How many saves the book holds, checking it is one `book(after:)` gives.
    private static func saves(in book: Sketchbook) -> Int? {
        let strokes = book.sheet.strokes
        guard strokes.count != 0 else { return 0 }
        let saves = strokes.count - bigStrokes
        guard saves > 0, strokes.last?.points.first?.x == Double(saves),
              strokes.prefix(saves).enumerated().allSatisfy({ $0.element.points.first?.y == Double($0.offset) }) else { return nil }
        return saves
    }

    /// The child's work; as a test of its own (no variable set) it checks that the writer it
    /// drives saves at all.
    func testWriterUntilKilled() throws {
        let environment = ProcessInfo.processInfo.environment
        let isChild = environment[Self.childVariable] != nil
        let folder = environment[Self.childVariable].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("folio-kill-\(UUID().uuidString)")
        defer { if !isChild { try? FileManager.default.removeItem(at: folder) } }
        let writer = try BookStore(directory: folder).openForWriting()
        var saved = try XCTUnwrap(Self.saves(in: writer.book))
        let started = Date()
        // The parent kills the child within a second; as a plain test a few saves will do.
        while Date().timeIntervalSince(started) < (isChild ? 30 : 0.2) {
            let next = Self.book(after: saved + 1)
            try writer.append(next)
            if saved % 8 == 7 { try writer.sync() }
            saved += 1
            FileHandle.standardOutput.write(Data("saved \(saved)\n".utf8))
        }
        try writer.sync()
        XCTAssertEqual(Self.saves(in: try BookStore(directory: folder).load()), saved)
    }

    func testKillNineWhileSavingLosesNothingSaved() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-kill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = BookStore(directory: folder)
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var random = SystemRandomNumberGenerator()
        var saved = 0, tornTails = 0, leftTemporaries = 0, killsOnGrowth = 0
        // Twelve rounds (four under a sanitizer); a busy machine may let every kill miss the
        // writes, so up to 24 while no kill has torn a record.
        var rounds = 0
        let minimum = TestBudget.rounds(12, sanitized: 4)
        while rounds < minimum || (tornTails == 0 && rounds < 24) {
            let round = rounds
            rounds += 1
            let child = Process()
            child.executableURL = bundle
            child.arguments = ["FolioSketchbookTests.KillNineTests/testWriterUntilKilled"]
            child.environment = ProcessInfo.processInfo.environment.merging([Self.childVariable: folder.path]) { $1 }
            let output = Pipe()
            child.standardOutput = output
            child.standardError = FileHandle.nullDevice
            try child.run()
            // Past its start-up (it opens the book), then the kill.
            let reader = output.fileHandleForReading
            var text = ""
            while !text.contains("saved ") {
                let chunk = reader.availableData
                guard !chunk.isEmpty else { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            if round % 3 != 2 {
                // The moment the file grows: the child is inside a pwrite of a record.
                let start = fileSize(store.file.path)
                let deadline = Date().addingTimeInterval(2)
                while fileSize(store.file.path) <= start, Date() < deadline {}
                killsOnGrowth += 1
            } else {
                usleep(UInt32.random(in: 0...300_000, using: &random))
            }
            kill(child.processIdentifier, SIGKILL)
            text += String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
            child.waitUntilExit()
            XCTAssertEqual(child.terminationReason, .uncaughtSignal, "round \(round): killed, not finished")
            // The last whole line the child wrote followed an append that had returned.
            let lines = text.split(separator: "\n").filter { $0.hasPrefix("saved ") }
            let reported = lines.last.flatMap { Int($0.dropFirst(6)) } ?? saved
            XCTAssertGreaterThanOrEqual(reported, saved, "round \(round)")

            if try FileManager.default.contentsOfDirectory(atPath: folder.path).contains(where: { $0.hasSuffix(".tmp") }) {
                leftTemporaries += 1
            }
            var warnings: [String] = []
            let book = try store.load { warnings.append($0) }
            let inBook = try XCTUnwrap(Self.saves(in: book), "round \(round): the book is one that was saved")
            XCTAssertTrue(inBook == reported || inBook == reported + 1,
                          "round \(round): \(inBook) saves in the book, \(reported) reported saved")
            saved = inBook
            // The next writer drops a torn last record, truncates the file there and leaves no temporary file.
            var dropped: [String] = []
            _ = try store.openForWriting { dropped.append($0) }
            if let torn = warnings.first {
                tornTails += 1
                XCTAssertTrue(torn.contains("the last save was cut short"), torn)
                XCTAssertEqual(dropped.count, 1, "round \(round)")
                XCTAssertTrue(dropped.first?.contains("it was dropped") == true, "\(dropped)")
            } else {
                XCTAssertEqual(dropped, [], "round \(round)")
            }
            let bytes = try XCTUnwrap(try BookStore.readFile(store.file.path))
            XCTAssertNil(try bytes.withUnsafeBytes { try BookJournal.scan($0, path: store.file.path) }.torn,
                         "round \(round): the torn record is gone from the file")
            XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: folder.path).contains(where: { $0.hasSuffix(".tmp") }),
                           "round \(round)")
        }
        print("kill -9 while saving: \(rounds) kills (\(killsOnGrowth) the moment the file grew), \(saved) saves kept; "
              + "\(tornTails) torn last records dropped and truncated, \(leftTemporaries) compaction temporaries left and removed")
        XCTAssertGreaterThanOrEqual(tornTails, 1, "at least one kill landed inside a save")
    }

    private func fileSize(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : -1
    }
}
