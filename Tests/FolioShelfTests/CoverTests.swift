@testable import FolioShelf
import FolioPixels
import FolioGeometry
import FolioRender
import FolioSketchbook
import Foundation
import XCTest

/// Cover pictures: the first sheet drawn small, kept in the book folder and drawn again when stale.
final class CoverTests: ShelfTestCase {
    /// Dark (ink) pixels in the bitmap.
    private func inked(_ bitmap: Bitmap) -> Int {
        var count = 0
        for y in 0..<bitmap.height {
            let row = (bitmap.pixels + y * bitmap.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<bitmap.width where row[x] & 0xFF < 0x80 { count += 1 }
        }
        return count
    }

    func testABlankBookHasNoCoverPicture() throws {
        let shelf = try library()
        let book = try shelf.createBook()
        XCTAssertNil(shelf.coverPicture(id: book.id))
        shelf.waitForCovers()
        XCTAssertNil(shelf.coverPicture(id: book.id))
        XCTAssertNil(shelf.coverPicture(id: "nope"))
    }

    func testABlankSheetOfRuledPaperHasACoverShowingItsLines() throws {
        let shelf = try library()
        let book = try shelf.createBook()
        let ruled = Sketchbook(sheets: [Sheet(paper: Paper(kind: .ruled, color: 0x3050A0))])
        try save(ruled, in: book.path)
        shelf.bookChanged(id: book.id)
        shelf.waitForCovers()
        let cover = try XCTUnwrap(shelf.coverPicture(id: book.id), "a ruled sheet is not blank")
        var lined = 0
        for y in 0..<cover.height {
            let pixel = (cover.pixels + y * cover.stride).assumingMemoryBound(to: UInt32.self)[cover.width / 2]
            if pixel & 0xFFFFFF != 0xFFFFFF { lined += 1 }
        }
        XCTAssertGreaterThan(lined, 3, "rows of the ruled paper down the cover's middle")
        XCTAssertEqual(try XCTUnwrap(CoverPicture.read(in: book.path)).key, SheetPicture.key(of: [], paper: ruled.sheets[0].paper))
    }

    func testTheCoverIsDrawnInTheBackgroundAndKeptFresh() throws {
        let shelf = try library()
        let book = try shelf.createBook()
        try save(Self.book(strokes: 10, sheets: 2), in: book.path)
        shelf.bookChanged(id: book.id)
        shelf.waitForCovers()
        let first = try XCTUnwrap(shelf.coverPicture(id: book.id))
        XCTAssertEqual([first.width, first.height], [512, 320])
        XCTAssertGreaterThan(inked(first), 500)
        try PNG.write(first, to: (data as NSString).deletingLastPathComponent + "/cover.png")
        XCTAssertEqual(shelf.books[0].strokes, 11)
        // Another library on the same shelf finds the kept picture: nothing to draw.
        let kept = try XCTUnwrap(CoverPicture.read(in: book.path))
        XCTAssertEqual(kept.key, SheetPicture.key(of: Self.book(strokes: 10).sheet.strokes, paper: .plain))

        // Saved again without telling the shelf: a new library finds the index stale, takes
        // it again, and the cover shown is the old one until the new one is drawn.
        try save(Self.book(strokes: 30, sheets: 2), in: book.path)
        let next = try library()
        XCTAssertEqual(next.books[0].strokes, 31)
        let stale = try XCTUnwrap(next.coverPicture(id: book.id))
        XCTAssertEqual(inked(stale), inked(first))
        next.waitForCovers()
        let fresh = try XCTUnwrap(next.coverPicture(id: book.id))
        XCTAssertGreaterThan(inked(fresh), inked(first))
        XCTAssertEqual(try XCTUnwrap(CoverPicture.read(in: book.path)).key, SheetPicture.key(of: Self.book(strokes: 30).sheet.strokes, paper: .plain))
    }

    func testADamagedCoverFileIsDrawnAgain() throws {
        let shelf = try library()
        let book = try shelf.createBook()
        try save(Self.book(strokes: 4), in: book.path)
        shelf.bookChanged(id: book.id)
        shelf.waitForCovers()
        var bytes = try XCTUnwrap(try BookStore.readFile(book.path + "/cover.picture"))
        bytes[100] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: book.path + "/cover.picture"))
        XCTAssertNil(CoverPicture.read(in: book.path))
        let next = try library()
        XCTAssertNil(next.coverPicture(id: book.id))
        next.waitForCovers()
        XCTAssertNotNil(next.coverPicture(id: book.id))
        XCTAssertNotNil(CoverPicture.read(in: book.path))
    }

    func testACoverFileIsReadBackAsWritten() throws {
        let folder = (data as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let picture = try XCTUnwrap(CoverPicture.render(Self.book(strokes: 3).sheet))
        try picture.write(in: folder)
        XCTAssertEqual(CoverPicture.read(in: folder), picture)
        var cut = Array(picture.encode())
        cut.removeLast()
        try Data(cut).write(to: URL(fileURLWithPath: folder + "/cover.picture"))
        XCTAssertNil(CoverPicture.read(in: folder))
        var flipped = Array(picture.encode())
        flipped[CoverPicture.headerSize + 7] ^= 1
        try Data(flipped).write(to: URL(fileURLWithPath: folder + "/cover.picture"))
        XCTAssertNil(CoverPicture.read(in: folder))
        // A drawing reaching past the page is shrunk to fit, keeping the 16:10 page (the scale
        // is taken at its nearest 1/120, as every canvas's is, so the side may fall a little short).
        var wide = Sketchbook()
        wide.append(Stroke(points: [Point(x: 0, y: 0), Point(x: 6000, y: 3000)], style: InkStyle(width: 60, color: 0)))
        let shrunk = try XCTUnwrap(CoverPicture.render(wide.sheet))
        XCTAssertTrue((480...512).contains(shrunk.width), "\(shrunk.width)")
        XCTAssertEqual(Double(shrunk.width) / Double(shrunk.height), 1.6, accuracy: 0.01)
        // Every width rounds down, never past the longest side a cover file may have.
        for width in stride(from: 1900.0, through: 2400, by: 7) {
            var book = Sketchbook()
            book.append(Stroke(points: [Point(x: 0, y: 0), Point(x: width, y: 100)]))
            let cover = try XCTUnwrap(CoverPicture.render(book.sheet))
            XCTAssertLessThanOrEqual(cover.width, 512, "\(width)")
            try cover.write(in: folder)
            XCTAssertNotNil(CoverPicture.read(in: folder), "\(width)")
        }
        XCTAssertGreaterThan(inked(shrunk.bitmap()), 400)
    }
}
