import FolioGeometry
import FolioInput
import XCTest
@testable import FolioGestures

final class GestureRecognizerTests: RecognizerTestCase {
    func testOneFingerDrawsAStroke() {
        XCTAssertEqual(feed(0, .touchDown(id: 1, at: p(10, 10)), .touchFrame), [.strokeBegan(at: p(10, 10))])
        XCTAssertEqual(feed(16, .touchMotion(id: 1, to: p(20, 12)), .touchFrame), [.strokeMoved(to: p(20, 12))])
        XCTAssertEqual(feed(33, .touchUp(id: 1), .touchFrame), [.strokeEnded])
    }

    func testTouchEventsWaitForTheirFrame() {
        XCTAssertEqual(feed(0, .touchDown(id: 1, at: p(10, 10))), [])
        XCTAssertEqual(feed(0, .touchFrame), [.strokeBegan(at: p(10, 10))])
    }

    func testMotionAndLiftInOneFrameDrawsTheMotionFirst() {
        _ = feed(0, .touchDown(id: 1, at: p(10, 10)), .touchFrame)
        XCTAssertEqual(feed(16, .touchMotion(id: 1, to: p(30, 10)), .touchUp(id: 1), .touchFrame),
                       [.strokeMoved(to: p(30, 10)), .strokeEnded])
    }

    func testUnknownIdsAreIgnored() {
        XCTAssertEqual(feed(0, .touchMotion(id: 9, to: p(1, 1)), .touchUp(id: 9), .touchFrame), [])
        _ = feed(0, .touchDown(id: 1, at: p(10, 10)), .touchFrame)
        XCTAssertEqual(feed(5, .touchUp(id: 7), .touchMotion(id: 8, to: p(3, 3)), .touchFrame), [])
    }

    func testPinchWithBothFingersInOneFrame() {
        XCTAssertEqual(feed(0, .touchDown(id: 2, at: p(760, 600)), .touchDown(id: 3, at: p(1160, 600)), .touchFrame),
                       [.strokeBegan(at: p(760, 600)), .strokeWithdrawn, .pinchBegan])
        XCTAssertEqual(feed(100, .touchMotion(id: 2, to: p(810, 600)), .touchMotion(id: 3, to: p(1110, 600)), .touchFrame),
                       [.pinchChanged(scale: 0.75)])
        XCTAssertEqual(feed(200, .touchUp(id: 2), .touchUp(id: 3), .touchFrame), [.pinchEnded(cancelled: false)])
    }

    /// Mutter sends a frame per finger; KWin one per injected frame. The pinch must come out the same.
    func testPinchWithAFramePerFingerGivesTheSameScale() {
        XCTAssertEqual(feed(0, .touchDown(id: 2, at: p(760, 600)), .touchFrame), [.strokeBegan(at: p(760, 600))])
        XCTAssertEqual(feed(1, .touchDown(id: 3, at: p(1160, 600)), .touchFrame), [.strokeWithdrawn, .pinchBegan])
        XCTAssertEqual(feed(100, .touchMotion(id: 2, to: p(810, 600)), .touchFrame), [.pinchChanged(scale: 0.875)])
        XCTAssertEqual(feed(100, .touchMotion(id: 3, to: p(1110, 600)), .touchFrame), [.pinchChanged(scale: 0.75)])
        XCTAssertEqual(feed(200, .touchUp(id: 3), .touchFrame), [.pinchEnded(cancelled: false)])
        // The finger still down does not draw.
        XCTAssertEqual(feed(220, .touchMotion(id: 2, to: p(900, 600)), .touchFrame), [])
        XCTAssertEqual(feed(240, .touchUp(id: 2), .touchFrame), [])
        XCTAssertEqual(feed(300, .touchDown(id: 4, at: p(5, 5)), .touchFrame), [.strokeBegan(at: p(5, 5))])
    }

    func testAStrokeOlderThanTheWindowIsKeptWhenAPinchBegins() {
        _ = feed(0, .touchDown(id: 1, at: p(10, 10)), .touchFrame)
        _ = feed(150, .touchMotion(id: 1, to: p(50, 10)), .touchFrame)
        XCTAssertEqual(feed(300, .touchDown(id: 2, at: p(400, 10)), .touchFrame), [.strokeEnded, .pinchBegan])
    }

    func testAStrokeYoungerThanTheWindowIsWithdrawn() {
        _ = feed(0, .touchDown(id: 1, at: p(10, 10)), .touchFrame)
        _ = feed(150, .touchMotion(id: 1, to: p(50, 10)), .touchFrame)
        XCTAssertEqual(feed(299.9, .touchDown(id: 2, at: p(400, 10)), .touchFrame), [.strokeWithdrawn, .pinchBegan])
    }

    func testAReversePinchReportsItsRawScale() {
        _ = feed(0, .touchDown(id: 1, at: p(100, 100)), .touchDown(id: 2, at: p(200, 100)), .touchFrame)
        XCTAssertEqual(feed(16, .touchMotion(id: 2, to: p(300, 100)), .touchFrame), [.pinchChanged(scale: 2)])
    }

