import FolioGeometry
import FolioInput
import XCTest
@testable import FolioGestures

/// Touches and presses landing by the left or right edge turn pages and never draw.
final class EdgeTurnTests: RecognizerTestCase {
    override func setUp() {
        super.setUp()
        recognizer.width = 1280
    }

    func testATouchByTheRightEdgeTurnsForward() {
        XCTAssertEqual(feed(0, .touchDown(id: 1, at: p(1260, 300)), .touchFrame), [.turnBegan(edge: .right, at: p(1260, 300))])
        XCTAssertEqual(feed(16, .touchMotion(id: 1, to: p(900, 310)), .touchFrame), [.turnMoved(to: p(900, 310))])
        XCTAssertEqual(feed(33, .touchUp(id: 1), .touchFrame), [.turnEnded(cancelled: false)])
    }

    func testTheEdgeZonesAre32PixelsWide() {
        XCTAssertEqual(feed(0, .touchDown(id: 1, at: p(32, 300)), .touchFrame), [.turnBegan(edge: .left, at: p(32, 300))])
        _ = feed(1, .touchUp(id: 1), .touchFrame)
        XCTAssertEqual(feed(2, .touchDown(id: 2, at: p(33, 300)), .touchFrame), [.strokeBegan(at: p(33, 300))])
        _ = feed(3, .touchUp(id: 2), .touchFrame)
        XCTAssertEqual(feed(4, .touchDown(id: 3, at: p(1247, 300)), .touchFrame), [.strokeBegan(at: p(1247, 300))])
        _ = feed(5, .touchUp(id: 3), .touchFrame)
        XCTAssertEqual(feed(6, .touchDown(id: 4, at: p(1248, 300)), .touchFrame), [.turnBegan(edge: .right, at: p(1248, 300))])
    }

    func testASecondFingerDuringATurnDoesNotPinch() {
        _ = feed(0, .touchDown(id: 1, at: p(1270, 300)), .touchFrame)
        XCTAssertEqual(feed(10, .touchDown(id: 2, at: p(600, 300)), .touchFrame), [])
        XCTAssertEqual(feed(20, .touchMotion(id: 2, to: p(500, 300)), .touchMotion(id: 1, to: p(1000, 300)), .touchFrame),
                       [.turnMoved(to: p(1000, 300))])
        XCTAssertEqual(feed(30, .touchUp(id: 1), .touchFrame), [.turnEnded(cancelled: false)])
        XCTAssertEqual(feed(40, .touchMotion(id: 2, to: p(400, 300)), .touchFrame), [], "the other finger waits for lift")
        XCTAssertEqual(feed(50, .touchUp(id: 2), .touchFrame), [])
        XCTAssertEqual(feed(60, .touchDown(id: 3, at: p(600, 300)), .touchFrame), [.strokeBegan(at: p(600, 300))])
    }

    func testACancelledTurnSaysSo() {
        _ = feed(0, .touchDown(id: 1, at: p(5, 300)), .touchFrame)
        XCTAssertEqual(feed(10, .touchCancel), [.turnEnded(cancelled: true)])
    }

    func testTheMouseTurnsFromTheEdgesToo() {
        XCTAssertEqual(feed(0, .pointerMotion(to: p(1275, 400)), .pointerButton(.left, pressed: true)),
                       [.turnBegan(edge: .right, at: p(1275, 400))])
        XCTAssertEqual(feed(10, .pointerMotion(to: p(700, 400))), [.turnMoved(to: p(700, 400))])
        XCTAssertEqual(feed(20, .pointerButton(.left, pressed: false)), [.turnEnded(cancelled: false)])
    }

    func testWithoutAWidthThereAreNoEdges() {
        recognizer = GestureRecognizer()
        XCTAssertEqual(feed(0, .touchDown(id: 1, at: p(1270, 300)), .touchFrame), [.strokeBegan(at: p(1270, 300))])
    }
}
