import FolioGeometry
import FolioInput
import XCTest
@testable import FolioGestures

/// Two- and three-finger taps: recognised when the last finger lifts, never at the cost of a
/// pinch (which still begins the moment the second finger lands).
final class TapTests: RecognizerTestCase {
    func testATwoFingerTapWithdrawsItsPinchAndTaps() {
        XCTAssertEqual(feed(0, .touchDown(id: 1, at: p(400, 300)), .touchFrame), [.strokeBegan(at: p(400, 300))])
        XCTAssertEqual(feed(20, .touchDown(id: 2, at: p(500, 300)), .touchFrame), [.strokeWithdrawn, .pinchBegan],
                       "the pinch begins at once, as without taps")
        XCTAssertEqual(feed(60, .touchMotion(id: 1, to: p(405, 300)), .touchFrame), [.pinchChanged(scale: 0.95)])
        XCTAssertEqual(feed(120, .touchUp(id: 1), .touchFrame), [.pinchWithdrawn])
        XCTAssertEqual(feed(140, .touchUp(id: 2), .touchFrame), [.tap(fingers: 2)])
    }

    func testBothFingersInOneFrameTapToo() {
        _ = feed(0, .touchDown(id: 1, at: p(400, 300)), .touchDown(id: 2, at: p(500, 300)), .touchFrame)
        XCTAssertEqual(feed(250, .touchUp(id: 1), .touchUp(id: 2), .touchFrame), [.pinchWithdrawn, .tap(fingers: 2)])
    }

    func testAThreeFingerTapIsOneTapOfThreeAndNeverAlsoOfTwo() {
        _ = feed(0, .touchDown(id: 1, at: p(400, 300)), .touchFrame)
        _ = feed(10, .touchDown(id: 2, at: p(500, 300)), .touchFrame)
        XCTAssertEqual(feed(30, .touchDown(id: 3, at: p(600, 300)), .touchFrame), [])
        XCTAssertEqual(feed(100, .touchUp(id: 1), .touchFrame), [.pinchWithdrawn])
        XCTAssertEqual(feed(110, .touchUp(id: 2), .touchFrame), [])
        XCTAssertEqual(feed(120, .touchUp(id: 3), .touchFrame), [.tap(fingers: 3)])
    }

    func testTooSlowIsNoTap() {
        _ = feed(0, .touchDown(id: 1, at: p(400, 300)), .touchDown(id: 2, at: p(500, 300)), .touchFrame)
        XCTAssertEqual(feed(251, .touchUp(id: 1), .touchUp(id: 2), .touchFrame), [.pinchEnded(cancelled: false)])
        // The first finger lifted in time, the second too late: the pinch is withdrawn, nothing taps.
        _ = feed(1000, .touchDown(id: 1, at: p(400, 300)), .touchDown(id: 2, at: p(500, 300)), .touchFrame)
        XCTAssertEqual(feed(1100, .touchUp(id: 1), .touchFrame), [.pinchWithdrawn])
        XCTAssertEqual(feed(1300, .touchUp(id: 2), .touchFrame), [])
    }

    func testMovedTooFarIsNoTap() {
        _ = feed(0, .touchDown(id: 1, at: p(400, 300)), .touchDown(id: 2, at: p(500, 300)), .touchFrame)
        _ = feed(50, .touchMotion(id: 2, to: p(500, 310.5)), .touchFrame)
        XCTAssertEqual(feed(100, .touchUp(id: 1), .touchUp(id: 2), .touchFrame), [.pinchEnded(cancelled: false)])
        // Within the slop it still taps.
        _ = feed(1000, .touchDown(id: 1, at: p(400, 300)), .touchDown(id: 2, at: p(500, 300)), .touchFrame)
        _ = feed(1050, .touchMotion(id: 2, to: p(506, 308)), .touchFrame)
        XCTAssertEqual(feed(1100, .touchUp(id: 1), .touchUp(id: 2), .touchFrame), [.pinchWithdrawn, .tap(fingers: 2)])
    }

