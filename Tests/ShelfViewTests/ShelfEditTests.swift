import FolioCore
import FolioGeometry
import FolioInput
import FolioPixels
import FolioRender
import FolioReplay
import FolioShelf
import XCTest

/// New book, cover colour, delete and undo on the shelf, through traces.
final class ShelfEditTests: XCTestCase {
    private let width = 800, height = 600

    private func control(_ control: ShelfControl) throws -> Point {
        let r = try XCTUnwrap(ShelfBar(width: Double(width)).rect(of: control))
        return Point(x: r.minX + r.width / 2, y: r.minY + r.height / 2)
    }

    private func cover(_ id: String, of shelf: InMemoryShelf) throws -> Point {
        let view = ShelfView(shelf: shelf, width: Double(width), height: Double(height), pixelWidth: width, pixelHeight: height, scale: 1)
        return ShelfFixture.centre(try XCTUnwrap(view.screenQuad(of: id)))
    }

    private func taps(_ points: [Point], from start: Double = 100) -> [TimedInputEvent] {
        points.enumerated().flatMap { i, p -> [TimedInputEvent] in
            let t = start + Double(i) * 300
            return [TimedInputEvent(time: t, event: .touchDown(id: 1, at: p)), TimedInputEvent(time: t, event: .touchFrame),
                    TimedInputEvent(time: t + 50, event: .touchUp(id: 1)), TimedInputEvent(time: t + 50, event: .touchFrame)]
        }
    }

    private func run(_ events: [TimedInputEvent], shelf: InMemoryShelf) throws -> (Replay, MemoryBooks) {
        let books = MemoryBooks()
        let replay = Replay(trace: Trace(events: events), options: .init(width: width, height: height))
        replay.session.pageOptions = PageRenderOptions(background: .flat(0x404040))
        replay.session.showShelf(books.access(shelf))
        try replay.run()
        return (replay, books)
    }

    func testTheNewBookControlPutsABookFirstOnTheShelf() throws {
        let shelf = ShelfFixture.shelf(count: 3)
        let (replay, books) = try run(taps([try control(.newBook)]), shelf: shelf)
        XCTAssertEqual(shelf.books.count, 4)
        XCTAssertEqual(replay.session.shelf?.view.books.first?.id, shelf.books[0].id, "the view shows the new book first")
        XCTAssertTrue(replay.session.timeline.map(\.name).contains("book.created"))
        XCTAssertEqual(books.opened, [], "making a book opens nothing")
        try PNG.write(replay.screen, to: "\(ShelfFixture.pngFolder())/shelf-new-book.png")
    }

    func testTheColourControlRecoloursTheNextCoverTapped() throws {
        let shelf = ShelfFixture.shelf(count: 3)
        let before = shelf.books[1].coverColor
        let (replay, books) = try run(taps([try control(.recolor), try cover("b1", of: shelf)]), shelf: shelf)
        XCTAssertNotEqual(shelf.books[1].coverColor, before)
        XCTAssertTrue(CoverPalette.colors.contains(shelf.books[1].coverColor))
        XCTAssertEqual(books.opened, [], "the tap recoloured the book instead of opening it")
        XCTAssertNil(replay.session.shelf?.view.choosing, "the control waits for one cover only")
        // The cover shows its new colour.
        let quad = try XCTUnwrap(replay.session.shelf?.view.screenQuad(of: "b1"))
        let board = Point(x: quad.topRight.x * 0.97 + quad.topLeft.x * 0.03, y: ShelfFixture.centre(quad).y)
        let seen = ShelfFixture.rgb(replay.screen.pixel(x: Int(board.x), y: Int(board.y)))
        let want = ShelfFixture.rgb(shelf.books[1].coverColor)
        XCTAssertEqual(Double(seen.r), Double(want.r), accuracy: 30)
        XCTAssertEqual(Double(seen.b), Double(want.b), accuracy: 30)
    }

