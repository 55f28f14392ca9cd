import FolioCore
import FolioGeometry
import FolioPixels
import FolioShelf
import Foundation
import TestCompositor
import XCTest

/// The shelf's bar under a real compositor, by finger (wl_touch): a new book, a new cover
/// colour, a deletion and its undo reach the books folder (`folio books`, each `shelf.json`) and
/// show in the buffers the app commits, on the covers where the shelf's layout puts them.
final class ShelfBarProtocolTests: XCTestCase {
    func testNewBookColourDeleteAndUndoByTouchChangeTheShelfAndItsCovers() throws {
        let folio = try FolioUnderTest(width: 640, height: 480, capabilities: [.touch, .keyboard])
        let shelf = ShelfOnScreen(width: 640, height: 480)
        _ = try folio.compositor.wait(for: "a wl_keyboard") { $0.keyboardObjects > 0 ? true : nil }
        try folio.compositor.press(KeyCode.escape)
        let first = try XCTUnwrap(try folio.waitForBooks("the book the app opened") { $0.count == 1 }.first)
        let shown = try folio.waitForCovers([first.coverColor], on: shelf, "the shelf with the first book's cover")
        // The bar is drawn over the backdrop: its controls differ from the shelf's empty corner.
        let corner = shown.pixel(x: 2, y: 2)
        XCTAssertTrue(try ShelfControl.allCases.allSatisfy { control in
            let p = try shelf.centre(of: control)
            return shown.count(in: PixelRect(x: Int(p.x) - 40, y: Int(p.y) - 16, width: 80, height: 32)) { $0 != corner } > 100
        }, "the bar's controls are drawn")

        // New book: a second book on the shelf, newest first, in the palette's next colour.
        try folio.tap(try shelf.centre(of: .newBook))
        let two = try folio.waitForBooks("a new book") { $0.count == 2 }
        XCTAssertEqual(two[1], first, "the first book is as it was")
        let made = two[0]
        XCTAssertNotEqual(made.path, first.path)
        XCTAssertEqual(made.coverColor, CoverPalette.next(after: first.coverColor))
        XCTAssertTrue(FileManager.default.fileExists(atPath: made.path + "/shelf.json"))
        try folio.waitForCovers([made.coverColor, first.coverColor], on: shelf, "the new book's cover first, the first book's next")

        // Colour, then the first book's cover, twice: its shelf.json takes the palette's next
        // colour each time (the second one no other cover has), and its cover shows it.
        var recolored = first.coverColor
        var afterColour = two
        for _ in 0..<2 {
            let before = recolored
            recolored = CoverPalette.next(after: before)
            try folio.tap(try shelf.centre(of: .recolor))
            try folio.tap(try shelf.coverCentre(1, of: 2))
            afterColour = try folio.waitForBooks("the first book in a new colour") { $0.count == 2 && $0[1].coverColor != before }
            XCTAssertEqual(afterColour[1].coverColor, recolored)
            XCTAssertEqual(afterColour[0], made, "only the book tapped changes colour")
        }
        XCTAssertNotEqual(recolored, made.coverColor)
        let image = try folio.waitForCovers([made.coverColor, recolored], on: shelf, "the first book's cover in its new colour")
        XCTAssertLessThan(try shelf.share(of: first.coverColor, onCover: 1, of: 2, in: image), 0.02, "the old colour is gone")
        XCTAssertLessThan(try shelf.share(of: made.coverColor, onCover: 1, of: 2, in: image), 0.02)

        // Delete, then the new book's cover: it goes to the trash and off the shelf; Undo brings it back whole.
        try folio.tap(try shelf.centre(of: .delete))
        try folio.tap(try shelf.coverCentre(0, of: 2))
        XCTAssertEqual(try folio.waitForBooks("the new book deleted") { $0.count == 1 }, [afterColour[1]])
        XCTAssertFalse(FileManager.default.fileExists(atPath: made.path))
        try folio.waitForCovers([recolored], on: shelf, "one cover left")
        try folio.tap(try shelf.centre(of: .undo))
        XCTAssertEqual(try folio.waitForBooks("the deleted book back") { $0.count == 2 }, afterColour)
        try folio.waitForCovers([made.coverColor, recolored], on: shelf, "both covers again")

        // A tap on the new book's cover opens it: its blank sheet fills the window.
        try folio.tap(try shelf.coverCentre(0, of: 2))
        try folio.waitForImage("the new book's blank sheet") { $0.count(where: Ink.isPaper) > $0.width * $0.height * 9 / 10 }
        try folio.compositor.press(KeyCode.q, modifiers: .control)
        XCTAssertEqual(try folio.client.waitForExit(), 0, folio.client.standardError)
        XCTAssertEqual(try folio.listedBooks(), afterColour, "the shelf as the app left it")
    }
}
