import FolioCore
import FolioGeometry
import FolioInput
import FolioLayers
import FolioPixels
import FolioRender
import FolioReplay
import FolioShelf
import FolioSketchbook
import FolioToolbar
import XCTest

/// The shelf end to end through traces: the same `Session` and `FrameLoop` as the app, on the
/// simulated compositor, with the shelf in memory.
final class ShelfReplayTests: XCTestCase {
    private let width = 800, height = 600

    private func replay(_ events: [(Double, InputEvent)], shelf: InMemoryShelf, books: MemoryBooks) -> Replay {
        let trace = Trace(events: events.map { TimedInputEvent(time: $0.0, event: $0.1) })
        let replay = Replay(trace: trace, options: .init(width: width, height: height))
        replay.session.pageOptions = PageRenderOptions(background: .flat(0x404040))
        XCTAssertTrue(replay.session.showShelf(books.access(shelf)))
        return replay
    }

    /// Where book `id`'s cover is on the first shelf frame.
    private func coverCentre(_ id: String, on shelf: InMemoryShelf) throws -> Point {
        let view = ShelfView(shelf: shelf, width: Double(width), height: Double(height), pixelWidth: width, pixelHeight: height, scale: 1)
        return ShelfFixture.centre(try XCTUnwrap(view.screenQuad(of: id)))
    }

    private func tap(_ p: Point, at t: Double) -> [(Double, InputEvent)] {
        [(t, .touchDown(id: 1, at: p)), (t, .touchFrame), (t + 60, .touchUp(id: 1)), (t + 60, .touchFrame)]
    }

    private func stroke(at t: Double) -> [(Double, InputEvent)] {
        var events: [(Double, InputEvent)] = [(t, .touchDown(id: 2, at: Point(x: 300, y: 300))), (t, .touchFrame)]
        for i in 1...10 {
            events += [(t + Double(i) * 16, .touchMotion(id: 2, to: Point(x: 300 + Double(i) * 15, y: 300 + Double(i) * 5))), (t + Double(i) * 16, .touchFrame)]
        }
        return events + [(t + 200, .touchUp(id: 2)), (t + 200, .touchFrame)]
    }

    private func names(_ replay: Replay) -> [String] { replay.session.timeline.map(\.name) }

    func testATapOpensTheBookWithTheUnfoldAndEscapeClosesItSavedWithTheFold() throws {
        let shelf = ShelfFixture.shelf(count: 4)
        let books = MemoryBooks()
        let centre = try coverCentre("b2", on: shelf)
        let events = tap(centre, at: 100) + stroke(at: 2000)
            + [(3000, .key(KeyChord(key: "Escape"), pressed: true)), (3010, .key(KeyChord(key: "Escape"), pressed: false))]
        let replay = replay(events, shelf: shelf, books: books)
        var foldScales: [Double] = []
        var shelfFrames = 0
        var unfoldFrame: Bitmap?
        try replay.run(screens: true) { _, screen in
            if replay.session.mode == .shelf { shelfFrames += 1 }
            if replay.session.mode.showsCurtain { foldScales.append(replay.session.foldScale) }
            if replay.session.mode == .unfolding, replay.session.foldScale < 0.8, unfoldFrame == nil, let screen {
                unfoldFrame = Bitmap(width: screen.width, height: screen.height)
                unfoldFrame?.copy(screen.bounds, from: screen)
            }
        }
        let timeline = names(replay)
        for event in ["shelf.shown", "book.opening", "book.opened", "stroke.ended", "book.closing", "book.closed"] {
            XCTAssertTrue(timeline.contains(event), "no \(event) in \(timeline)")
        }
        XCTAssertEqual(timeline.filter { $0 == "shelf.shown" }.count, 2, "the shelf shows at the start and after closing")
        XCTAssertEqual(books.opened, ["b2"], "the tapped book opened")
        XCTAssertEqual(shelf.startingBook?.id, "b2", "the next start opens it")
        XCTAssertEqual(books.saved, ["b2"], "closing saved it")
        XCTAssertEqual(books.books["b2"]?.sheet.strokes.count, 1, "the stroke drawn in it was saved with it")
        XCTAssertEqual(replay.session.mode, .shelf)
        XCTAssertGreaterThan(shelfFrames, 1)
        // The unfold went from the closed book up to the open page, the close back down.
        XCTAssertLessThan(try XCTUnwrap(foldScales.first), 0.6, "the book opens from closed")
        XCTAssertTrue(foldScales.contains { $0 > 0.9 })
        let frame = try XCTUnwrap(unfoldFrame, "no frame of the unfold")
        try PNG.write(frame, to: "\(ShelfFixture.pngFolder())/shelf-unfolding.png")
        try PNG.write(replay.screen, to: "\(ShelfFixture.pngFolder())/shelf-after-close.png")
        // Mid-unfold the pages stand in perspective over the backdrop: its corner shows it.
        XCTAssertEqual(ShelfFixture.luminance(frame.pixel(x: 2, y: 2)), 0x40, accuracy: 16)
        // Back on the shelf: the covers are there again.
        let after = ShelfFixture.rgb(replay.screen.pixel(x: Int(centre.x), y: Int(centre.y) + 100))
        let want = ShelfFixture.rgb(ShelfFixture.colors[2])
        XCTAssertEqual(Double(after.g), Double(want.g), accuracy: 40, "the shelf is not back: \(after)")
        let summary = replay.summary()
        let shelfSummary = try XCTUnwrap(summary["shelf"] as? [String: Any])
        XCTAssertEqual(shelfSummary["shown"] as? Bool, true)
        XCTAssertNil(shelfSummary["open"])
    }

