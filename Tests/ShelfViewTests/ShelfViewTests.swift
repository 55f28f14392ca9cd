import FolioCore
import FolioGeometry
import FolioLayers
import FolioPixels
import FolioRender
import FolioShelf
import XCTest

final class ShelfViewTests: XCTestCase {
    private func view(_ shelf: InMemoryShelf, width: Double = 800, height: Double = 600, scale: Double = 1) -> ShelfView {
        let view = ShelfView(shelf: shelf, width: width, height: height, pixelWidth: Int(width * scale), pixelHeight: Int(height * scale),
                             scale: scale)
        view.options = PageRenderOptions(background: .flat(0x404040))
        return view
    }

    func testCoversAreDrawnInPerspectiveWithTheirColourPictureAndShadow() throws {
        for scale in [1.0, 1.5, 2.0] {
            let shelf = ShelfFixture.shelf(count: 6)
            let view = view(shelf, scale: scale)
            _ = view.render()
            try PNG.write(view.frame, to: "\(ShelfFixture.pngFolder())/shelf-6@\(scale).png")
            for (index, book) in shelf.books.enumerated() {
                let quad = try XCTUnwrap(view.screenQuad(of: book.id))
                // Perspective: the cover turns about its spine, so its two vertical edges differ in length.
                let spine = quad.bottomLeft.y - quad.topLeft.y, fore = quad.bottomRight.y - quad.topRight.y
                XCTAssertGreaterThan(abs(spine - fore), 2, "book \(index): the cover is drawn flat")
                // The cover colour on the board, near the fore edge, midway down.
                let board = Point(x: quad.topRight.x * 0.97 + quad.topLeft.x * 0.03, y: (quad.topRight.y + quad.bottomRight.y) / 2)
                let seen = ShelfFixture.rgb(view.frame.pixel(x: Int(board.x * scale), y: Int(board.y * scale)))
                let want = ShelfFixture.rgb(book.coverColor)
                for (a, b) in [(seen.r, want.r), (seen.g, want.g), (seen.b, want.b)] {
                    XCTAssertEqual(Double(a), Double(b), accuracy: 30, "book \(index) at \(scale): the board is not its colour")
                }
                // The picture (a red square in the middle of its sheet) or plain paper in the label.
                let middle = ShelfFixture.centre(quad)
                let label = ShelfFixture.rgb(view.frame.pixel(x: Int(middle.x * scale), y: Int((middle.y - 10) * scale)))
                if index % 2 == 0 {
                    XCTAssertTrue(label.r > 180 && label.g < 80 && label.b < 80, "book \(index): no picture on the cover: \(label)")
                } else {
                    XCTAssertTrue(label.r > 220 && label.g > 220 && label.b > 210, "book \(index): no plain paper on the cover: \(label)")
                }
                // The shadow: just below the cover is darker than the backdrop far from every cover.
                guard quad.bottomLeft.y + 6 < 600 else { continue }
                let below = view.frame.pixel(x: Int(middle.x * scale), y: Int((quad.bottomLeft.y + 6) * scale))
                XCTAssertLessThan(ShelfFixture.luminance(below), 0x40 - 8, "book \(index): no shadow under the cover")
            }
            // Far from the covers: the backdrop, at most the faint tail of a shadow over it.
            XCTAssertEqual(ShelfFixture.luminance(view.frame.pixel(x: 2, y: view.frame.height - 2)), 0x40, accuracy: 3)
        }
    }

    func testTheFoldsTextureIsTheBackdropByDefault() {
        let view = ShelfView(shelf: ShelfFixture.shelf(count: 1), width: 400, height: 300, pixelWidth: 400, pixelHeight: 300, scale: 1)
        _ = view.render()
        var shades = Set<UInt32>()
        for x in 300..<340 { shades.insert(view.frame.pixel(x: x, y: 290)) }
        XCTAssertGreaterThan(shades.count, 3, "the woven backdrop is not one flat colour")
    }

