import FolioLayers
import FolioPixels

/// The page turn on its layer tree: the leaf follows the finger at once, and let go it completes
/// or falls back on Core Animation's default curve, an animation of the scene's angle on the
/// transaction's clock. Which sheets are shown, and when a turn may start, are for the session's
/// mode to decide, not this type; the leaf's back is the renderer's to draw.
public final class TurnController {
    /// The longest a settling turn takes (a whole half turn), in seconds.
    public static let settleDuration = 0.4

    public private(set) var scene: PageTurnScene
    public let transaction: Transaction
    /// The running settle's completion, withdrawn if the turn is dropped before it ends.
    private var settling: Transaction.Completion?

    public init(width: Double, height: Double, transaction: Transaction = Transaction()) {
        self.transaction = transaction
        scene = PageTurnScene(width: width, height: height)
        scene.transaction = transaction
    }

    /// The leaf's angle on screen, −π…0.
    public var angle: Double { scene.presentationAngle(at: transaction.now) }

    /// A new window size: a new scene, empty until the next turn; a settling turn is dropped
    /// without its completion (the session has ended it).
    func resize(width: Double, height: Double) {
        dropSettle()
        scene.transaction = nil
        scene = PageTurnScene(width: width, height: height)
        scene.transaction = transaction
    }

    /// A turn between `earlier` and `later` (frame-size pictures) begins with the leaf at `angle`.
    public func begin(earlier: Bitmap, later: Bitmap, angle: Double) {
        dropSettle()
        scene.setContents(earlier: earlier, later: later, leafBack: nil)
        track(angle)
    }

    /// The finger moved: the leaf goes to `angle` at once.
    public func track(_ angle: Double) {
        transaction.perform(disableActions: true) { scene.setAngle(angle) }
    }

    /// Let go: the leaf settles at `target` (−π or 0) on the default curve, taking at most
    /// `settleDuration` for a whole half turn and less for what is left; then `completion`
    /// (at once when the leaf is there already).
    func release(to target: Double, completion: @escaping () -> Void) {
        let distance = abs(target - angle) / Double.pi
        guard distance > 0 else {
            track(target)
            return completion()
        }
        settling = transaction.perform(completion: { [weak self] in
            self?.settling = nil
            completion()
        }) {
            scene.setAngle(target, duration: Self.settleDuration * 1000 * distance)
        }
    }

    private func dropSettle() {
        if let settling { transaction.cancel(settling) }
        settling = nil
    }
}