    func testTheBookOpensFromWhereItsCoverLay() throws {
        let shelf = ShelfFixture.shelf(count: 6)
        let books = MemoryBooks()
        let cover = try XCTUnwrap(ShelfView(shelf: shelf, width: Double(width), height: Double(height), pixelWidth: width, pixelHeight: height,
                                            scale: 1).screenQuad(of: "b0"))
        let replay = replay(tap(ShelfFixture.centre(cover), at: 100), shelf: shelf, books: books)
        // The pages' paper as the book opens: the middle of its extent across, frame by frame.
        var middles: [Double] = []
        var early: Bitmap?
        try replay.run(screens: true) { _, screen in
            guard replay.session.mode == .unfolding, let screen else { return }
            var low = Int.max, high = Int.min, count = 0
            for y in stride(from: 0, to: screen.height, by: 2) {
                for x in stride(from: 0, to: screen.width, by: 2) where ShelfFixture.luminance(screen.pixel(x: x, y: y)) > 180 {
                    low = min(low, x)
                    high = max(high, x)
                    count += 1
                }
            }
            guard count > 200 else { return }
            middles.append(Double(low + high) / 2)
            if early == nil {
                early = Bitmap(width: screen.width, height: screen.height)
                early?.copy(screen.bounds, from: screen)
            }
        }
        try PNG.write(try XCTUnwrap(early), to: "\(ShelfFixture.pngFolder())/shelf-opening-from-cover.png")
        // The cover lay at the left: the book starts there (centred, it would be about 400).
        let first = try XCTUnwrap(middles.first), last = try XCTUnwrap(middles.last)
        XCTAssertLessThan(first, 0.35 * Double(width), "the book did not open from its cover at x \(cover.topLeft.x): \(middles)")
        XCTAssertEqual(last, Double(width) / 2, accuracy: 12, "the open book is not in the middle: \(middles)")
        XCTAssertEqual(replay.session.mode, .idle)
    }

    func testTheBooksControlClosesTheBook() throws {
        let shelf = ShelfFixture.shelf(count: 2)
        let books = MemoryBooks()
        let layout = ToolbarLayout(width: Double(width), height: Double(height))
        let control = try XCTUnwrap(layout.slot(for: .books), "the books control is on the toolbar")
        let handle = Point(x: layout.handle.minX + layout.handle.width / 2, y: layout.handle.minY + layout.handle.height / 2)
        let button = Point(x: control.rect.minX + 24, y: control.rect.minY + 24)
        let events = tap(try coverCentre("b1", on: shelf), at: 100) + tap(handle, at: 2000) + tap(button, at: 2500)
        let replay = replay(events, shelf: shelf, books: books)
        try replay.run()
        let timeline = names(replay)
        XCTAssertTrue(timeline.contains("control.books"), "\(timeline)")
        XCTAssertTrue(timeline.contains("book.closed"), "\(timeline)")
        XCTAssertEqual(books.saved, ["b1"])
        XCTAssertEqual(replay.session.mode, .shelf)
    }