    func testATapPicksTheCoverUnderItAndAGapPicksNone() throws {
        let shelf = ShelfFixture.shelf(count: 6)
        let view = view(shelf)
        for book in shelf.books {
            let centre = ShelfFixture.centre(try XCTUnwrap(view.screenQuad(of: book.id)))
            XCTAssertEqual(view.book(at: centre)?.id, book.id)
            view.press(at: centre, time: 0)
            XCTAssertEqual(view.release(time: 80), .book(book), "a tap on a cover returns its book")
        }
        XCTAssertNil(view.book(at: Point(x: 4, y: 4)))
        let first = try XCTUnwrap(view.screenQuad(of: "b0")), second = try XCTUnwrap(view.screenQuad(of: "b1"))
        XCTAssertNil(view.book(at: Point(x: (first.topRight.x + second.topLeft.x) / 2, y: ShelfFixture.centre(first).y)),
                     "the gap between two covers is no book")
    }

    func testAFingerScrollsTheShelfAndAFlickGlidesOn() throws {
        let shelf = ShelfFixture.shelf(count: 50, pictures: false)
        let view = view(shelf)
        _ = view.render()
        let before = try XCTUnwrap(view.screenQuad(of: "b0"))
        view.press(at: Point(x: 400, y: 500), time: 0)
        for step in 1...10 { view.move(to: Point(x: 400, y: 500 - Double(step) * 20), time: Double(step) * 16) }
        XCTAssertEqual(view.scroller.offset, 200, accuracy: 0.001, "the shelf follows the finger")
        XCTAssertFalse(view.render().isEmpty)
        let after = try XCTUnwrap(view.screenQuad(of: "b0"))
        XCTAssertEqual(after.topLeft.y, before.topLeft.y - 200, accuracy: 0.001)
        XCTAssertNil(view.release(time: 176), "a drag is not a tap")
        XCTAssertTrue(view.isGliding, "a flick glides on")
        var last = view.scroller.offset
        var time = 176.0
        while view.isGliding && time < 10_000 {
            time += 16
            view.advance(to: time)
            XCTAssertGreaterThanOrEqual(view.scroller.offset, last, "the glide goes the flick's way")
            last = view.scroller.offset
        }
        XCTAssertFalse(view.isGliding, "the glide stops")
        XCTAssertGreaterThan(last, 300, "the glide carried the shelf beyond where the finger left it")
        XCTAssertLessThanOrEqual(last, ShelfLayout(width: 800, height: 600, count: 50).maximumScroll)
        // Tapping a cover of the scrolled shelf picks that book.
        let shown = try XCTUnwrap(view.scene.covers.first { view.scene.screenQuad(of: $0.index).map { ShelfFixture.centre($0).y > 100 } ?? false })
        let centre = ShelfFixture.centre(try XCTUnwrap(view.scene.screenQuad(of: shown.index)))
        XCTAssertEqual(view.book(at: centre)?.id, "b\(shown.index)")
    }

    func testTheScrollStopsAtEitherEnd() {
        var scroller = ShelfScroller()
        scroller.setLimit(500)
        scroller.begin(y: 100, at: 0)
        _ = scroller.move(y: 300, at: 10)
        XCTAssertEqual(scroller.offset, 0, "not above the top")
        _ = scroller.move(y: -900, at: 20)
        XCTAssertEqual(scroller.offset, 500, "not below the end")
        scroller.end(at: 30)
        XCTAssertFalse(scroller.advance(to: 100))
        XCTAssertEqual(scroller.offset, 500)
        XCTAssertFalse(scroller.isGliding)
        // A finger resting before it lifts throws nothing.
        scroller.begin(y: 0, at: 1000)
        _ = scroller.move(y: 200, at: 1010)
        scroller.end(at: 1300)
        XCTAssertFalse(scroller.isGliding)
    }

    func testANewCoverColourRedrawsOnlyThatCover() throws {
        let shelf = ShelfFixture.shelf(count: 6)
        let view = view(shelf)
        _ = view.render()
        let untouched = try XCTUnwrap(view.screenQuad(of: "b5"))
        try shelf.setCoverColor(id: "b1", 0xFF_FFFF)
        view.reload()
        let damage = view.damage.bounds
        XCTAssertFalse(damage.isEmpty)
        XCTAssertLessThan(damage.area, view.frame.bounds.area / 3, "only the recoloured cover is drawn again")
        let quad = try XCTUnwrap(view.screenQuad(of: "b1"))
        let centre = ShelfFixture.centre(quad)
        XCTAssertTrue(damage.intersection(PixelRect(x: Int(centre.x), y: Int(centre.y), width: 1, height: 1)).area == 1)
        let far = ShelfFixture.centre(untouched)
        XCTAssertTrue(damage.intersection(PixelRect(x: Int(far.x), y: Int(far.y), width: 1, height: 1)).isEmpty, "another cover is drawn again")
        _ = view.render()
        let board = Point(x: quad.topRight.x * 0.97 + quad.topLeft.x * 0.03, y: centre.y)
        XCTAssertGreaterThan(ShelfFixture.luminance(view.frame.pixel(x: Int(board.x), y: Int(board.y))), 200)
        XCTAssertTrue(view.render().isEmpty, "nothing changed since")
    }

