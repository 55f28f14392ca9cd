import FolioGeometry
import FolioPixels
import FolioRender
import FolioSketchbook
import XCTest

/// A playback drawn frame after frame: whole strokes are the pixels `rebuild` draws, a stroke
/// being drawn is its first points as live ink, and going back or jumping gives the same frames.
final class PlaybackDrawingTests: XCTestCase {
    private let strokes: [Stroke] = [
        Stroke(points: (0..<30).map { Point(x: 10 + Double($0) * 6, y: 20 + Double($0 % 7) * 5) }, style: InkStyle(width: 8, color: 0x0000FF)),
        Stroke(points: (0..<25).map { Point(x: 30 + Double($0) * 3, y: 150 - Double($0) * 4) }, style: InkStyle(width: 4, color: 0xC00000),
               pressures: (0..<25).map { Stroke.kept(pressure: Double($0) / 24) }),
        Stroke(points: (0..<12).map { Point(x: 200 - Double($0) * 9, y: 100 + Double($0) * 2) }, style: InkStyle(width: 12, color: 0x008000)),
    ]

    private func bytes(_ bitmap: Bitmap) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: bitmap.pixels, count: bitmap.stride * bitmap.height))
    }

    private func rebuilt(_ count: Int) -> [UInt8] {
        let canvas = CanvasRenderer(width: 240, height: 180, scale: 1.5)
        canvas.rebuild(strokes: Array(strokes.prefix(count)))
        return bytes(canvas.frame)
    }

    func testWholeStrokesArePixelForPixelTheRebuiltSheet() {
        let canvas = CanvasRenderer(width: 240, height: 180, scale: 1.5)
        var drawing = PlaybackDrawing()
        drawing.begin(on: canvas)
        XCTAssertEqual(bytes(canvas.frame), rebuilt(0))
        let playback = SheetPlayback(strokes: strokes)
        for step in 0...40 {
            let progress = playback.progress(atFraction: Double(step) / 40)
            drawing.draw(progress, of: strokes, on: canvas)
            XCTAssertEqual(drawing.shown.strokes, progress.strokes)
            if progress.points == 0 { XCTAssertEqual(bytes(canvas.frame), rebuilt(progress.strokes), "step \(step)") }
        }
        XCTAssertEqual(bytes(canvas.frame), rebuilt(3), "the end is the sheet")
    }

    func testAStrokeBeingDrawnShowsItsFirstPointsAndFramesDoNotDependOnTheWayThere() {
        func frame(_ steps: [SheetPlayback.Progress]) -> [UInt8] {
            let canvas = CanvasRenderer(width: 240, height: 180, scale: 1.5)
            var drawing = PlaybackDrawing()
            drawing.begin(on: canvas)
            for step in steps { drawing.draw(step, of: strokes, on: canvas) }
            return bytes(canvas.frame)
        }
        typealias P = SheetPlayback.Progress
        let partial = frame([P(strokes: 1, points: 12)])
        XCTAssertNotEqual(partial, rebuilt(1), "part of the second stroke shows")
        XCTAssertNotEqual(partial, rebuilt(2), "not all of it")
        // Point by point, or back from the end, it is the same frame.
        XCTAssertEqual(frame((1...12).map { P(strokes: 1, points: $0) }), partial)
        XCTAssertEqual(frame([P(strokes: 0, points: 3), P(strokes: 3, points: 0), P(strokes: 1, points: 12)]), partial)
        // More of the stroke shows more ink, and the prefix as a whole stroke is what shows.
        let canvas = CanvasRenderer(width: 240, height: 180, scale: 1.5)
        var prefix = strokes[1]
        prefix.points = Array(prefix.points.prefix(12))
        prefix.pressures = prefix.pressures.map { Array($0.prefix(12)) }
        canvas.rebuild(strokes: [strokes[0], prefix])
        XCTAssertEqual(partial, bytes(canvas.frame))
    }
}
