import FolioGeometry
import FolioPixels
import FolioRender
import FolioSketchbook
import Foundation
import XCTest

/// Big sheets stay instant: undo puts back the pixels under a stroke, and a sheet's picture kept
/// with the book shows it without drawing its strokes; both give exactly what drawing does.
final class SheetPictureTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-picture-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func drawn(_ strokes: [Stroke], scale: Double = 1) -> CanvasRenderer {
        let canvas = CanvasRenderer(width: 320, height: 220, scale: scale)
        canvas.rebuild(strokes: strokes)
        return canvas
    }

    func testUndoAndRedoRedrawOnlyTheStrokeAndGiveWhatDrawingGives() {
        let all = pictureTestStrokes(60)
        for scale in [1.0, 2.0] {
            let canvas = CanvasRenderer(width: 320, height: 220, scale: scale)
            for stroke in all.prefix(30) { canvas.bake(stroke) }
            canvas.rebuild(strokes: Array(all.prefix(40)))  // tiles captured while drawing, too
            for stroke in all[40...] { canvas.bake(stroke) }
            for count in stride(from: 59, through: 20, by: -1) {
                let damage = canvas.show(strokes: Array(all.prefix(count)))
                XCTAssertTrue(damage != canvas.frame.bounds, "undo to \(count) redrew only the stroke's area")
                assertSamePixels(canvas.baked, drawn(Array(all.prefix(count)), scale: scale).baked, "undo to \(count) at scale \(scale)")
                assertSamePixels(canvas.frame, canvas.baked, "the frame shows the canvas")
            }
            for count in 21...45 {
                canvas.show(strokes: Array(all.prefix(count)))
                assertSamePixels(canvas.baked, drawn(Array(all.prefix(count)), scale: scale).baked, "redo to \(count) at scale \(scale)")
            }
            // Something else than strokes less or more at the end: the areas of the strokes that
            // differ are drawn again, and every pixel that changed is in the damage.
            let other = pictureTestStrokes(10, seed: 9)
            let before = Bitmap(width: canvas.frame.width, height: canvas.frame.height)
            before.copy(before.bounds, from: canvas.frame)
            let damage = canvas.show(strokes: other)
            assertSamePixels(canvas.baked, drawn(other, scale: scale).baked, "another sheet")
            for y in 0..<before.height {
                for x in 0..<before.width where before.pixel(x: x, y: y) != canvas.frame.pixel(x: x, y: y) {
                    XCTAssertTrue(damage.contains(PixelRect(x: x, y: y, width: 1, height: 1)), "(\(x), \(y)) changed outside the damage")
                }
            }
        }
    }

    /// A stroke wholly off the canvas (points reach ±1,000,000) has nothing to put back.
    func testUndoingAStrokeOffTheCanvasChangesNothing() {
        let canvas = CanvasRenderer(width: 320, height: 220, scale: 1)
        let inside = pictureTestStrokes(3)
        for stroke in inside { canvas.bake(stroke) }
        let away = Stroke(points: [Point(x: -5000, y: -5000), Point(x: -4000, y: 900_000)])
        canvas.bake(away)
        XCTAssertTrue(canvas.show(strokes: inside).isEmpty, "no pixel changes")
        assertSamePixels(canvas.baked, drawn(inside).baked, "after the undo")
        canvas.show(strokes: inside + [away])
        assertSamePixels(canvas.baked, drawn(inside).baked, "after the redo")
    }

    func testAKeptPictureShowsTheSheetAndItsUndosExactly() throws {
        let all = pictureTestStrokes(SheetPictureCache.worthKeeping + 20)
        let store = BookStore(directory: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let cache = SheetPictureCache(store: store)
        let book = Sketchbook(sheets: [Sheet(strokes: all)])
        XCTAssertNil(cache.picture(of: all, paper: .plain, width: 320, height: 220, scale: 1), "nothing kept yet")
        try cache.keep(drawn(all).picture(), book: book)
        XCTAssertEqual(store.pictureFiles().count, 1)
        XCTAssertEqual(try mode(store.pictureFile(key: SheetPicture.key(of: all, paper: .plain)).path), 0o600)

        let picture = try XCTUnwrap(cache.picture(of: all, paper: .plain, width: 320, height: 220, scale: 1))
        let canvas = CanvasRenderer(width: 320, height: 220, scale: 1)
        XCTAssertTrue(canvas.show(strokes: all, from: picture))
        assertSamePixels(canvas.baked, drawn(all).baked, "the kept picture")
        for count in stride(from: all.count - 1, through: all.count - SheetPictureCache.tilesKept, by: -1) {
            XCTAssertNotEqual(canvas.show(strokes: Array(all.prefix(count))), canvas.frame.bounds, "undo to \(count) from a tile")
            assertSamePixels(canvas.baked, drawn(Array(all.prefix(count))).baked, "undo to \(count)")
        }
        canvas.show(strokes: Array(all.prefix(all.count - SheetPictureCache.tilesKept - 1)))
        assertSamePixels(canvas.baked, drawn(Array(all.prefix(all.count - SheetPictureCache.tilesKept - 1))).baked, "past the kept tiles: drawn again")
    }

    /// A pen's pressures, curve and tilts draw different ink from the same points: the key tells
    /// them apart, so a picture of one is never shown for the other.
    func testTheKeyTellsPenStrokesWithTheSamePointsApart() {
        let points = (0..<20).map { Point(x: 10 + Double($0) * 5, y: 40) }
        let light = Stroke(points: points, pressures: Array(repeating: 0.2, count: 20))
        let firm = Stroke(points: points, pressures: Array(repeating: 0.8, count: 20))
        let otherCurve = Stroke(points: points, pressures: light.pressures, pressureCurve: PressureCurve(minimum: 1, maximum: 20))
        let tilted = Stroke(points: points, pressures: light.pressures, tilts: Array(repeating: PenTilt(x: 30, y: 0), count: 20))
        let keys = [Stroke(points: points), light, firm, otherCurve, tilted].map { SheetPicture.key(of: [$0], paper: .plain) }
        XCTAssertEqual(Set(keys).count, keys.count, "\(keys)")
        XCTAssertEqual(keys.map(SheetPicture.count(inKey:)), [1, 1, 1, 1, 1])
    }

    func testAPictureOfOtherStrokesAnotherSizeOrDamagedIsNotUsed() throws {
        let all = pictureTestStrokes(SheetPictureCache.worthKeeping)
        let store = BookStore(directory: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let cache = SheetPictureCache(store: store)
        try cache.keep(drawn(all).picture(), book: Sketchbook(sheets: [Sheet(strokes: all)]))
        var moved = all
        moved[7].points[0].x += 0.5
        XCTAssertNil(cache.picture(of: moved, paper: .plain, width: 320, height: 220, scale: 1), "one point moved")
        XCTAssertNil(cache.picture(of: Array(all.dropLast()), paper: .plain, width: 320, height: 220, scale: 1), "one stroke less")
        XCTAssertNil(cache.picture(of: all, paper: .plain, width: 321, height: 220, scale: 1), "another size")
        XCTAssertNil(cache.picture(of: all, paper: .plain, width: 320, height: 220, scale: 2), "another scale")
        let file = store.pictureFile(key: SheetPicture.key(of: all, paper: .plain))
        var bytes = [UInt8](try Data(contentsOf: file))
        for offset in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 97)) {
            bytes[offset] ^= 0x10
            try Data(bytes).write(to: file)
            XCTAssertNil(cache.picture(of: all, paper: .plain, width: 320, height: 220, scale: 1), "byte \(offset) changed")
            bytes[offset] ^= 0x10
        }
        try Data(bytes).write(to: file)
        XCTAssertNotNil(cache.picture(of: all, paper: .plain, width: 320, height: 220, scale: 1))

        // A book without those strokes any more: their picture goes at the next keep.
        try cache.keep(nil, book: Sketchbook())
        XCTAssertEqual(store.pictureFiles().count, 0)
    }

    func testALinkAtAPictureIsNeitherFollowedNorReplaced() throws {
        let all = pictureTestStrokes(SheetPictureCache.worthKeeping)
        let store = BookStore(directory: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let victim = folder.deletingLastPathComponent().appendingPathComponent("victim-\(UUID().uuidString)")
        try Data("precious".utf8).write(to: victim)
        defer { try? FileManager.default.removeItem(at: victim) }
        let file = store.pictureFile(key: SheetPicture.key(of: all, paper: .plain))
        try FileManager.default.createSymbolicLink(at: file, withDestinationURL: victim)
        let cache = SheetPictureCache(store: store)
        XCTAssertNil(cache.picture(of: all, paper: .plain, width: 320, height: 220, scale: 1))
        XCTAssertThrowsError(try cache.keep(drawn(all).picture(), book: Sketchbook(sheets: [Sheet(strokes: all)]))) {
            XCTAssertEqual($0 as? BookError, .symlink(path: file.path))
        }
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "precious")
    }

    private func mode(_ path: String) throws -> Int {
        Int(try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int))
    }
}
