import FolioGeometry
import FolioPixels
import FolioRender
import FolioSketchbook
import Foundation
import XCTest

/// Pictures that cover the first strokes of a sheet: left behind by a crash they still save most
/// of the drawing at open, they never show strokes the sheet does not have, and the live app
/// brings them up to date in the background.
final class IncrementalPictureTests: XCTestCase {
    private var folder: URL!
    private let size = (width: 320, height: 220)

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-incremental-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func drawn(_ strokes: [Stroke]) -> CanvasRenderer {
        let canvas = CanvasRenderer(width: size.width, height: size.height, scale: 1)
        canvas.rebuild(strokes: strokes)
        return canvas
    }

    private final class Lines: Sendable {
        private let lines = Locked<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func add(_ line: String) { lines.withLock { $0.append(line) } }
    }

    private final class ManualTimer: SaveTimer {
        private let armed = Locked<[@Sendable () -> Void]>([])
        var count: Int { armed.withLock { $0.count } }

        func after(_ delay: Duration, _ work: @escaping @Sendable () -> Void) {
            armed.withLock { $0.append(work) }
        }

        func fire() {
            let due = armed.withLock { armed in
                defer { armed.removeAll() }
                return armed
            }
            due.forEach { $0() }
        }
    }

    func testAPictureLaggingBehindItsSheetShowsExactlyWhatDrawingGives() throws {
        let all = pictureTestStrokes(SheetPictureCache.worthKeeping + 60)
        let cache = SheetPictureCache(store: BookStore(directory: folder))
        let full = drawn(all)
        for lag in [0, 1, 50] {
            let covered = Array(all.dropLast(lag))
            try cache.keep(drawn(covered).picture(), book: Sketchbook(sheets: [Sheet(strokes: covered)]))
            let picture = try XCTUnwrap(cache.picture(of: all, paper: .plain, width: size.width, height: size.height, scale: 1), "lag \(lag)")
            XCTAssertEqual(picture.coveredCount, covered.count)
            let canvas = CanvasRenderer(width: size.width, height: size.height, scale: 1)
            XCTAssertTrue(canvas.show(strokes: all, from: picture))
            assertSamePixels(canvas.baked, full.baked, "a picture lagging by \(lag)")
            assertSamePixels(canvas.frame, full.baked, "the frame, lagging by \(lag)")
            XCTAssertEqual(canvas.strokes, all)
            // Undo from there: tiles of the strokes drawn over the picture, then the picture's own.
            for count in stride(from: all.count - 1, through: all.count - lag - 3, by: -1) {
                canvas.show(strokes: Array(all.prefix(count)))
                assertSamePixels(canvas.baked, drawn(Array(all.prefix(count))).baked, "undo to \(count), lagging by \(lag)")
            }
        }
    }

    func testAPictureWhoseStrokesTheSheetNoLongerStartsWithIsNotUsed() throws {
        let all = pictureTestStrokes(SheetPictureCache.worthKeeping + 40)
        let cache = SheetPictureCache(store: BookStore(directory: folder))
        try cache.keep(drawn(all).picture(), book: Sketchbook(sheets: [Sheet(strokes: all)]))
        let kept = try XCTUnwrap(cache.picture(of: all, paper: .plain, width: size.width, height: size.height, scale: 1))

        // Undo of ten strokes, then ten others: same count, other strokes at the end.
        let redrawn = Array(all.dropLast(10)) + pictureTestStrokes(10, seed: 77)
        // A stroke near the start erased, then one drawn: the same count again.
        var erased = all
        erased.remove(at: 5)
        erased.append(pictureTestStrokes(1, seed: 78)[0])
        // Undo only: fewer strokes than the picture covers.
        let undone = Array(all.dropLast(3))
        for (name, sheet) in [("undo and redraw", redrawn), ("an early stroke erased", erased), ("undone", undone)] {
            XCTAssertNil(cache.picture(of: sheet, paper: .plain, width: size.width, height: size.height, scale: 1), name)
            let canvas = CanvasRenderer(width: size.width, height: size.height, scale: 1)
            XCTAssertFalse(canvas.show(strokes: sheet, from: kept), name)
            // What the app then does: draws the sheet from its strokes.
            canvas.rebuild(strokes: sheet)
            assertSamePixels(canvas.baked, drawn(sheet).baked, name)
        }
    }

    func testADamagedPictureIsSkippedWithAWarning() throws {
        let all = pictureTestStrokes(SheetPictureCache.worthKeeping + 60)
        let store = BookStore(directory: folder)
        let lines = Lines()
        let cache = SheetPictureCache(store: store, warning: { lines.add($0) })
        let older = Array(all.prefix(SheetPictureCache.worthKeeping + 10))
        try cache.keep(drawn(older).picture(), book: Sketchbook(sheets: [Sheet(strokes: older)]))
        // A newer picture of more strokes, damaged: written by hand, as a crash or a bad disk would leave it.
        let newer = Array(all.prefix(SheetPictureCache.worthKeeping + 50))
        let file = store.pictureFile(key: SheetPicture.key(of: newer, paper: .plain))
        try Data(repeating: 0x5A, count: 4096).write(to: file)

        let picture = try XCTUnwrap(cache.picture(of: all, paper: .plain, width: size.width, height: size.height, scale: 1))
        XCTAssertEqual(picture.coveredCount, older.count, "the older good picture is used")
        XCTAssertEqual(lines.all.count, 1, "\(lines.all)")
        XCTAssertTrue(lines.all.first?.contains("\(file.path) is damaged") == true, "\(lines.all)")
        let canvas = CanvasRenderer(width: size.width, height: size.height, scale: 1)
        XCTAssertTrue(canvas.show(strokes: all, from: picture))
        assertSamePixels(canvas.baked, drawn(all).baked, "from the older picture")

        // The book itself is read as always: a picture is never a reason to refuse it.
        try store.openForWriting().save(Sketchbook(sheets: [Sheet(strokes: all)]))
        XCTAssertEqual(try store.load().sheet.strokes, all)
    }

