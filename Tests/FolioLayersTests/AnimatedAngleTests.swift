import FolioGeometry
import XCTest
@testable import FolioLayers

/// The page turn's angle animates on the transaction's clock as a layer's transform does:
/// implicitly, at once with actions disabled, explicitly over a duration of its own, with
/// completions that wait for it and one answer to whether anything still animates.
final class AnimatedAngleTests: XCTestCase {
    private func scene() -> (Transaction, PageTurnScene) {
        let transaction = Transaction()
        let scene = PageTurnScene(width: 800, height: 600)
        scene.transaction = transaction
        return (transaction, scene)
    }

    func testAnAngleChangeAnimatesImplicitlyOverAQuarterSecondOnTheDefaultCurve() {
        let (transaction, scene) = scene()
        transaction.advance(to: 1000)
        scene.setAngle(-Double.pi / 2)
        XCTAssertEqual(scene.angle, -Double.pi / 2, "the model takes the new value at once")
        XCTAssertEqual(scene.presentationAngle(at: 1000), 0)
        XCTAssertEqual(scene.presentationAngle(at: 1125), -Double.pi / 2 * TimingFunction.default.value(at: 0.5))
        XCTAssertEqual(scene.presentationAngle(at: 1250), -Double.pi / 2)
        XCTAssertTrue(scene.isAnimating(at: 1249))
        XCTAssertFalse(scene.isAnimating(at: 1250))
        XCTAssertEqual(scene.leaf.transform, scene.perspective.rotated(0, 0, 1, 0), "the layers show the angle on screen")
    }

    func testDisabledActionsTurnTheLeafAtOnce() {
        let (transaction, scene) = scene()
        transaction.perform(disableActions: true) { scene.setAngle(-2) }
        XCTAssertEqual(scene.presentationAngle(at: 0), -2)
        XCTAssertFalse(scene.isAnimating(at: 0))
        XCTAssertFalse(transaction.isAnimating)
        XCTAssertEqual(scene.leaf.transform, scene.perspective.rotated(-2, 0, 1, 0))
        XCTAssertEqual(scene.showThrough, (Double.pi - 2) / (Double.pi / 2), accuracy: 1e-12)
    }

    func testASettleFollowsItsCurveAndCompletesWhenItsProgressReachesOne() {
        let (transaction, scene) = scene()
        transaction.perform(disableActions: true) { scene.setAngle(-1) }
        transaction.advance(to: 100)
        let distance = abs(-Double.pi - -1) / Double.pi
        let duration = 0.4 * 1000 * distance
        var completedAt: Double?
        transaction.perform(completion: { completedAt = transaction.now }) {
            scene.setAngle(-Double.pi, duration: duration)
        }
        XCTAssertTrue(transaction.isAnimating)
        var time = 100.0
        while completedAt == nil, time < 1000 {
            time += 1000.0 / 60.0
            transaction.advance(to: time)
            let t = (time - 100) / duration
            let expected = t >= 1 ? -Double.pi : -1 + (-Double.pi - -1) * TimingFunction.default.value(at: t)
            XCTAssertEqual(scene.presentationAngle(at: time), expected, "frame at \(time)")
            XCTAssertEqual(completedAt != nil, t >= 1, "frame at \(time)")
        }
        XCTAssertFalse(transaction.isAnimating)
        XCTAssertEqual(scene.presentationAngle(at: time), -Double.pi)
    }

    func testAnAnimationEndsAtTheFirstTimeItsProgressReachesOne() {
        // Frame times a refresh apart, where `begin + duration` and the progress can round apart.
        let interval = 1000.0 / 60.0
        var moved = 0
        for n in 1...200 {
            for duration in [400.0, 250, 400 * 0.3, 400 * (1 - 1 / Double.pi), 1e-3] {
                let begin = Double(n) * interval
                let end = AnimatedValue<Double>.end(begin: begin, duration: duration)
                XCTAssertGreaterThanOrEqual((end - begin) / duration, 1)
                XCTAssertLessThan((end.nextDown - begin) / duration, 1)
                if end != begin + duration { moved += 1 }
            }
        }
        XCTAssertGreaterThan(moved, 0, "the rounded sum alone would end some animations a bit early or late")
        XCTAssertEqual(AnimatedValue<Double>.end(begin: 500, duration: 0), 500)
    }

    func testAResetTransactionNoLongerCountsTheScene() {
        let (transaction, scene) = scene()
        scene.setAngle(-1)
        XCTAssertTrue(transaction.isAnimating)
        scene.transaction = nil
        XCTAssertFalse(transaction.isAnimating)
    }

    func testARetargetStartsFromWhatIsOnScreen() {
        let (transaction, scene) = scene()
        scene.setAngle(-Double.pi)
        transaction.advance(to: 125)
        let onScreen = scene.presentationAngle(at: 125)
        scene.setAngle(0, duration: 100)
        XCTAssertEqual(scene.presentationAngle(at: 125), onScreen)
        XCTAssertEqual(scene.presentationAngle(at: 225), 0)
    }

    func testASceneWithoutTransactionsNeverAnimates() {
        let scene = PageTurnScene(width: 800, height: 600)
        scene.setAngle(-3, duration: 400)
        XCTAssertEqual(scene.presentationAngle(at: 0), -3)
        XCTAssertFalse(scene.isAnimating(at: 0))
    }
}
