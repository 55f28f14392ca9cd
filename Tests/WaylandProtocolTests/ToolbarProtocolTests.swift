import Foundation
import FolioGeometry
import FolioToolbar
import TestCompositor
import XCTest

/// The toolbar over a real socket, on the wl_subsurface the app gives it: the handle shows at
/// the layout's place without repainting the canvas, a tap on it shows the bar, a tap on undo
/// takes the stroke away, the bar hides by itself with one wake-up, and the book keeps what is left.
final class ToolbarProtocolTests: XCTestCase {
    func testHandleTapShowsTheBarAndUndoTakesTheStrokeAway() throws {
        try checkToolbar(scale120: nil)
    }

    func testTheToolbarAtScaleOneAndAHalf() throws {
        try checkToolbar(scale120: 180)
    }

    private func checkToolbar(scale120: UInt32?) throws {
        let folio = try FolioUnderTest(width: 1280, height: 800, fractionalScale: scale120, subsurfaces: true)
        let scale = Double(scale120 ?? 120) / 120
        let layout = ToolbarLayout(width: 1280, height: 800, scale: scale)
        let bounds = layout.shownBounds
        /// A logical point in the window's buffer pixels.
        func pixel(_ p: Point) -> (x: Int, y: Int) { (Int(p.x * scale), Int(p.y * scale)) }

        _ = try folio.waitWhileRunning("the toolbar's handle on a subsurface") { observation in
            observation.subsurfaces.first { $0.width > 0 }
        }
        // Its position is the window's state: applied with the window's next commit.
        try folio.settle()
        guard let handle = folio.compositor.observation.subsurfaces.first else { return XCTFail("the subsurface is gone") }
        XCTAssertEqual(handle.x, Int(bounds.minX.rounded()))
        XCTAssertEqual(handle.y, Int(bounds.minY.rounded()))
        XCTAssertEqual(handle.width, Int((bounds.width * scale).rounded()), "the bar's buffer is its logical size times the scale")
        XCTAssertEqual(handle.height, Int((bounds.height * scale).rounded()))
        XCTAssertFalse(handle.synchronized, "the bar commits on its own")

        // The handle is on the screen, not in the canvas.
        let grip = pixel(Point(x: layout.handle.minX + layout.handle.width / 2, y: layout.handle.maxY - 4))
        try folio.settle()
        XCTAssertFalse(Ink.isPaper(try folio.compositor.screenImage().pixel(x: grip.x, y: grip.y)), "the handle shows")
        XCTAssertTrue(Ink.isPaper(try folio.compositor.surfaceImage().pixel(x: grip.x, y: grip.y)), "the canvas has no handle")

        let stroke = line(from: Point(x: 300, y: 300), to: Point(x: 900, y: 300), count: 40)
        try folio.stroke(stroke)
        let along = stride(from: 340.0, through: 860, by: 40).map { pixel(Point(x: $0, y: 300)) }
        try folio.waitForImage("the stroke") { image in along.allSatisfy { Ink.isInk(image.pixel(x: $0.x, y: $0.y)) } }
        try folio.settle()
        let drawn = try folio.compositor.surfaceImage()

        guard let undo = layout.slot(for: .undo) else { return XCTFail("the layout has no undo control") }
        let undoInside = pixel(Point(x: undo.rect.minX + 4, y: undo.rect.minY + 4))
        let canvasCommits = try commits(to: handle.parent, folio)
        try tap(center(layout.handle), folio)
        let shown = try waitForScreen("the bar", folio) { !Ink.isPaper($0.pixel(x: undoInside.x, y: undoInside.y)) }
        try folio.settle()
        XCTAssertEqual(try commits(to: handle.parent, folio), canvasCommits, "showing the bar commits nothing to the canvas")
        XCTAssertTrue(try folio.compositor.surfaceImage() == drawn, "and the canvas is as it was")
        XCTAssertTrue(along.allSatisfy { Ink.isInk(shown.pixel(x: $0.x, y: $0.y)) }, "the stroke shows beside the bar")

        try tap(center(undo.rect), folio)
        let undone = try folio.waitForImage("the stroke undone") { image in
            along.allSatisfy { Ink.isPaper(image.pixel(x: $0.x, y: $0.y)) }
        }
        XCTAssertEqual(undone.count(where: { Ink.isInk($0) }), 0, "no ink anywhere: the taps drew nothing")
        // Untouched, the bar hides after 4 s; meanwhile the window is not asked to tick every refresh.
        try folio.settle()
        let waiting = try commits(to: handle.parent, folio)
        _ = try waitForScreen("the bar hiding by itself", folio, timeout: 10) { Ink.isPaper($0.pixel(x: undoInside.x, y: undoInside.y)) }
        XCTAssertLessThanOrEqual(try commits(to: handle.parent, folio) - waiting, 2, "one wake-up, not a frame callback per refresh")

        let subsurfaces = folio.compositor.observation.subsurfaces
        XCTAssertEqual(subsurfaces.count, 1, "\(subsurfaces)")
        XCTAssertEqual(subsurfaces.first?.synchronizedCommits, 0, "the bar never relies on synchronised commits")

        XCTAssertEqual(kill(folio.client.processIdentifier, SIGTERM), 0)
        XCTAssertEqual(try folio.client.waitForExit(), 0, folio.client.standardError)
        XCTAssertEqual(try bookInfo(folio.book).filter { !$0.isWhitespace }, #"{"sheets":[{"strokes":0,"paper":"plain"}]}"#)
    }

    private func center(_ r: Rect) -> Point { Point(x: r.minX + r.width / 2, y: r.minY + r.height / 2) }

    /// A short touch at `p` (logical px).
    private func tap(_ p: Point, _ folio: FolioUnderTest) throws {
        try folio.compositor.sendTouch([.down(id: 7, x: p.x, y: p.y), .frame])
        try folio.compositor.sendTouch([.up(id: 7), .frame])
    }

    /// Commits the window's surface (surface `number`) has made so far.
    private func commits(to number: Int, _ folio: FolioUnderTest) throws -> Int {
        folio.compositor.observation.commits.count { $0.surface == number }
    }

    private func waitForScreen(_ what: String, _ folio: FolioUnderTest, timeout: TimeInterval = 10,
                               _ condition: (Image) -> Bool) throws -> Image {
        let deadline = Date().addingTimeInterval(timeout)
        var image = try folio.compositor.screenImage()
        while !condition(image) {
            if Date() > deadline { throw TestCompositorError("timed out waiting for \(what); the screen is in \(folio.save(image, as: what))") }
            Thread.sleep(forTimeInterval: 0.02)
            image = try folio.compositor.screenImage()
        }
        return image
    }
}