    /// A picture whose file is longer or shorter than its header says is refused before its
    /// pixels are read (a sparse file of 3 GB costs nothing), and said once however often the
    /// sheet is shown, until another file takes its place.
    func testAPictureOfTheWrongSizeIsRefusedAtOnceAndSaidOnce() throws {
        let all = pictureTestStrokes(SheetPictureCache.worthKeeping)
        let store = BookStore(directory: folder)
        let lines = Lines()
        let cache = SheetPictureCache(store: store, warning: { lines.add($0) })
        try cache.keep(drawn(all).picture(), book: Sketchbook(sheets: [Sheet(strokes: all)]))
        let file = store.pictureFile(key: SheetPicture.key(of: all, paper: .plain))
        let good = try Data(contentsOf: file)
        XCTAssertNotNil(cache.picture(of: all, paper: .plain, width: size.width, height: size.height, scale: 1))
        for (length, count) in [(Int64(3) << 30, 1), (Int64(good.count - 1), 2), (Int64(good.count + 1), 3), (100, 4)] {
            XCTAssertEqual(truncate(file.path, off_t(length)), 0)
            for _ in 0..<3 { XCTAssertNil(cache.picture(of: all, paper: .plain, width: size.width, height: size.height, scale: 1), "\(length) bytes") }
            XCTAssertEqual(lines.all.count, count, "said once for \(length) bytes: \(lines.all)")
            XCTAssertTrue(lines.all.last?.hasPrefix("\(file.path) is damaged; the sheet is drawn from its strokes") == true, "\(lines.all)")
            // The same bytes back: used again.
            try good.write(to: file)
            XCTAssertNotNil(cache.picture(of: all, paper: .plain, width: size.width, height: size.height, scale: 1), "restored after \(length) bytes")
        }
    }

    func testTheKeeperBringsTheLaggingPictureUpToDateWhenIdle() throws {
        let all = pictureTestStrokes(SheetPictureCache.worthKeeping + 100)
        let store = BookStore(directory: folder)
        let cache = SheetPictureCache(store: store)
        let timer = ManualTimer()
        let keeper = SheetPictureKeeper(cache: cache, timer: timer, report: { XCTFail($0) })
        let canvas = SheetPictureKeeper.Canvas(width: size.width, height: size.height, scale: 1)
        func book(_ count: Int) -> Sketchbook { Sketchbook(sheets: [Sheet(strokes: Array(all.prefix(count)))]) }
        func kept() -> [Int] { store.pictureFiles().map { SheetPicture.count(inKey: $0.key) } }

        keeper.changed(book(SheetPictureCache.worthKeeping - 1), canvas: canvas)
        timer.fire()
        XCTAssertEqual(kept(), [], "a small sheet has no picture")

        // A first picture, drawn whole; then changes arriving before the timer: only the last counts.
        keeper.changed(book(SheetPictureCache.worthKeeping + 10), canvas: canvas)
        keeper.changed(book(SheetPictureCache.worthKeeping + 20), canvas: canvas)
        XCTAssertEqual(timer.count, 2)
        timer.fire()
        XCTAssertEqual(kept(), [SheetPictureCache.worthKeeping + 20])
        let file = store.pictureFile(key: SheetPicture.key(of: book(SheetPictureCache.worthKeeping + 20).sheet.strokes, paper: .plain))
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int, 0o600)

        // Lagging by fewer strokes than are worth it: left as it is.
        keeper.changed(book(SheetPictureCache.worthKeeping + 20 + SheetPictureKeeper.lagWorthRedrawing - 1), canvas: canvas)
        timer.fire()
        XCTAssertEqual(kept(), [SheetPictureCache.worthKeeping + 20])

        // Lagging by enough: brought up to date over the kept picture, which it replaces.
        keeper.changed(book(all.count), canvas: canvas)
        timer.fire()
        XCTAssertEqual(kept(), [all.count])
        let picture = try XCTUnwrap(cache.picture(of: all, paper: .plain, width: size.width, height: size.height, scale: 1))
        XCTAssertEqual(picture.pixels, drawn(all).picture().pixels, "the refreshed picture is what drawing gives")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }, [])

        // An undo past the picture: the picture no longer matches and a new one is drawn whole.
        let undone = Array(all.prefix(SheetPictureCache.worthKeeping + 40)) + pictureTestStrokes(10, seed: 5)
        keeper.changed(Sketchbook(sheets: [Sheet(strokes: undone)]), canvas: canvas)
        timer.fire()
        XCTAssertEqual(kept(), [undone.count])
        XCTAssertEqual(try XCTUnwrap(cache.picture(of: undone, paper: .plain, width: size.width, height: size.height, scale: 1)).pixels,
                       drawn(undone).picture().pixels)

        // Closed (the app quits and keeps its own canvas): nothing more is written.
        keeper.changed(book(all.count), canvas: canvas)
        keeper.close()
        timer.fire()
        XCTAssertEqual(kept(), [undone.count])
    }
}