    func testDeleteThenUndoBringsTheBookBackByControlAndByKey() throws {
        let shelf = ShelfFixture.shelf(count: 4)
        var events = taps([try control(.delete), try cover("b2", of: shelf), try control(.delete), try cover("b0", of: shelf),
                           try control(.undo)])
        events += [TimedInputEvent(time: 2000, event: .key(KeyChord(key: "z", modifiers: [.ctrl]), pressed: true)),
                   TimedInputEvent(time: 2010, event: .key(KeyChord(key: "z", modifiers: [.ctrl]), pressed: false))]
        let (replay, books) = try run(events, shelf: shelf)
        let timeline = replay.session.timeline.map(\.name)
        XCTAssertEqual(timeline.filter { $0 == "book.deleted" }.count, 2, "\(timeline)")
        XCTAssertEqual(timeline.filter { $0 == "book.restored" }.count, 2, "\(timeline)")
        XCTAssertEqual(Set(shelf.books.map(\.id)), ["b0", "b1", "b2", "b3"], "both deleted books came back")
        XCTAssertEqual(books.opened, [])
        XCTAssertEqual(replay.session.shelf?.view.disabledControls, [.undo], "nothing is left to undo")
    }

    func testDeletingOneBookLeavesTheOthersAndATapOnTheBackdropCancels() throws {
        let shelf = ShelfFixture.shelf(count: 3)
        let events = taps([try control(.delete), Point(x: 4, y: 590), try cover("b1", of: shelf)])
        let (_, books) = try run(events, shelf: shelf)
        XCTAssertEqual(shelf.books.count, 3, "the backdrop tap cancelled the deletion")
        XCTAssertEqual(books.opened, ["b1"], "then the cover opened")
    }

    func testCtrlNOnTheShelfMakesABook() throws {
        let shelf = ShelfFixture.shelf(count: 1)
        let events = [TimedInputEvent(time: 100, event: .key(KeyChord(key: "n", modifiers: [.ctrl]), pressed: true)),
                      TimedInputEvent(time: 110, event: .key(KeyChord(key: "n", modifiers: [.ctrl]), pressed: false))]
        _ = try run(events, shelf: shelf)
        XCTAssertEqual(shelf.books.count, 2)
    }
}

/// Renaming a book with a keyboard: its keys' text, BackSpace, Return and Escape, through traces.
final class ShelfRenameTests: XCTestCase {
    func testAComposedWordShowsOnTheCoverAndOnlyWhatIsCommittedIsTyped() throws {
        let shelf = ShelfFixture.shelf(count: 3)
        let editing = try start(shelf, id: "b1")
        let (plain, _) = try run(editing, shelf: ShelfFixture.shelf(count: 3))
        let (composed, _) = try run(editing + [TimedInputEvent(time: 1000, event: .composing("Lisbon"))], shelf: ShelfFixture.shelf(count: 3))
        XCTAssertEqual(composed.session.shelf?.view.composing, "Lisbon")
        let quad = try XCTUnwrap(composed.session.shelf?.view.screenQuad(of: "b1")).boundingBox
        let differing = stride(from: Int(quad.minY), to: Int(quad.maxY), by: 2).reduce(0) { sum, y in
            sum + stride(from: Int(quad.minX), to: Int(quad.maxX), by: 2).filter { plain.screen.pixel(x: $0, y: y) != composed.screen.pixel(x: $0, y: y) }.count
        }
        XCTAssertGreaterThan(differing, 20, "the composition shows on the cover being named")

        var events = editing + [TimedInputEvent(time: 1000, event: .composing("Lis"))]
        events += [TimedInputEvent(time: 1100, event: .text(" Lisbon")), TimedInputEvent(time: 1100, event: .composing(""))] + key("Return", at: 1200)
        let (replay, _) = try run(events, shelf: shelf)
        XCTAssertEqual(shelf.books[1].name, "Book 2 Lisbon", "what was only composed is never typed")
        XCTAssertEqual(replay.session.shelf?.view.composing, "")
    }

