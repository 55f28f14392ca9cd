/// Something whose properties animate on a transaction's clock: a layer tree, or a scene with a
/// property of its own. Attached to its `Transaction`, it answers for that clock's `isAnimating`.
public protocol Animating: AnyObject {
    /// Whether a property is still animating at `time` (ms).
    func isAnimating(at time: Double) -> Bool
}

extension Layer: Animating {}