    func testACoverPictureDrawnAgainInTheBackgroundRedrawsOnlyThatCover() throws {
        let shelf = ShelfFixture.shelf(count: 6)
        let view = view(shelf)
        _ = view.render()
        let quad = try XCTUnwrap(view.screenQuad(of: "b1"))
        let centre = ShelfFixture.centre(quad), far = ShelfFixture.centre(try XCTUnwrap(view.screenQuad(of: "b5")))
        XCTAssertGreaterThan(ShelfFixture.rgb(view.frame.pixel(x: Int(centre.x), y: Int(centre.y))).r, 200, "b1 starts with a blank page")
        shelf.setCoverPicture(id: "b1", Bitmap(width: 400, height: 300, color: 0xFF00_C000))
        view.coverChanged(id: "b1")
        let damage = view.damage.bounds
        XCTAssertLessThan(damage.area, view.frame.bounds.area / 3, "only that cover is drawn again")
        XCTAssertEqual(damage.intersection(PixelRect(x: Int(centre.x), y: Int(centre.y), width: 1, height: 1)).area, 1)
        XCTAssertTrue(damage.intersection(PixelRect(x: Int(far.x), y: Int(far.y), width: 1, height: 1)).isEmpty, "another cover is drawn again")
        _ = view.render()
        let shown = ShelfFixture.rgb(view.frame.pixel(x: Int(centre.x), y: Int(centre.y)))
        XCTAssertGreaterThan(shown.g, 2 * max(shown.r, shown.b), "the new picture shows: \(shown)")
        // A cover that is not on screen is read when it shows, so its news draws nothing.
        view.coverChanged(id: "nothing-like-it")
        XCTAssertTrue(view.render().isEmpty)
    }

    func testCoverPicturesReadAgainRedrawOnlyTheCoverThatChanged() throws {
        let books = ShelfFixture.shelf(count: 6)
        let shelf = CopyingShelf(books)
        let view = ShelfView(shelf: shelf, width: 800, height: 600, pixelWidth: 800, pixelHeight: 600, scale: 1)
        view.options = PageRenderOptions(background: .flat(0x404040))
        _ = view.render()
        view.reload()
        XCTAssertTrue(view.damage.isEmpty, "the same pictures, as new bitmaps, draw nothing again")
        let green = Bitmap(width: 400, height: 300, color: 0xFF10_C010)
        books.setCoverPicture(id: "b2", green)
        view.reload()
        let quad = try XCTUnwrap(view.screenQuad(of: "b2")), other = try XCTUnwrap(view.screenQuad(of: "b0"))
        let middle = ShelfFixture.centre(quad), far = ShelfFixture.centre(other)
        XCTAssertEqual(view.damage.bounds.intersection(PixelRect(x: Int(middle.x), y: Int(middle.y), width: 1, height: 1)).area, 1,
                       "the changed cover is drawn again")
        XCTAssertTrue(view.damage.bounds.intersection(PixelRect(x: Int(far.x), y: Int(far.y), width: 1, height: 1)).isEmpty,
                      "another cover is drawn again")
        _ = view.render()
        let label = ShelfFixture.rgb(view.frame.pixel(x: Int(middle.x), y: Int(middle.y - 10)))
        XCTAssertTrue(label.g > 150 && label.r < 60, "the new picture shows: \(label)")
    }

    func testAWindowTooNarrowForTwoCoversShowsOneColumn() throws {
        let view = view(ShelfFixture.shelf(count: 3), width: 260, height: 500)
        _ = view.render()
        try PNG.write(view.frame, to: "\(ShelfFixture.pngFolder())/shelf-narrow.png")
        let a = try XCTUnwrap(view.screenQuad(of: "b0")), b = try XCTUnwrap(view.screenQuad(of: "b1"))
        XCTAssertGreaterThan(b.topLeft.y, a.bottomLeft.y, "the second book is below the first")
    }
}