    func testAFingerLandingAfterAnotherLiftedIsNoTap() {
        _ = feed(0, .touchDown(id: 1, at: p(400, 300)), .touchDown(id: 2, at: p(500, 300)), .touchFrame)
        XCTAssertEqual(feed(50, .touchUp(id: 1), .touchFrame), [.pinchWithdrawn])
        XCTAssertEqual(feed(80, .touchDown(id: 3, at: p(450, 300)), .touchFrame), [])
        XCTAssertEqual(feed(100, .touchUp(id: 2), .touchUp(id: 3), .touchFrame), [])
    }

    func testOneFingerFourFingersAPalmOrACancelNeverTap() {
        _ = feed(0, .touchDown(id: 1, at: p(400, 300)), .touchFrame)
        XCTAssertEqual(feed(50, .touchUp(id: 1), .touchFrame), [.strokeEnded])
        _ = feed(100, .touchDown(id: 1, at: p(400, 300)), .touchDown(id: 2, at: p(500, 300)), .touchFrame)
        _ = feed(110, .touchDown(id: 3, at: p(600, 300)), .touchDown(id: 4, at: p(700, 300)), .touchFrame)
        XCTAssertEqual(feed(150, .touchUp(id: 1), .touchUp(id: 2), .touchUp(id: 3), .touchUp(id: 4), .touchFrame),
                       [.pinchEnded(cancelled: false)])
        _ = feed(200, .touchDown(id: 1, at: p(400, 300)), .touchDown(id: 2, at: p(500, 300)), .touchFrame)
        _ = feed(210, .touchShape(id: 2, major: 80, minor: 40), .touchFrame)
        XCTAssertEqual(feed(250, .touchUp(id: 1), .touchUp(id: 2), .touchFrame), [.pinchEnded(cancelled: false)])
        _ = feed(300, .touchDown(id: 1, at: p(400, 300)), .touchDown(id: 2, at: p(500, 300)), .touchFrame)
        XCTAssertEqual(feed(320, .touchCancel), [.pinchEnded(cancelled: true)])
        XCTAssertEqual(feed(340, .touchDown(id: 1, at: p(400, 300)), .touchFrame), [.strokeBegan(at: p(400, 300))])
        XCTAssertEqual(feed(350, .touchUp(id: 1), .touchFrame), [.strokeEnded])
    }

    /// A pinch that starts like a tap still begins the moment the second finger lands, follows the
    /// fingers from their first motion, and ends as a pinch.
    func testAPinchThatStartsLikeATapFoldsWithNoDelay() {
        _ = feed(0, .touchDown(id: 1, at: p(400, 300)), .touchFrame)
        XCTAssertEqual(feed(5, .touchDown(id: 2, at: p(600, 300)), .touchFrame), [.strokeWithdrawn, .pinchBegan])
        XCTAssertEqual(feed(21, .touchMotion(id: 1, to: p(450, 300)), .touchFrame), [.pinchChanged(scale: 0.75)])
        XCTAssertEqual(feed(80, .touchUp(id: 1), .touchUp(id: 2), .touchFrame), [.pinchEnded(cancelled: false)])
    }

    func testWithTapsOffAQuickPinchEndsAsBefore() {
        recognizer.taps = false
        _ = feed(0, .touchDown(id: 1, at: p(400, 300)), .touchDown(id: 2, at: p(500, 300)), .touchFrame)
        XCTAssertEqual(feed(100, .touchUp(id: 1), .touchUp(id: 2), .touchFrame), [.pinchEnded(cancelled: false)])
    }

    func testATurnWithASecondFingerIsNoTap() {
        recognizer.width = 1000
        _ = feed(0, .touchDown(id: 1, at: p(990, 300)), .touchFrame)
        _ = feed(10, .touchDown(id: 2, at: p(500, 300)), .touchFrame)
        XCTAssertEqual(feed(100, .touchUp(id: 1), .touchUp(id: 2), .touchFrame), [.turnEnded(cancelled: false)])
    }
}
