import FolioGeometry
import XCTest
@testable import FolioLayers

final class ImplicitAnimationTests: XCTestCase {
    private func tree() -> (Transaction, Layer, Layer) {
        let transaction = Transaction()
        let root = Layer(bounds: Rect(x: 0, y: 0, width: 100, height: 100))
        root.transaction = transaction
        let child = Layer(bounds: Rect(x: 0, y: 0, width: 50, height: 50))
        root.addSublayer(child)
        return (transaction, root, child)
    }

    func testAChangeAnimatesImplicitlyOverAQuarterSecondOnTheDefaultCurve() {
        let (transaction, root, layer) = tree()
        defer { withExtendedLifetime(root) {} }
        transaction.advance(to: 1000)
        let target = Transform3D.scale(0.5, 0.5, 1)
        layer.transform = target
        XCTAssertEqual(layer.transform, target, "the model takes the new value at once")
        XCTAssertEqual(layer.presentationTransform(at: 1000), .identity)
        let expected = 1 - 0.5 * TimingFunction.default.value(at: 0.5)
        XCTAssertEqual(layer.presentationTransform(at: 1125).m11, expected, accuracy: 1e-9)
        XCTAssertEqual(layer.presentationTransform(at: 1250), target)
        XCTAssertTrue(layer.isAnimating(at: 1249))
        XCTAssertFalse(layer.isAnimating(at: 1250))
    }

    func testDisabledActionsApplyAtOnce() {
        let (transaction, root, layer) = tree()
        transaction.perform(disableActions: true) {
            layer.transform = .scale(0.8, 0.8, 0.8)
        }
        XCTAssertEqual(layer.presentationTransform(at: 0), .scale(0.8, 0.8, 0.8))
        XCTAssertFalse(root.isAnimating(at: 0))
    }

    func testAnUnfoldAnimatesByDecompositionOverTheTransactionsDuration() {
        let (transaction, root, layer) = tree()
        defer { withExtendedLifetime(root) {} }
        let s = 0.75
        let folded = Transform3D.perspective(distance: 2000).scaled(s, s, s).rotated((1 - s) * .pi, 0, 1, 0)
        transaction.perform(disableActions: true) { layer.transform = folded }
        var completedAt: Double?
        transaction.perform(duration: 0.5 / s, completion: { completedAt = transaction.now }) {
            layer.transform = .identity
        }
        let duration = 500 / s
        let halfway = layer.presentationTransform(at: duration / 2)
        let expected = folded.interpolated(to: .identity, TimingFunction.default.value(at: 0.5))
        XCTAssertEqual(halfway.m11, expected.m11, accuracy: 1e-9)
        XCTAssertEqual(halfway.m34, expected.m34, accuracy: 1e-12)
        // By decomposition the halfway page is still a uniform scale of a rotation: no shear.
        let decomposed = DecomposedTransform(halfway)
        XCTAssertNotNil(decomposed)
        XCTAssertEqual(decomposed?.scale.x ?? 0, decomposed?.scale.y ?? 1, accuracy: 1e-9)
        transaction.advance(to: duration - 1)
        XCTAssertNil(completedAt)
        transaction.advance(to: duration + 1)
        XCTAssertEqual(completedAt ?? 0, duration, accuracy: 1e-9, "the clock reads the moment the animation ended")
    }

    func testARetargetStartsFromWhatIsOnScreen() {
        let (transaction, root, layer) = tree()
        defer { withExtendedLifetime(root) {} }
        layer.transform = .scale(0.5, 0.5, 0.5)
        transaction.flush()
        transaction.advance(to: 125)
        let onScreen = layer.presentationTransform(at: 125)
        layer.transform = .identity
        XCTAssertEqual(layer.presentationTransform(at: 125).m11, onScreen.m11, accuracy: 1e-12)
        XCTAssertEqual(layer.presentationTransform(at: 375), .identity)
    }

    func testALayerWithoutTransactionsNeverAnimates() {
        let layer = Layer()
        layer.transform = .scale(2, 2, 2)
        XCTAssertEqual(layer.presentationTransform(at: 0), .scale(2, 2, 2))
    }
}