    func testAThirdFingerIsIgnored() {
        _ = feed(0, .touchDown(id: 1, at: p(100, 100)), .touchDown(id: 2, at: p(200, 100)), .touchFrame)
        XCTAssertEqual(feed(16, .touchDown(id: 3, at: p(150, 300)), .touchMotion(id: 3, to: p(10, 10)), .touchFrame), [])
        XCTAssertEqual(feed(20, .touchUp(id: 3), .touchFrame), [])
        XCTAssertEqual(feed(30, .touchMotion(id: 2, to: p(150, 100)), .touchFrame), [.pinchChanged(scale: 0.5)])
    }

    func testIdsMayBeReused() {
        _ = feed(0, .touchDown(id: 1, at: p(10, 10)), .touchFrame)
        _ = feed(10, .touchUp(id: 1), .touchFrame)
        XCTAssertEqual(feed(500, .touchDown(id: 1, at: p(70, 70)), .touchFrame), [.strokeBegan(at: p(70, 70))])
        XCTAssertEqual(feed(510, .touchMotion(id: 1, to: p(80, 70)), .touchFrame), [.strokeMoved(to: p(80, 70))])
    }

    func testCancelKeepsTheStrokeAndForgetsTheFingers() {
        _ = feed(0, .touchDown(id: 1, at: p(10, 10)), .touchFrame)
        _ = feed(10, .touchMotion(id: 1, to: p(30, 10)))
        XCTAssertEqual(feed(20, .touchCancel), [.strokeEnded])
        XCTAssertEqual(feed(30, .touchUp(id: 1), .touchFrame), [])
        XCTAssertEqual(feed(40, .touchDown(id: 5, at: p(1, 2)), .touchFrame), [.strokeBegan(at: p(1, 2))])
    }

    func testCancelMidPinchEndsItAsCancelled() {
        _ = feed(0, .touchDown(id: 1, at: p(100, 100)), .touchDown(id: 2, at: p(200, 100)), .touchFrame)
        XCTAssertEqual(feed(10, .touchCancel), [.pinchEnded(cancelled: true)])
        XCTAssertEqual(feed(20, .touchMotion(id: 1, to: p(0, 0)), .touchFrame), [])
    }

    func testTheMouseDrawsWithTheLeftButton() {
        XCTAssertEqual(feed(0, .pointerMotion(to: p(5, 5)), .pointerButton(.right, pressed: true)), [])
        XCTAssertEqual(feed(1, .pointerButton(.left, pressed: true)), [.strokeBegan(at: p(5, 5))])
        XCTAssertEqual(feed(2, .pointerMotion(to: p(9, 5))), [.strokeMoved(to: p(9, 5))])
        XCTAssertEqual(feed(3, .pointerButton(.left, pressed: false)), [.strokeEnded])
        XCTAssertEqual(feed(4, .pointerMotion(to: p(20, 5))), [])
    }

    func testATouchpadPinchFoldsLikeATouchPinch() {
        XCTAssertEqual(feed(0, .pinchBegin(fingers: 2)), [.pinchBegan])
        XCTAssertEqual(feed(1, .pinchUpdate(scale: 0.8, dx: 0, dy: 0, rotation: 0)), [.pinchChanged(scale: 0.8)])
        XCTAssertEqual(feed(2, .pinchEnd(cancelled: false)), [.pinchEnded(cancelled: false)])
    }

    func testKeysBecomeCommands() {
        func key(_ text: String) -> [Gesture] {
            guard let chord = KeyChord(parsing: text) else { return [] }
            return feed(0, .key(chord, pressed: true), .key(chord, pressed: false))
        }
        XCTAssertEqual(key("ctrl+z"), [.command(.undo)])
        XCTAssertEqual(key("ctrl+shift+z"), [.command(.redo)])
        XCTAssertEqual(key("ctrl+y"), [.command(.redo)])
        XCTAssertEqual(key("F11"), [.command(.toggleFullscreen)])
        XCTAssertEqual(key("ctrl+q"), [.command(.quit)])
        XCTAssertEqual(key("ctrl+s"), [.command(.save)])
        XCTAssertEqual(key("bracketright"), [.command(.foldStep)])
        XCTAssertEqual(key("bracketleft"), [.command(.unfoldStep)])
        XCTAssertEqual(key("Next"), [.command(.nextSheet)])
        XCTAssertEqual(key("Prior"), [.command(.previousSheet)])
        XCTAssertEqual(key("ctrl+n"), [.command(.newSheet)])
        XCTAssertEqual(key("ctrl+Delete"), [.command(.deleteSheet)])
        XCTAssertEqual(key("Delete"), [], "a stray Delete never deletes a sheet")
        XCTAssertEqual(key("n"), [])
        XCTAssertEqual(key("z"), [])
        XCTAssertEqual(key("alt+z"), [])
    }
}
