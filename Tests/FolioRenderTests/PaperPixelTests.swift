import FolioFiles
import FolioGeometry
import FolioPixels
import FolioRandom
import FolioSketchbook
import Foundation
import XCTest
@testable import FolioRender

/// Paper on the canvas where only part of it is drawn again: an area painted alone matches the
/// whole sheet painted, and undo tiles, an eraser's redraw and a lasso's lifted strokes reveal
/// paper, never white. Pictures are kept per paper.
final class PaperPixelTests: XCTestCase {
    private let papers = [Paper(kind: .ruled, spacing: 13.5, color: 0x4466AA), Paper(kind: .squared, spacing: 20, color: 0xAA3322),
                          Paper(kind: .dotted, spacing: 9, color: 0x228833)]
    private let scales = [1.0, 1.5, 2.0]

    func testAnAreaPaintedAloneIsTheWholePaperThere() {
        var random = SeededRandom(state: 3)
        for scale in scales {
            for paper in papers {
                let whole = Bitmap(width: Int(320 * scale), height: Int(220 * scale))
                PaperPainter.paint(paper, into: whole, in: whole.bounds, scale: scale)
                for _ in 0..<40 {
                    let x = random.next(whole.width), y = random.next(whole.height)
                    let area = PixelRect(x: x, y: y, width: 1 + random.next(60), height: 1 + random.next(60))
                    let part = Bitmap(width: whole.width, height: whole.height, color: 0xFF00_0000)
                    part.copy(part.bounds, from: whole)
                    part.fill(0xFF12_3456, in: area)
                    PaperPainter.paint(paper, into: part, in: area, scale: scale)
                    assertSamePixels(part, whole, "\(paper.kind) at \(scale), area \(area)")
                }
            }
        }
    }

    /// Undo (tiles), an erased stroke (the changed areas drawn again) and a lifted selection:
    /// each shows what drawing the remaining strokes on fresh paper shows.
    func testUndoTheEraserAndTheLassoRevealPaper() {
        let strokes = pictureTestStrokes(30, seed: 5)
        for scale in scales {
            for paper in papers {
                let label = "\(paper.kind) at \(scale)"
                let canvas = CanvasRenderer(width: 320, height: 220, scale: scale)
                canvas.rebuild(strokes: Array(strokes.prefix(20)), paper: paper)
                for stroke in strokes[20...] { canvas.bake(stroke) }
                func fresh(_ kept: [Stroke]) -> Bitmap {
                    let other = CanvasRenderer(width: 320, height: 220, scale: scale)
                    other.rebuild(strokes: kept, paper: paper)
                    return other.frame
                }
                canvas.show(strokes: Array(strokes.prefix(25)))
                assertSamePixels(canvas.frame, fresh(Array(strokes.prefix(25))), "\(label): five undos from tiles")
                var erased = Array(strokes.prefix(25))
                erased.remove(at: 3)
                erased.remove(at: 10)
                canvas.show(strokes: erased)
                assertSamePixels(canvas.frame, fresh(erased), "\(label): two strokes erased")

                let overlay = SelectionOverlay(canvas: canvas, strokes: erased, selected: [0, 7])
                _ = overlay.show(offset: .zero, bar: nil, colors: [])
                // Moved off the canvas: where they were, the canvas without them shows.
                _ = overlay.show(offset: Point(x: 400, y: 400), bar: nil, colors: [])
                var lifted = erased
                lifted.remove(at: 7)
                lifted.remove(at: 0)
                let expected = fresh(lifted)
                // Where the lifted strokes were (away from the dashed box) the canvas shows paper.
                let area = [erased[0], erased[7]].reduce(PixelRect.empty) { $0.union(canvas.reach(of: $1)) }
                    .intersection(canvas.frame.bounds)
                var differing = 0
                for y in area.y..<area.maxY {
                    for x in area.x..<area.maxX where canvas.frame.pixel(x: x, y: y) != expected.pixel(x: x, y: y) { differing += 1 }
                }
                XCTAssertEqual(differing, 0, "\(label): the lasso lifts strokes off paper")
            }
        }
    }

    /// A picture's key names its paper: the same strokes on another paper are another picture,
    /// and plain paper keeps the keys pictures had before papers.
    func testAPicturesKeyChangesWithThePaper() throws {
        let strokes = pictureTestStrokes(300, seed: 8)
        let keys = ([Paper.plain] + papers + [Paper(kind: .ruled, spacing: 13.5, color: 0x4466AB)]).map {
            SheetPicture.key(of: strokes, paper: $0)
        }
        XCTAssertEqual(Set(keys).count, keys.count, "every paper its own key")
        XCTAssertEqual(keys.map(SheetPicture.count(inKey:)), Array(repeating: 300, count: keys.count))

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-paper-pictures-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = BookStore(directory: folder)
        let writer = try store.openForWriting()
        let ruled = papers[0]
        let book = Sketchbook(sheets: [Sheet(strokes: strokes, paper: ruled)])
        try writer.save(book)
        let cache = SheetPictureCache(store: store)
        let canvas = CanvasRenderer(width: 320, height: 220, scale: 1)
        canvas.rebuild(strokes: strokes, paper: ruled)
        try cache.keep(canvas.picture(), book: book)
        XCTAssertNotNil(cache.picture(of: strokes, paper: ruled, width: 320, height: 220, scale: 1))
        XCTAssertNil(cache.picture(of: strokes, paper: .plain, width: 320, height: 220, scale: 1), "not a picture of plain paper")
        let plain = CanvasRenderer(width: 320, height: 220, scale: 1)
        let picture = try XCTUnwrap(cache.picture(of: strokes, paper: ruled, width: 320, height: 220, scale: 1))
        XCTAssertFalse(plain.show(strokes: strokes, from: picture, paper: .plain), "a ruled picture never shows as plain")
        XCTAssertTrue(plain.show(strokes: strokes, from: picture, paper: ruled))
        assertSamePixels(plain.frame, canvas.frame, "the picture is the ruled sheet")
        // The sheet given plain paper: its ruled picture is of nothing in the book, and goes.
        try cache.keep(nil, book: Sketchbook(sheets: [Sheet(strokes: strokes)]))
        XCTAssertNil(cache.picture(of: strokes, paper: ruled, width: 320, height: 220, scale: 1))
    }
}
