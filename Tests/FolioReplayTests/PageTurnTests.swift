import FolioCore
import FolioGeometry
import FolioInput
import XCTest

/// Page turns through a Session, as input drives them: completing past 90° or falling back,
/// new sheets, backward turns, no ink, strokes and undo per sheet.
final class PageTurnTests: XCTestCase {
    private let (width, height) = (1280, 800)

    /// `events`, then the `wl_touch.frame` that makes them take effect, at `t`.
    private func touchFrame(_ session: Session, at t: Double, _ events: InputEvent...) {
        for event in events { session.handle(event, at: t) }
        session.handle(.touchFrame, at: t)
    }

    private func stroke(_ session: Session, id: Int32 = 1, at t: Double, from a: Point, to b: Point) {
        touchFrame(session, at: t, .touchDown(id: id, at: a))
        touchFrame(session, at: t + 16, .touchMotion(id: id, to: b))
        touchFrame(session, at: t + 32, .touchUp(id: id))
    }

    /// A drag from `x0` to `x1` (a finger at the edge), released, then time for the leaf to settle.
    private func drag(_ session: Session, at t: Double, from x0: Double, to x1: Double, steps: Int = 10) {
        touchFrame(session, at: t, .touchDown(id: 9, at: Point(x: x0, y: 400)))
        for i in 1...steps {
            let x = x0 + (x1 - x0) * Double(i) / Double(steps)
            touchFrame(session, at: t + Double(i) * 16, .touchMotion(id: 9, to: Point(x: x, y: 400)))
        }
        let up = t + Double(steps + 1) * 16
        touchFrame(session, at: up, .touchUp(id: 9))
        for frame in 1...40 { session.advance(to: up + Double(frame) * 16) }
    }

    private func flips(_ session: Session) -> [String] { session.timeline.map(\.name).filter { $0.hasPrefix("flip.") } }

    func testAForwardTurnPastHalfwayFromTheLastSheetAddsABlankOne() {
        let session = Session(width: width, height: height)
        stroke(session, at: 0, from: Point(x: 100, y: 100), to: Point(x: 300, y: 200))
        drag(session, at: 200, from: 1270, to: 300)
        XCTAssertEqual(session.book.sheets.count, 2)
        XCTAssertEqual(session.book.currentSheet, 1)
        XCTAssertEqual(session.mode, .idle)
        XCTAssertFalse(session.isAnimating)
        XCTAssertEqual(flips(session), ["flip.began", "flip.completed"])
        XCTAssertEqual(Array(session.timeline.map(\.name).suffix(4)), ["flip.began", "sheet.added", "sheet.changed", "flip.completed"])
        XCTAssertEqual(session.book.sheets.map(\.strokes.count), [1, 0], "the turn left no ink")

        stroke(session, at: 2000, from: Point(x: 400, y: 400), to: Point(x: 500, y: 450))
        XCTAssertEqual(session.book.sheets.map(\.strokes.count), [1, 1], "the stroke lands on the new sheet")
    }

    func testATurnReleasedBeforeHalfwayFallsBack() {
        let session = Session(width: width, height: height)
        stroke(session, at: 0, from: Point(x: 100, y: 100), to: Point(x: 300, y: 200))
        drag(session, at: 200, from: 1270, to: 900)
        XCTAssertEqual(session.book.sheets.count, 1)
        XCTAssertEqual(session.book.currentSheet, 0)
        XCTAssertEqual(flips(session), ["flip.began", "flip.cancelled"])
        XCTAssertEqual(session.turn.angle, 0)
    }

    func testTheLeafFollowsTheFingerAtOnce() {
        let session = Session(width: width, height: height)
        stroke(session, at: 0, from: Point(x: 100, y: 100), to: Point(x: 300, y: 200))
        touchFrame(session, at: 100, .touchDown(id: 9, at: Point(x: 1260, y: 400)))
        touchFrame(session, at: 116, .touchMotion(id: 9, to: Point(x: 945, y: 400)))
        XCTAssertEqual(session.mode, .turning(.forward))
        XCTAssertEqual(session.turn.angle, -Double.pi * (1260 - 945) / 1260, accuracy: 1e-12)
        XCTAssertTrue(session.mode.showsCurtain)
    }

