import Foundation
import FolioGeometry
import FolioPixels
import FolioRender
import FolioSketchbook
import TestCompositor
import XCTest

/// Frames drawn straight into the buffers the compositor reads: a buffer coming back holds an
/// older frame, and must be brought up to date before it carries a new one. Over a stroke, a fold
/// and its release, and a stroke after, every committed buffer holds exactly the frame its damage
/// says, and the last one what a from-scratch render of the sheet gives.
final class DirectDrawingProtocolTests: XCTestCase {
    func testEveryCommittedBufferHoldsTheWholeFrameThroughAStrokeAFoldAndARelease() throws {
        let folio = try FolioUnderTest(captureBuffers: true)
        try folio.stroke(line(from: Point(x: 100, y: 110), to: Point(x: 540, y: 150), count: 30))
        try folio.settle()
        // Two fingers 400 px apart on the middle row pinch to 300: the pages fold over the dark backdrop.
        var events: [TouchEvent] = [.down(id: 1, x: 120, y: 240), .down(id: 2, x: 520, y: 240), .frame]
        for step in 1...10 {
            let half = 200 - 5 * Double(step)
            events += [.motion(id: 1, x: 320 - half, y: 240), .motion(id: 2, x: 320 + half, y: 240), .frame]
        }
        try folio.compositor.sendTouch(events)
        try folio.waitForImage("the fold's dark backdrop") { Ink.channels($0.pixel(x: 2, y: 240)).r < 100 }
        try folio.settle()
        try folio.compositor.sendTouch([.up(id: 1), .up(id: 2), .frame])
        try folio.waitForImage("the flat canvas after the unfold") { Ink.isPaper($0.pixel(x: 2, y: 240)) }
        try folio.settle()
        try folio.stroke(line(from: Point(x: 120, y: 300), to: Point(x: 520, y: 380), count: 20))
        try folio.settle()

        // A screen that repaints only what each commit declares: wherever a buffer differs from
        // it, the buffer kept pixels of an older frame (or lacked a newer one's).
        let commits = folio.compositor.observation.commits.filter { $0.surface == 1 && $0.attached }
        XCTAssertGreaterThan(commits.count, 10)
        var screen: Image?
        var buffers = Set<Int>()
        for commit in commits {
            let buffer = try XCTUnwrap(commit.pixels, "commit \(commit.index) was not captured")
            if let id = commit.buffer { buffers.insert(id) }
            var shown = screen.flatMap { $0.width == buffer.width && $0.height == buffer.height ? $0 : nil } ?? buffer
            for rect in commit.damage {
                let r = rect.intersection(buffer.bounds)
                for y in r.y..<r.maxY { for x in r.x..<r.maxX { shown.pixels[y * shown.width + x] = buffer.pixel(x: x, y: y) } }
            }
            let stale = zip(shown.pixels, buffer.pixels).filter { $0 != $1 }.count
            XCTAssertEqual(stale, 0, "commit \(commit.index) (buffer \(commit.buffer ?? -1)) differs outside its damage "
                           + "\(commit.damage) (\(folio.save(buffer, as: "stale-buffer")))")
            screen = shown
        }
        XCTAssertGreaterThan(buffers.count, 1, "frames went into more than one buffer")

        // The last frame equals the sheet drawn from scratch from the book.
        let store = BookStore(directory: URL(fileURLWithPath: folio.book))
        var strokes: [Stroke] = []
        let deadline = Date().addingTimeInterval(10)
        while strokes.count < 2, Date() < deadline {
            strokes = (try? store.load().sheet.strokes) ?? []
            if strokes.count < 2 { Thread.sleep(forTimeInterval: 0.1) }
        }
        XCTAssertEqual(strokes.count, 2, "both strokes are in the book")
        let canvas = CanvasRenderer(width: 640, height: 480, scale: 1)
        _ = canvas.rebuild(strokes: strokes)
        let last = try XCTUnwrap(commits.last?.pixels)
        var differing = 0
        for y in 0..<last.height { for x in 0..<last.width where last.pixel(x: x, y: y) != canvas.frame.pixel(x: x, y: y) { differing += 1 } }
        XCTAssertEqual(differing, 0, "the last buffer is the sheet drawn afresh (\(folio.save(last, as: "last-buffer")))")
    }
}
