import FolioCore
import FolioGeometry
import FolioInput
import FolioPixels
import XCTest

/// Fractional buffer scales through a Session: ink is as wide in buffer pixels as the scale
/// says, and a scale change at run time (the window moves to another output) redraws everything
/// at the new scale without losing the stroke, the fold or the page turn in progress: the frame
/// is the one a session at the new scale all along would show.
final class ScaleChangeTests: XCTestCase {
    private let (width, height) = (640, 400)
    private let oneAndAHalf = BufferScale(numerator: 180)

    private func touchFrame(_ session: Session, at t: Double, _ events: InputEvent...) {
        for event in events { session.handle(event, at: t) }
        session.handle(.touchFrame, at: t)
    }

    private func assertSameFrame(_ a: Session, _ b: Session, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        _ = a.renderFrame()
        _ = b.renderFrame()
        XCTAssertEqual([a.frame.width, a.frame.height], [b.frame.width, b.frame.height], message, file: file, line: line)
        var differing = 0
        for y in 0..<min(a.frame.height, b.frame.height) {
            for x in 0..<min(a.frame.width, b.frame.width) where a.frame.pixel(x: x, y: y) != b.frame.pixel(x: x, y: y) {
                differing += 1
            }
        }
        XCTAssertEqual(differing, 0, message, file: file, line: line)
    }

    /// The default 6 logical px of ink: summed coverage across a horizontal stroke is 6 × scale
    /// buffer pixels (9 at 1.5, 7.5 at 1.25, 10.5 at 1.75).
    func testInkIsSixLogicalPixelsWideAtFractionalScales() {
        for numerator in [150, 180, 210] {
            let scale = BufferScale(numerator: numerator)
            let session = Session(width: width, height: height, scale: scale)
            XCTAssertEqual([session.pixelWidth, session.pixelHeight], [scale.pixels(width), scale.pixels(height)])
            touchFrame(session, at: 0, .touchDown(id: 1, at: Point(x: 100, y: 200)))
            for i in 1...10 { touchFrame(session, at: Double(i) * 16, .touchMotion(id: 1, to: Point(x: 100 + Double(i) * 40, y: 200))) }
            touchFrame(session, at: 200, .touchUp(id: 1))
            _ = session.renderFrame()
            let x = scale.pixels(300)
            // Blue ink on white paper: red is 255 × (1 − coverage).
            let covered = (0..<session.pixelHeight).reduce(0.0) { sum, y in
                sum + 1 - Double((session.frame.pixel(x: x, y: y) >> 16) & 0xFF) / 255
            }
            XCTAssertEqual(covered, 6 * scale.factor, accuracy: 0.1, "ink across the stroke at \(scale)")
        }
    }

    func testAStrokeInProgressSurvivesAScaleChange() {
        let changed = Session(width: width, height: height)
        let reference = Session(width: width, height: height, scale: oneAndAHalf)
        for session in [changed, reference] {
            touchFrame(session, at: 0, .touchDown(id: 1, at: Point(x: 100, y: 100)))
            for i in 1...6 { touchFrame(session, at: Double(i) * 16, .touchMotion(id: 1, to: Point(x: 100 + Double(i) * 30, y: 100 + Double(i * i) * 3))) }
        }
        changed.handle(.resize(width: width, height: height, scale: oneAndAHalf), at: 100)
        XCTAssertEqual(changed.mode, .drawing, "the finger is still drawing")
        assertSameFrame(changed, reference, "the live stroke, redrawn at 1.5")
        for session in [changed, reference] {
            for i in 7...12 { touchFrame(session, at: Double(i) * 16 + 100, .touchMotion(id: 1, to: Point(x: 100 + Double(i) * 30, y: 100 + Double(i * i) * 3))) }
            touchFrame(session, at: 400, .touchUp(id: 1))
        }
        XCTAssertEqual(changed.book.sheet.strokes, reference.book.sheet.strokes)
        XCTAssertEqual(changed.book.sheet.strokes.first?.points.count, 13)
        XCTAssertEqual(changed.timeline.map(\.name), ["stroke.began", "stroke.ended"])
        assertSameFrame(changed, reference, "the finished stroke")
    }