    func testACompositionWithNoNameBeingTypedShowsNothing() throws {
        let shelf = ShelfFixture.shelf(count: 3)
        let (replay, _) = try run([TimedInputEvent(time: 100, event: .composing("Lisbon"))], shelf: shelf)
        XCTAssertEqual(replay.session.shelf?.view.composing, "")
        XCTAssertEqual(shelf.books.map(\.name), ["Book 1", "Book 2", "Book 3"])
    }

    private func key(_ name: String, at t: Double) -> [TimedInputEvent] {
        [TimedInputEvent(time: t, event: .key(KeyChord(key: name), pressed: true)),
         TimedInputEvent(time: t + 5, event: .key(KeyChord(key: name), pressed: false))]
    }

    private func start(_ shelf: InMemoryShelf, id: String) throws -> [TimedInputEvent] {
        let bar = try XCTUnwrap(ShelfBar(width: 800).rect(of: .rename))
        let view = ShelfView(shelf: shelf, width: 800, height: 600, pixelWidth: 800, pixelHeight: 600, scale: 1)
        let cover = ShelfFixture.centre(try XCTUnwrap(view.screenQuad(of: id)))
        return [Point(x: bar.minX + 20, y: bar.minY + 20), cover].enumerated().flatMap { i, p -> [TimedInputEvent] in
            let t = 100 + Double(i) * 300
            return [TimedInputEvent(time: t, event: .touchDown(id: 1, at: p)), TimedInputEvent(time: t, event: .touchFrame),
                    TimedInputEvent(time: t + 50, event: .touchUp(id: 1)), TimedInputEvent(time: t + 50, event: .touchFrame)]
        }
    }

    private func run(_ events: [TimedInputEvent], shelf: InMemoryShelf) throws -> (Replay, [SessionRequest]) {
        let replay = Replay(trace: Trace(events: events), options: .init(width: 800, height: 600))
        var requests: [SessionRequest] = []
        replay.session.onRequest = { requests.append($0) }
        replay.session.showShelf(MemoryBooks().access(shelf))
        try replay.run()
        return (replay, requests)
    }

    func testTypedTextRenamesTheBookOnReturn() throws {
        let shelf = ShelfFixture.shelf(count: 3)
        var events = try start(shelf, id: "b1")
        events += [TimedInputEvent(time: 1000, event: .text("!"))] + key("BackSpace", at: 1100) + key("BackSpace", at: 1200)
        events += [TimedInputEvent(time: 1300, event: .text("s é"))] + key("Return", at: 1400)
        let (replay, requests) = try run(events, shelf: shelf)
        XCTAssertEqual(shelf.books[1].name, "Book s é", "Book 2 and the typed !, less two characters, then more typed")
        let timeline = replay.session.timeline.map(\.name)
        XCTAssertTrue(timeline.contains("book.rename.began") && timeline.contains("book.renamed"), "\(timeline)")
        XCTAssertEqual(requests.filter { if case .textInput = $0 { true } else { false } },
                       [.textInput("Book 2"), .textInput("Book 2!"), .textInput("Book 2"), .textInput("Book "), .textInput("Book s é"), .textInput(nil)],
                       "an on-screen keyboard is asked for while the name is typed, and told the name at each change")
        XCTAssertNil(replay.session.shelf?.view.editing)
    }

    func testEscapeLeavesTheNameAndABlankNameIsNotTaken() throws {
        let shelf = ShelfFixture.shelf(count: 2)
        var events = try start(shelf, id: "b0")
        events += [TimedInputEvent(time: 1000, event: .text("X"))] + key("Escape", at: 1100)
        _ = try run(events, shelf: shelf)
        XCTAssertEqual(shelf.books[0].name, "Book 1")
        let blank = ShelfFixture.shelf(count: 2)
        var erase = try start(blank, id: "b0")
        for i in 0..<8 { erase += key("BackSpace", at: 1000 + Double(i) * 50) }
        erase += [TimedInputEvent(time: 1500, event: .text("   "))] + key("Return", at: 1600)
        let (replay, _) = try run(erase, shelf: blank)
        XCTAssertEqual(blank.books[0].name, "Book 1", "a blank name keeps the old one")
        XCTAssertTrue(replay.session.timeline.map(\.name).contains("book.rename.cancelled"))
    }