    func testTheToolbarAndItsHandleAreAwayWhileTheShelfShows() throws {
        let shelf = ShelfFixture.shelf(count: 2)
        let books = MemoryBooks()
        let layout = ToolbarLayout(width: Double(width), height: Double(height))
        let handle = Point(x: layout.handle.minX + layout.handle.width / 2, y: layout.handle.minY + layout.handle.height / 2)
        func drawn(_ replay: Replay) -> Int {
            let image = replay.session.renderToolbar().image
            return (0..<image.height).reduce(0) { sum, y in sum + (0..<image.width).filter { image.pixel(x: $0, y: y) != 0 }.count }
        }
        let onShelf = replay(tap(handle, at: 100), shelf: shelf, books: books)
        XCTAssertEqual(onShelf.session.toolbar.touchAreas, [], "the toolbar takes no touch on the shelf")
        XCTAssertEqual(drawn(onShelf), 0, "nothing of the toolbar is drawn on the shelf")
        try onShelf.run()
        XCTAssertFalse(names(onShelf).contains("toolbar.shown"), "a tap where the handle was showed the bar: \(names(onShelf))")
        XCTAssertFalse(onShelf.session.toolbar.isShown)

        let opened = replay(tap(try coverCentre("b1", on: shelf), at: 100), shelf: shelf, books: books)
        try opened.run()
        XCTAssertEqual(opened.session.mode, .idle)
        XCTAssertFalse(opened.session.toolbar.touchAreas.isEmpty, "the open book has its toolbar")
        XCTAssertGreaterThan(drawn(opened), 100, "the handle is drawn over the open book")
    }

    func testADragOnTheShelfScrollsAndOpensNothing() throws {
        let shelf = ShelfFixture.shelf(count: 40, pictures: false)
        let books = MemoryBooks()
        var events: [(Double, InputEvent)] = [(100, .touchDown(id: 1, at: Point(x: 400, y: 500))), (100, .touchFrame)]
        for i in 1...12 { events += [(100 + Double(i) * 16, .touchMotion(id: 1, to: Point(x: 400, y: 500 - Double(i) * 25))), (100 + Double(i) * 16, .touchFrame)] }
        events += [(300, .touchUp(id: 1)), (300, .touchFrame)]
        let replay = replay(events, shelf: shelf, books: books)
        try replay.run()
        XCTAssertEqual(books.opened, [], "a drag opens no book")
        XCTAssertEqual(replay.session.mode, .shelf)
        XCTAssertGreaterThan(try XCTUnwrap(replay.session.shelf).view.scroller.offset, 300, "the shelf scrolled and glided on")
        XCTAssertFalse(replay.session.isAnimating, "the glide ended with the replay")
    }

    func testTheMouseDragsTheShelfAndAClickOpensABook() throws {
        let shelf = ShelfFixture.shelf(count: 40, pictures: false)
        let books = MemoryBooks()
        var events: [(Double, InputEvent)] = [(100, .pointerMotion(to: Point(x: 400, y: 500))), (110, .pointerButton(.left, pressed: true))]
        for i in 1...10 { events.append((110 + Double(i) * 16, .pointerMotion(to: Point(x: 400, y: 500 - Double(i) * 30)))) }
        events.append((300, .pointerButton(.left, pressed: false)))
        let replay = replay(events, shelf: shelf, books: books)
        try replay.run()
        let view = try XCTUnwrap(replay.session.shelf?.view)
        XCTAssertGreaterThanOrEqual(view.scroller.offset, 300, "the mouse dragged the shelf")
        let shown = try XCTUnwrap(view.scene.covers.first { view.scene.screenQuad(of: $0.index).map { ShelfFixture.centre($0).y > 150 } ?? false })
        let centre = ShelfFixture.centre(try XCTUnwrap(view.scene.screenQuad(of: shown.index)))
        let click: [(Double, InputEvent)] = events + [(5000, .pointerMotion(to: centre)), (5010, .pointerButton(.left, pressed: true)),
                                                      (5060, .pointerButton(.left, pressed: false))]
        let second = self.replay(click, shelf: ShelfFixture.shelf(count: 40, pictures: false), books: books)
        try second.run()
        XCTAssertEqual(books.opened, ["b\(shown.index)"], "the click opened the book under the pointer")
    }

    func testANewWindowSizeLaysTheShelfOutAgain() throws {
        let shelf = ShelfFixture.shelf(count: 6)
        let books = MemoryBooks()
        let replay = replay([(100, .resize(width: 400, height: 700, scale: nil))], shelf: shelf, books: books)
        try replay.run()
        let view = try XCTUnwrap(replay.session.shelf?.view)
        XCTAssertEqual(view.scene.layout.columns, 1)
        XCTAssertEqual(view.frame.width, 400)
        XCTAssertEqual(replay.screen.width, 400)
        let quad = try XCTUnwrap(view.screenQuad(of: "b0"))
        XCTAssertLessThan(quad.boundingBox.maxX, 400)
    }

    func testWithoutAShelfTheBooksControlIsDisabledAndEscapeDoesNothing() throws {
        let trace = Trace(events: [TimedInputEvent(time: 10, event: .key(KeyChord(key: "Escape"), pressed: true))])
        let replay = Replay(trace: trace, options: .init(width: width, height: height))
        try replay.run()
        XCTAssertTrue(replay.session.toolbar.disabled.contains(.books))
        XCTAssertEqual(replay.session.mode, .idle)
        XCTAssertNil(replay.summary()["shelf"])
    }
}