    func testNoTurnFromTheLastSheetWhenItIsBlankNorBackFromTheFirst() {
        let session = Session(width: width, height: height)
        drag(session, at: 0, from: 1270, to: 100)
        drag(session, at: 1000, from: 5, to: 1200)
        XCTAssertEqual(session.book.sheets.count, 1)
        XCTAssertEqual(session.timeline.map(\.name), [], "nothing turned, nothing drew")
    }

    func testABackwardTurnReturnsAndUndoKeepsToItsSheet() {
        let session = Session(width: width, height: height)
        stroke(session, at: 0, from: Point(x: 100, y: 100), to: Point(x: 300, y: 200))
        stroke(session, at: 100, from: Point(x: 100, y: 300), to: Point(x: 300, y: 400))
        drag(session, at: 200, from: 1270, to: 200)
        stroke(session, at: 2000, from: Point(x: 600, y: 400), to: Point(x: 700, y: 450))
        drag(session, at: 3000, from: 10, to: 1100)
        XCTAssertEqual(session.book.currentSheet, 0, "back on the first sheet")
        XCTAssertEqual(Array(flips(session).suffix(2)), ["flip.began", "flip.completed"])
        if let undo = KeyChord(parsing: "ctrl+z") { session.handle(.key(undo, pressed: true), at: 5000) }
        XCTAssertEqual(session.book.sheets.map(\.strokes.count), [1, 1], "undo takes back the first sheet's newest stroke only")
    }

    func testAPinchCannotStartDuringATurn() {
        let session = Session(width: width, height: height)
        stroke(session, at: 0, from: Point(x: 100, y: 100), to: Point(x: 300, y: 200))
        touchFrame(session, at: 100, .touchDown(id: 9, at: Point(x: 1270, y: 400)))
        touchFrame(session, at: 110, .touchDown(id: 8, at: Point(x: 400, y: 400)))
        touchFrame(session, at: 120, .touchMotion(id: 8, to: Point(x: 600, y: 400)))
        session.handle(.pinchBegin(fingers: 2), at: 130)
        session.handle(.pinchUpdate(scale: 0.5, dx: 0, dy: 0, rotation: 0), at: 140)
        XCTAssertEqual(session.mode, .turning(.forward))
        XCTAssertFalse(session.timeline.map(\.name).contains("fold.began"))
    }

    func testPageDownPlaysTheSameTurnInAtMostFourTenthsOfASecond() throws {
        let session = Session(width: width, height: height)
        stroke(session, at: 0, from: Point(x: 100, y: 100), to: Point(x: 300, y: 200))
        session.handle(.key(try XCTUnwrap(KeyChord(parsing: "Next")), pressed: true), at: 1000)
        XCTAssertEqual(session.mode, .settlingTurn)
        session.advance(to: 1200)
        XCTAssertLessThan(session.turn.angle, 0, "the leaf is on its way")
        XCTAssertGreaterThan(session.turn.angle, -Double.pi)
        session.advance(to: 1400)
        XCTAssertEqual(session.mode, .idle)
        XCTAssertEqual(session.book.currentSheet, 1)
        XCTAssertEqual(flips(session), ["flip.began", "flip.completed"])
    }

    func testAResizeDuringATurnEndsItOnTheSameSheet() {
        let session = Session(width: width, height: height)
        stroke(session, at: 0, from: Point(x: 100, y: 100), to: Point(x: 300, y: 200))
        touchFrame(session, at: 100, .touchDown(id: 9, at: Point(x: 1270, y: 400)))
        touchFrame(session, at: 116, .touchMotion(id: 9, to: Point(x: 200, y: 400)))
        touchFrame(session, at: 132, .touchUp(id: 9))
        XCTAssertEqual(session.mode, .settlingTurn)
        session.handle(.resize(width: 1000, height: 700, scale: 1), at: 140)
        for frame in 1...40 { session.advance(to: 140 + Double(frame) * 16) }
        XCTAssertEqual(session.mode, .idle)
        XCTAssertEqual(session.book.sheets.count, 1, "the turn was dropped with the old size")
        XCTAssertEqual(flips(session), ["flip.began", "flip.cancelled"])
        XCTAssertFalse(session.isAnimating)
    }
}