    func testTheCoverShowsTheNameAsItIsTyped() throws {
        let shelf = ShelfFixture.shelf(count: 1, pictures: false)
        let view = ShelfView(shelf: shelf, width: 800, height: 600, pixelWidth: 800, pixelHeight: 600, scale: 1)
        _ = view.render()
        let before = Bitmap(width: 800, height: 600)
        before.copy(before.bounds, from: view.frame)
        view.editing = ("b0", "Sketches of the sea")
        let damage = view.render()
        XCTAssertFalse(damage.isEmpty)
        try PNG.write(view.frame, to: "\(ShelfFixture.pngFolder())/shelf-renaming.png")
        XCTAssertEqual(view.frame.pixel(x: 790, y: 590), before.pixel(x: 790, y: 590))
        XCTAssertNotEqual(before.pixel(x: 790, y: 590), 0, "the first frame is drawn whole")
        let quad = try XCTUnwrap(view.screenQuad(of: "b0"))
        var changed = 0
        for y in Int(quad.bottomLeft.y - 40)..<Int(quad.bottomLeft.y) {
            for x in Int(quad.topLeft.x)..<Int(quad.topRight.x) where before.pixel(x: x, y: y) != view.frame.pixel(x: x, y: y) { changed += 1 }
        }
        XCTAssertGreaterThan(changed, 50, "the name band shows the name being typed")
    }

    func testALongNameBeingTypedShowsItsEnd() {
        let view = ShelfView(shelf: ShelfFixture.shelf(count: 1, pictures: false), width: 800, height: 600, pixelWidth: 800, pixelHeight: 600,
                             scale: 1)
        let long = "Sketches of the sea and of the harbour"
        func band(_ name: String) -> [UInt32] {
            view.editing = ("b0", name)
            _ = view.render()
            let quad = view.screenQuad(of: "b0")
            let bottom = Int(quad?.bottomLeft.y ?? 0)
            return (bottom - 30..<bottom - 5).flatMap { y in (60..<240).map { view.frame.pixel(x: $0, y: y) } }
        }
        XCTAssertTrue(band(long + " A") != band(long + " B"), "the last character typed shows")
    }

    func testATextEventIsReadAndWrittenByTraces() throws {
        let trace = try Trace(parsing: #"{"t": 5, "kind": "text", "text": "Sea \"2\""}"#)
        XCTAssertEqual(trace.events.first?.event, .text("Sea \"2\""))
        XCTAssertThrowsError(try Trace(parsing: #"{"t": 5, "kind": "text", "text": ""}"#))
        XCTAssertThrowsError(try Trace(parsing: #"{"t": 5, "kind": "text", "text": "a\u0007"}"#))
        XCTAssertThrowsError(try Trace(parsing: "{\"t\": 5, \"kind\": \"text\", \"text\": \"\(String(repeating: "a", count: 257))\"}"))
    }

    func testAComposingEventIsReadAndWrittenByTraces() throws {
        let trace = try Trace(parsing: #"{"t": 5, "kind": "composing", "text": "Lis\"b"}"# + "\n" + #"{"t": 6, "kind": "composing", "text": ""}"#)
        XCTAssertEqual(trace.events.map(\.event), [.composing("Lis\"b"), .composing("")], "empty: nothing composed")
        XCTAssertEqual(try Trace(parsing: trace.serialized()).events, trace.events)
        XCTAssertThrowsError(try Trace(parsing: #"{"t": 5, "kind": "composing", "text": "a\u0007"}"#))
        XCTAssertThrowsError(try Trace(parsing: "{\"t\": 5, \"kind\": \"composing\", \"text\": \"\(String(repeating: "a", count: 257))\"}"))
        XCTAssertThrowsError(try Trace(parsing: #"{"t": 5, "kind": "composing"}"#))
    }
}
