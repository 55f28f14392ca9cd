@testable import FolioShelf
import FolioFiles
import Foundation
import XCTest

/// A second library (`folio books`) listing the shelf while the app makes a book: it may find the
/// new book's folder before the maker's `shelf.json` is in it.
final class ConcurrentListingTests: ShelfTestCase {
    func testAListerFindingABookStillBeingMadeWritesNothingIntoIt() throws {
        let running = try library()
        // The maker's folder, made; its entry not yet written.
        let id = "20261127-120500-0badc0de", folder = data + "/books/" + id
        XCTAssertEqual(mkdir(folder, 0o700), 0)
        let lister = try library()
        XCTAssertEqual(lister.books.map(\.id), [id], "listed as it is")
        lister.close()
        XCTAssertFalse(BookFiles.isRegularFile(folder + "/shelf.json"),
                       "an entry written by the lister could land after the maker's and replace its name and colour")
        // A book folder made by hand (a book file, no entry) still gets its entry written.
        let other = try running.createBook()
        try FileManager.default.removeItem(atPath: other.path + "/shelf.json")
        try save(Self.book(strokes: 2), in: other.path)
        let again = try library()
        XCTAssertEqual(again.books.first { $0.id == other.id }?.strokes, 2)
        again.close()
        XCTAssertTrue(BookFiles.isRegularFile(other.path + "/shelf.json"))
        running.close()
    }
}
