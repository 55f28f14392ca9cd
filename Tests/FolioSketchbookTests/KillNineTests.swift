import FolioGeometry
import Foundation
import XCTest
@testable import FolioSketchbook

/// kill -9 in the middle of saving: a child process (this test bundle, running
/// `testWriterUntilKilled`) saves stroke after stroke — appends, new sheets and the compactions
/// they bring — and says after each save how many strokes are saved; the parent kills it at a
/// random moment and checks the book.
final class KillNineTests: XCTestCase {
    private static let childVariable = "FOLIO_TEST_WRITE_UNTIL_KILLED"

    /// The child's work; as a test of its own (no variable set) it checks that the writer it
    /// drives saves at all.
    func testWriterUntilKilled() throws {
        let environment = ProcessInfo.processInfo.environment
        let isChild = environment[Self.childVariable] != nil
        let folder = environment[Self.childVariable].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("folio-kill-\(UUID().uuidString)")
        defer { if !isChild { try? FileManager.default.removeItem(at: folder) } }
        let writer = try BookStore(directory: folder).openForWriting()
        var book = writer.book
        var saved = book.sheets.reduce(0) { $0 + $1.strokes.count }
        let started = Date()
        // The parent kills the child within seconds; as a plain test a few saves will do.
        while Date().timeIntervalSince(started) < (isChild ? 30 : 0.2) {
            let y = Double(saved % 500)
            book.append(Stroke(points: (0..<300).map { Point(x: Double($0), y: y + Double($0 % 7)) }))
            if saved % 40 == 39 { book.insertBlankSheet() }
            try writer.save(book)
            saved += 1
            FileHandle.standardOutput.write(Data("saved \(saved)\n".utf8))
        }
        XCTAssertEqual(try BookStore(directory: folder).load().sheets.reduce(0) { $0 + $1.strokes.count }, saved)
    }

    func testKillNineWhileSavingLosesNothingSaved() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-kill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = BookStore(directory: folder)
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var random = SystemRandomNumberGenerator()
        var saved = 0, tornTails = 0, leftTemporaries = 0
        for round in 0..<15 {
            let child = Process()
            child.executableURL = bundle
            child.arguments = ["FolioSketchbookTests.KillNineTests/testWriterUntilKilled"]
            child.environment = ProcessInfo.processInfo.environment.merging([Self.childVariable: folder.path]) { $1 }
            let output = Pipe()
            child.standardOutput = output
            child.standardError = FileHandle.nullDevice
            try child.run()
            // Past its start-up (opening a big book takes a while), then a random moment.
            let reader = output.fileHandleForReading
            var text = ""
            while !text.contains("saved ") {
                let chunk = reader.availableData
                guard !chunk.isEmpty else { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            usleep(UInt32.random(in: 50_000...600_000, using: &random))
            kill(child.processIdentifier, SIGKILL)
            text += String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
            child.waitUntilExit()
            XCTAssertEqual(child.terminationReason, .uncaughtSignal, "round \(round): killed, not finished")
            // The last whole line the child wrote followed a save that had returned.
            let lines = text.split(separator: "\n").filter { $0.hasPrefix("saved ") }
            let reported = lines.last.flatMap { Int($0.dropFirst(6)) } ?? saved
            XCTAssertGreaterThanOrEqual(reported, saved, "round \(round)")

            if try FileManager.default.contentsOfDirectory(atPath: folder.path).contains(where: { $0.hasSuffix(".tmp") }) {
                leftTemporaries += 1
            }
            var warnings: [String] = []
            let book = try store.load { warnings.append($0) }
            tornTails += warnings.count
            let strokes = book.sheets.reduce(0) { $0 + $1.strokes.count }
            XCTAssertTrue(strokes == reported || strokes == reported + 1,
                          "round \(round): \(strokes) strokes in the book, \(reported) reported saved")
            saved = strokes
            // The next writer opens it and leaves no temporary file.
            _ = try store.openForWriting()
            XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: folder.path).contains(where: { $0.hasSuffix(".tmp") }),
                           "round \(round)")
        }
        print("kill -9 while saving: 15 kills, \(saved) strokes saved; \(tornTails) torn last records dropped, "
              + "\(leftTemporaries) snapshot temporaries left and removed")
    }
}
