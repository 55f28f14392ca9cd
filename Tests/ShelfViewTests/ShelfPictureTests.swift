import FolioCore
import FolioGeometry
import FolioInput
import FolioPixels
import FolioRender
import FolioReplay
import FolioShelf
import FolioSketchbook
import Foundation
import XCTest

/// A big book opened from the shelf shows its sheet from the picture kept with it, and closing it
/// keeps a picture there, as a `--book` book does at quit.
final class ShelfPictureTests: XCTestCase {
    private var folder: URL!
    private let width = 400, height = 300

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-shelf-pictures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// `count` short strokes over the left half of the sheet: the right half stays paper.
    private func strokes(_ count: Int) -> [Stroke] {
        (0..<count).map { i in
            let x = Double(10 + i % 150), y = Double(10 + (i * 7) % 260)
            return Stroke(points: [Point(x: x, y: y), Point(x: x + 20, y: y + 5)], style: InkStyle(width: 4, color: 0x202020))
        }
    }

    /// A replay of `events` on a shelf whose one book (in `folder`) is `books`' and opens at the start.
    private func replay(_ events: [(Double, InputEvent)], books: MemoryBooks, cache: SheetPictureCache) throws -> Replay {
        let book = ShelfBook(id: "b0", name: "Big", coverColor: 0x2F5D8C, path: folder.path, sheets: 1, strokes: 0)
        let shelf = InMemoryShelf(books: [book], pictures: [:])
        let base = books.access(shelf)
        let access = ShelfAccess(shelf: shelf, open: base.open, save: base.save, pictures: { _ in cache })
        let trace = Trace(events: events.map { TimedInputEvent(time: $0.0, event: $0.1) })
        let replay = Replay(trace: trace, options: .init(width: width, height: height))
        XCTAssertTrue(replay.session.showShelf(access, opening: book))
        return replay
    }

    func testABigBookFromTheShelfOpensFromItsPictureAndKeepsOneWhenClosed() throws {
        let sheet = Sheet(strokes: strokes(SheetPictureCache.worthKeeping + 20))
        let books = MemoryBooks()
        books.books["b0"] = Sketchbook(sheets: [sheet])
        let store = BookStore(directory: folder)
        let cache = SheetPictureCache(store: store)
        let escape: [(Double, InputEvent)] = [(500, .key(KeyChord(key: "Escape"), pressed: true)), (510, .key(KeyChord(key: "Escape"), pressed: false))]

        // Closing the book onto the shelf keeps the picture of its sheet in its folder.
        let first = try replay(escape, books: books, cache: cache)
        try first.run()
        XCTAssertEqual(first.session.mode, .shelf)
        XCTAssertEqual(store.pictureFiles().map(\.key), [SheetPicture.key(of: sheet.strokes, paper: sheet.paper)])

        // A kept picture painted blue where the paper is: opening the book again shows the blue,
        // so the sheet came from the picture, not from its strokes.
        var picture = try XCTUnwrap(cache.picture(of: sheet.strokes, paper: sheet.paper, width: width, height: height, scale: 1))
        for y in 0..<picture.height {
            for x in picture.width * 3 / 4..<picture.width { picture.pixels[y * picture.width + x] = 0xFF00_00FF }
        }
        try cache.keep(picture, book: Sketchbook(sheets: [sheet]))
        let second = try replay([], books: books, cache: cache)
        try second.run(screens: true)
        XCTAssertEqual(second.session.mode, .idle)
        XCTAssertEqual(second.screen.pixel(x: width - 20, y: height / 2), 0xFF00_00FF, "the sheet was drawn from its strokes")
    }
}
