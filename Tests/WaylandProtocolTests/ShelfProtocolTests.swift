import FolioGeometry
import TestCompositor
import XCTest

/// The app without --book over a real socket: it opens on its shelf inside a new book, and
/// Escape saves that book and folds it shut onto the shelf.
final class ShelfProtocolTests: XCTestCase {
    func testTheAppOpensInsideANewBookAndEscapeClosesItSavedOntoTheShelf() throws {
        let folio = try FolioUnderTest(capabilities: [.touch, .keyboard])
        _ = try folio.compositor.wait(for: "a wl_keyboard") { $0.keyboardObjects > 0 ? true : nil }
        let points = line(from: Point(x: 120, y: 200), to: Point(x: 520, y: 260), count: 40)
        let centre: [(Int, Int)] = stride(from: 0.1, through: 0.9, by: 0.05).map { (t: Double) -> (Int, Int) in
            let x: Double = 120 + 400 * t, y: Double = 200 + 60 * t
            return (Int(x), Int(y))
        }
        try folio.stroke(points)
        try folio.waitForImage("the stroke on the book's white sheet") { image in
            centre.allSatisfy { Ink.isInk(image.pixel(x: $0.0, y: $0.1)) }
        }
        let book = folio.book
        XCTAssertTrue(book.contains("/folio/books/"), "the book is on the shelf: \(book)")

        try folio.compositor.press(KeyCode.escape)
        // The shelf: the backdrop, with one cover; no longer the white sheet.
        try folio.waitForImage("the shelf after Escape") { image in
            image.count(where: Ink.isPaper) < image.width * image.height / 4 && !Ink.isInk(image.pixel(x: 320, y: 230))
        }
        XCTAssertEqual(try bookInfo(book).filter { !$0.isWhitespace }, #"{"sheets":[{"strokes":1,"paper":"plain"}]}"#,
                       "closing saved the book")
        try folio.compositor.press(KeyCode.q, modifiers: .control)
        XCTAssertEqual(try folio.client.waitForExit(), 0, folio.client.standardError)
    }
}
