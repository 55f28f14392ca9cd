import FolioGeometry

/// A value a layer property can animate through.
public protocol Interpolatable {
    func interpolated(to other: Self, _ t: Double) -> Self
}

extension Double: Interpolatable {
    public func interpolated(to other: Double, _ t: Double) -> Double { self + (other - self) * t }
}

/// Transforms animate by decomposition (translation, scale, quaternion rotation, perspective),
/// as Core Animation does, never element by element.
extension Transform3D: Interpolatable {}

/// One property's animation: from a value to the model value, over a span of the clock (ms).
struct PropertyAnimation<Value: Interpolatable> {
    var from: Value
    var to: Value
    var begin: Double
    var duration: Double
    var timing: TimingFunction
    /// The first time (ms) that shows the model value again, and that completions wait for.
    var end: Double

    func value(at time: Double) -> Value {
        guard duration > 0 else { return to }
        let progress = timing.value(at: (time - begin) / duration)
        return from.interpolated(to: to, progress)
    }
}

extension Layer {
    /// The transactions governing this layer: its own, or the nearest ancestor's.
    var governingTransaction: Transaction? {
        var layer: Layer? = self
        while let current = layer {
            if let transaction = current.transaction { return transaction }
            layer = current.superlayer
        }
        return nil
    }

    /// Starts the implicit animation of a transform change from what is on screen now (`old`
    /// when nothing runs), or drops any running one when actions are disabled (the change shows
    /// at once).
    func implicitlyAnimateTransform(from old: Transform3D) {
        guard let transaction = governingTransaction else { return }
        let now = transaction.now
        guard let (duration, timing) = transaction.actionParameters() else {
            transformAnimation = nil
            return
        }
        let from = transformAnimation?.value(at: now) ?? old
        // Ends at the rounded sum, which the fold's timeline reports (`AnimatedValue` ends where
        // the progress reaches 1: the two can differ in the last bit).
        transformAnimation = PropertyAnimation(from: from, to: transform, begin: now, duration: duration, timing: timing,
                                               end: now + duration)
        transaction.addAnimation(ending: now + duration)
    }

    /// The transform on screen at `time` (ms): the animation's value while one runs, else the model's.
    public func presentationTransform(at time: Double) -> Transform3D {
        guard let animation = transformAnimation, time < animation.end else { return transform }
        return animation.value(at: time)
    }

    /// Whether this layer or a sublayer is still animating at `time`.
    public func isAnimating(at time: Double) -> Bool {
        if let animation = transformAnimation, time < animation.end { return true }
        return sublayers.contains { $0.isAnimating(at: time) }
    }
}
