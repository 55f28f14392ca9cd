import FolioRender
import FolioSketchbook
import Foundation
import XCTest

/// Pictures no sheet needs any more are removed, and only those: a file under a picture's name
/// that Folio did not write (not a picture, or someone else's) stays.
final class PictureRemovalTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-picture-removal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testOnlyPicturesFolioKeptAreRemoved() throws {
        let strokes = pictureTestStrokes(SheetPictureCache.worthKeeping)
        let store = BookStore(directory: folder)
        let cache = SheetPictureCache(store: store)
        let canvas = CanvasRenderer(width: 120, height: 80, scale: 1)
        canvas.rebuild(strokes: strokes)
        try cache.keep(canvas.picture(), book: Sketchbook(sheets: [Sheet(strokes: strokes)]))
        let kept = store.pictureFile(key: SheetPicture.key(of: strokes, paper: .plain))

        let notes = store.pictureFile(key: 0x100), shelf = store.pictureFile(key: 0x200), theirs = store.pictureFile(key: 0x300)
        try Data("someone's notes".utf8).write(to: notes)
        try FileManager.default.createDirectory(at: shelf, withIntermediateDirectories: false)
        try Data(contentsOf: kept).write(to: theirs)
        let otherUser = geteuid() == 0 && chown(theirs.path, 4242, 4242) == 0

        try cache.keep(nil, book: Sketchbook())
        XCTAssertFalse(FileManager.default.fileExists(atPath: kept.path), "Folio's own picture, no longer needed")
        XCTAssertEqual(try String(contentsOf: notes, encoding: .utf8), "someone's notes")
        XCTAssertTrue(FileManager.default.fileExists(atPath: shelf.path))
        XCTAssertEqual(FileManager.default.fileExists(atPath: theirs.path), otherUser, "another user's picture stays")
    }
}
