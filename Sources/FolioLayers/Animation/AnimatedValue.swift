/// A property animated on a transaction's clock as Core Animation animates a layer's: the model
/// value changes at once, and what is on screen follows it through an animation, implicit (the
/// transaction's duration and curve, unless its actions are disabled) or explicit (a duration of
/// its own, as a basic animation added to a layer has). An animation ends at the first moment its
/// progress `(time − begin) / duration` reaches 1: the curve is on screen until then, the model
/// value exactly from then on, and the transaction's completion runs at that moment.
public struct AnimatedValue<Value: Interpolatable> {
    /// The model value: where the property goes.
    public private(set) var value: Value
    private var animation: PropertyAnimation<Value>?

    public init(_ value: Value) {
        self.value = value
    }

    /// What is on screen at `time` (ms).
    public func presentation(at time: Double) -> Value {
        guard let animation, time < animation.end else { return value }
        return animation.value(at: time)
    }

    /// Whether an animation still runs at `time` (ms).
    public func isAnimating(at time: Double) -> Bool {
        animation.map { time < $0.end } ?? false
    }

    /// Sets the model value: animated from what is on screen with `transaction`'s duration and
    /// curve, or at once (dropping any running animation) when its actions are disabled or there
    /// is no transaction.
    public mutating func set(_ newValue: Value, in transaction: Transaction?) {
        guard let transaction, let (duration, timing) = transaction.actionParameters() else {
            value = newValue
            animation = nil
            return
        }
        animate(to: newValue, in: transaction, duration: duration, timing: timing)
    }

    /// Sets the model value and animates to it from what is on screen over `duration` ms on
    /// `timing`, whatever `transaction` says of actions; its completion waits for the animation.
    public mutating func animate(to newValue: Value, in transaction: Transaction, duration: Double,
                                 timing: TimingFunction = .default) {
        let now = transaction.now
        let from = presentation(at: now)
        value = newValue
        let end = Self.end(begin: now, duration: duration)
        animation = PropertyAnimation(from: from, to: newValue, begin: now, duration: duration, timing: timing, end: end)
        transaction.addAnimation(ending: end)
    }

    /// The first clock time whose progress `(time − begin) / duration`, computed as the
    /// animation computes it, reaches 1: `begin + duration`, moved by the bit or two its
    /// rounding can be off (so a frame exactly one duration on ends the animation or not as the
    /// progress says).
    static func end(begin: Double, duration: Double) -> Double {
        guard duration > 0 else { return begin }
        var end = begin + duration
        while (end.nextDown - begin) / duration >= 1 { end = end.nextDown }
        while (end - begin) / duration < 1 { end = end.nextUp }
        return end
    }
}
