@testable import FolioShelf
import FolioGeometry
import FolioSketchbook
import Foundation
import XCTest

/// A data folder of its own for each test, and books with strokes to put in it.
class ShelfTestCase: XCTestCase {
    var data: String!
    var warnings: Warnings!

    final class Warnings: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        var all: [String] { lock.withLock { lines } }
        func add(_ line: String) { lock.withLock { lines.append(line) } }
    }

    /// A clock that moves a minute on each call, so books made in a row are in order.
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var time = Date(timeIntervalSince1970: 1_795_780_800) // 2026-11-27 12:00 UTC
        func now() -> Date { lock.withLock { time += 60; return time } }
    }

    override func setUpWithError() throws {
        data = FileManager.default.temporaryDirectory.appendingPathComponent("folio-shelf-\(UUID().uuidString)").path + "/folio"
        warnings = Warnings()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: (data as NSString).deletingLastPathComponent)
    }

    func library(clock: Clock = Clock(), step: (Migration.Step) throws -> Void = { _ in }) throws -> Library {
        let warnings = warnings!
        return try Library(dataFolder: data, now: { clock.now() }, warning: { warnings.add($0) }, coverRefreshed: { _ in },
                           migrationStep: step)
    }

    /// A book of `sheets` sheets, the first with `strokes` strokes and each other with one.
    static func book(strokes: Int, sheets: Int = 1) -> Sketchbook {
        var book = Sketchbook()
        for index in 0..<strokes { book.append(stroke(index)) }
        for index in 1..<max(sheets, 1) {
            book.insertBlankSheet()
            book.append(stroke(index))
        }
        return book
    }

    static func stroke(_ index: Int) -> Stroke {
        let y = Double(40 + (index * 37) % 1100)
        return Stroke(points: (0..<20).map { Point(x: 100 + Double($0) * 60, y: y + Double($0 % 3) * 10) },
                      style: InkStyle(width: 8, color: 0x1A1A1A))
    }

    func save(_ book: Sketchbook, in folder: String) throws {
        try BookStore(directory: URL(fileURLWithPath: folder)).openForWriting().save(book)
    }

    func load(_ folder: String) throws -> Sketchbook {
        try BookStore(directory: URL(fileURLWithPath: folder)).load()
    }
}
