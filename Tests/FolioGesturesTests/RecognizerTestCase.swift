import FolioGeometry
import FolioInput
import XCTest
@testable import FolioGestures

/// What the recogniser's tests share: a fresh recogniser for each test, fed events at a time.
class RecognizerTestCase: XCTestCase {
    var recognizer = GestureRecognizer()

    override func setUp() {
        recognizer = GestureRecognizer()
    }

    /// Feeds events at `time`; returns the gestures they produced.
    func feed(_ time: Double, _ events: InputEvent...) -> [Gesture] {
        events.flatMap { recognizer.handle($0, time: time) }
    }

    func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }
}
