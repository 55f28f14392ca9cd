@testable import FolioShelf
import Foundation
import XCTest

/// `folio books`, a process of its own, repairs a stale index in `shelf.json` while the app
/// renames and recolours the book: whatever the timing, the app's change stays.
final class ListingRaceTests: ShelfTestCase {
    /// The `folio` binary SwiftPM built beside this test executable.
    private var folio: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("folio")
    }

    func testFolioBooksNeverLosesARenameOrRecolourMadeMeanwhile() throws {
        let app = try library()
        let book = try app.createBook()
        // A book that takes a while to read: the listing's read and write are far apart.
        try save(Self.book(strokes: 3000), in: book.path)
        let listingTime = try measure(listing(), touching: book.path, round: -1)
        var lost: [String] = []
        var generator = SystemRandomNumberGenerator()
        for round in 0..<20 {
            touch(book.path, round: round)
            let listing = listing()
            try listing.run()
            // At any moment of the listing's run, most of which is reading the book.
            usleep(UInt32.random(in: 0...UInt32(listingTime * 1e6), using: &generator))
            let name = "Round \(round)", color = UInt32(round * 0x10101)
            if round % 2 == 0 { try app.rename(id: book.id, to: name) } else { try app.setCoverColor(id: book.id, color) }
            listing.waitUntilExit()
            XCTAssertEqual(listing.terminationStatus, 0)
            let entry = try XCTUnwrap(ShelfEntry.read(in: book.path))
            if round % 2 == 0, entry.name != name { lost.append("rename to \(name), found \(entry.name)") }
            if round % 2 == 1, entry.coverColor != color { lost.append("colour \(color), found \(entry.coverColor)") }
        }
        XCTAssertEqual(lost, [], "changes the listing wrote over")
        app.close()
    }

    private func listing() -> Process {
        let listing = Process()
        listing.executableURL = folio
        listing.arguments = ["books"]
        listing.environment = ProcessInfo.processInfo.environment.merging(["XDG_DATA_HOME": (data as NSString).deletingLastPathComponent]) { $1 }
        listing.standardOutput = FileHandle.nullDevice
        return listing
    }

    /// A new modification time for the book: a listing finds its index stale and writes it again.
    private func touch(_ folder: String, round: Int) {
        var times = [timespec(tv_sec: 1_795_780_800 + round, tv_nsec: 0), timespec(tv_sec: 1_795_780_800 + round, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, folder + "/book.folio", &times, 0), 0)
    }

    /// How long `listing` takes, alone, to list the book in `folder` made stale.
    private func measure(_ listing: Process, touching folder: String, round: Int) throws -> Double {
        touch(folder, round: round)
        let started = Date()
        try listing.run()
        listing.waitUntilExit()
        return Date().timeIntervalSince(started)
    }
}
