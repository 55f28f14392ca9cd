import FolioCore
import FolioGeometry
import FolioInput
import FolioLayers
import XCTest

/// The fold's state machine through a Session, as input drives it.
final class FoldControllerTests: XCTestCase {
    private func pinch(_ session: Session, from: Double = 400, to: Double, at t0: Double) {
        session.handle(.touchDown(id: 1, at: Point(x: 320 - from / 2, y: 200)), at: t0)
        session.handle(.touchDown(id: 2, at: Point(x: 320 + from / 2, y: 200)), at: t0)
        session.handle(.touchFrame, at: t0)
        session.handle(.touchMotion(id: 1, to: Point(x: 320 - to / 2, y: 200)), at: t0 + 50)
        session.handle(.touchMotion(id: 2, to: Point(x: 320 + to / 2, y: 200)), at: t0 + 50)
        session.handle(.touchFrame, at: t0 + 50)
    }

    private func lift(_ session: Session, at t: Double) {
        session.handle(.touchUp(id: 1), at: t)
        session.handle(.touchUp(id: 2), at: t)
        session.handle(.touchFrame, at: t)
    }

    func testTrackingClampsAndTheUnfoldTakesHalfASecondOverScale() {
        let session = Session(width: 640, height: 400)
        pinch(session, to: 100, at: 0)  // raw scale 0.25
        XCTAssertEqual(session.mode, .folding(.pinch))
        XCTAssertEqual(session.foldScale, 0.48)
        let expected = FoldScene.pageTransform(scale: 0.48, side: .left)
        XCTAssertEqual(session.fold.leftPageTransform, expected, "live tracking shows the newest scale at once")
        lift(session, at: 100)
        XCTAssertEqual(session.mode, .unfolding)
        XCTAssertTrue(session.isAnimating)
        session.advance(to: 100 + 500 / 0.48 / 2)
        XCTAssertGreaterThan(session.foldScale, 0.48)
        XCTAssertLessThan(session.foldScale, 1)
        session.advance(to: 100 + 500 / 0.48 - 1)
        XCTAssertEqual(session.mode, .unfolding)
        session.advance(to: 100 + 500 / 0.48 + 1)
        XCTAssertEqual(session.mode, .idle)
        XCTAssertFalse(session.isAnimating)
        XCTAssertEqual(session.timeline.last?.name, "unfold.completed")
        XCTAssertEqual(session.timeline.last?.time ?? 0, 100 + 500 / 0.48, accuracy: 1e-9)
    }

    func testAReversePinchDoesNothing() {
        let session = Session(width: 640, height: 400)
        pinch(session, from: 200, to: 300, at: 0)
        XCTAssertEqual(session.foldScale, 1)
        XCTAssertEqual(session.fold.leftPageTransform, FoldScene.perspective)
    }

    func testAPinchDuringTheUnfoldIsIgnored() {
        let session = Session(width: 640, height: 400)
        pinch(session, to: 300, at: 0)
        lift(session, at: 100)
        pinch(session, to: 200, at: 200)
        XCTAssertEqual(session.mode, .unfolding)
        lift(session, at: 300)
        session.advance(to: 100 + 500 / 0.75 + 1)
        XCTAssertEqual(session.mode, .idle)
        XCTAssertEqual(session.timeline.map(\.name).filter { $0 == "fold.began" }.count, 1)
    }

    func testFoldKeysStepWithTheImplicitQuarterSecondAnimation() throws {
        let session = Session(width: 640, height: 400)
        let key = try XCTUnwrap(KeyChord(parsing: "bracketright"))
        session.handle(.key(key, pressed: true), at: 1000)
        XCTAssertEqual(session.mode, .folding(.keys))
        let step = FoldScene.perspective.scaled(0.95, 0.95, 0.95).rotated(7.5 * .pi / 180, 0, 1, 0)
        XCTAssertEqual(session.fold.leftPageTransform, FoldScene.perspective, "the step starts from where the page is")
        XCTAssertTrue(session.isAnimating)
        session.advance(to: 1250)
        XCTAssertEqual(session.fold.leftPageTransform, step)
        XCTAssertFalse(session.isAnimating)
        session.handle(.key(key, pressed: true), at: 1300)
        session.advance(to: 1600)
        XCTAssertEqual(session.fold.leftPageTransform.m11,
                       step.scaled(0.95, 0.95, 0.95).rotated(7.5 * .pi / 180, 0, 1, 0).m11, accuracy: 1e-12)
        session.handle(.key(try XCTUnwrap(KeyChord(parsing: "bracketleft")), pressed: true), at: 1700)
        XCTAssertEqual(session.mode, .idle)
    }

    func testNoDrawingWhileFolded() {
        let session = Session(width: 640, height: 400)
        pinch(session, to: 300, at: 0)
        lift(session, at: 100)
        session.handle(.touchDown(id: 5, at: Point(x: 10, y: 10)), at: 150)
        session.handle(.touchFrame, at: 150)
        XCTAssertFalse(session.isDrawing)
        session.handle(.touchUp(id: 5), at: 160)
        session.handle(.touchFrame, at: 160)
        XCTAssertEqual(session.book.sheet.strokes.count, 0)
    }
}