    func testAFoldInProgressSurvivesAScaleChange() {
        let changed = Session(width: width, height: height, scale: 2)
        let reference = Session(width: width, height: height, scale: oneAndAHalf)
        for session in [changed, reference] {
            touchFrame(session, at: 0, .touchDown(id: 1, at: Point(x: 100, y: 300)))
            touchFrame(session, at: 16, .touchMotion(id: 1, to: Point(x: 400, y: 320)))
            touchFrame(session, at: 32, .touchUp(id: 1))
            touchFrame(session, at: 500, .touchDown(id: 2, at: Point(x: 120, y: 200)), .touchDown(id: 3, at: Point(x: 520, y: 200)))
            touchFrame(session, at: 516, .touchMotion(id: 2, to: Point(x: 170, y: 200)), .touchMotion(id: 3, to: Point(x: 470, y: 200)))
        }
        XCTAssertEqual(changed.foldScale, 0.75, accuracy: 1e-9)
        changed.handle(.resize(width: width, height: height, scale: oneAndAHalf), at: 520)
        XCTAssertEqual(changed.mode, .folding(.pinch), "the fingers still hold the fold")
        XCTAssertEqual(changed.foldScale, 0.75, accuracy: 1e-9)
        assertSameFrame(changed, reference, "the fold at 0.75, redrawn at 1.5")
        for session in [changed, reference] {
            touchFrame(session, at: 532, .touchMotion(id: 2, to: Point(x: 200, y: 200)), .touchMotion(id: 3, to: Point(x: 440, y: 200)))
        }
        XCTAssertEqual(changed.foldScale, 0.6, accuracy: 1e-9, "the pinch goes on tracking")
        assertSameFrame(changed, reference, "the fold at 0.6")
        for session in [changed, reference] {
            touchFrame(session, at: 548, .touchUp(id: 2), .touchUp(id: 3))
            for frame in 1...80 { session.advance(to: 548 + Double(frame) * 16) }
        }
        XCTAssertEqual(changed.mode, .idle)
        XCTAssertEqual(changed.timeline.map(\.name), reference.timeline.map(\.name))
        XCTAssertEqual(changed.book.sheet.strokes.count, 1)
        assertSameFrame(changed, reference, "the book open again")
    }

    func testATurnHeldAcrossAScaleChangeGoesOn() {
        let changed = Session(width: width, height: height)
        let reference = Session(width: width, height: height, scale: oneAndAHalf)
        for session in [changed, reference] {
            touchFrame(session, at: 0, .touchDown(id: 1, at: Point(x: 400, y: 100)))
            touchFrame(session, at: 16, .touchMotion(id: 1, to: Point(x: 600, y: 150)))
            touchFrame(session, at: 32, .touchUp(id: 1))
            touchFrame(session, at: 500, .touchDown(id: 9, at: Point(x: 635, y: 200)))
            touchFrame(session, at: 516, .touchMotion(id: 9, to: Point(x: 400, y: 200)))
        }
        let angle = changed.turn.angle
        changed.handle(.resize(width: width, height: height, scale: oneAndAHalf), at: 520)
        XCTAssertEqual(changed.mode, .turning(.forward), "the finger still holds the leaf")
        XCTAssertEqual(changed.turn.angle, angle, accuracy: 1e-12)
        assertSameFrame(changed, reference, "the leaf, redrawn at 1.5")
        for session in [changed, reference] {
            touchFrame(session, at: 532, .touchMotion(id: 9, to: Point(x: 100, y: 200)))
            touchFrame(session, at: 548, .touchUp(id: 9))
            for frame in 1...40 { session.advance(to: 548 + Double(frame) * 16) }
        }
        XCTAssertEqual(changed.timeline.map(\.name).filter { $0.hasPrefix("flip.") }, ["flip.began", "flip.completed"])
        XCTAssertEqual(changed.book.currentSheet, 1)
        assertSameFrame(changed, reference, "the next sheet")
    }
}
