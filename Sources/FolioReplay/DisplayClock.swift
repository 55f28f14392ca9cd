/// When a simulated display shows what it is given: it refreshes `refreshRate` times a second,
/// vblank k at k refresh intervals on the trace's clock, and composes each refresh a repaint
/// window before its vblank (Weston's repaint deadline). A commit before that deadline is shown
/// at the vblank; one at or after it waits for the next.
public struct DisplayClock: Sendable, Equatable {
    /// Refresh rates a replay accepts (Hz): the displays tablets and laptops have, with room.
    public static let refreshRates: ClosedRange<Double> = 30...240

    /// A rate or window outside its range: `requirement` says what it must be ("must be from…").
    public struct InvalidClock: Error, CustomStringConvertible, Equatable {
        public enum Field: String, Sendable { case refreshRate = "the refresh rate", repaintWindow = "the repaint window" }
        public let field: Field
        public let requirement: String
        public var description: String { "\(field.rawValue) \(requirement)" }
    }

    /// Refreshes per second.
    public let refreshRate: Double
    /// How long (ms) before each vblank the compositor stops taking commits for it.
    public let repaintWindow: Double

    /// `refreshRate` in `refreshRates`; `repaintWindow` from 0 ms to less than one refresh
    /// interval, so every vblank has a moment that still reaches it.
    public init(refreshRate: Double, repaintWindow: Double) throws(InvalidClock) {
        guard refreshRate.isFinite, Self.refreshRates.contains(refreshRate) else {
            throw InvalidClock(field: .refreshRate, requirement: "must be from 30 to 240 Hz, not \(Self.format(refreshRate))")
        }
        let interval = 1000 / refreshRate
        guard repaintWindow.isFinite, repaintWindow >= 0, repaintWindow < interval else {
            throw InvalidClock(field: .repaintWindow, requirement: "must be from 0 ms to less than one refresh "
                               + "(\(Self.format(interval)) ms at \(Self.format(refreshRate)) Hz), not \(Self.format(repaintWindow))")
        }
        self.refreshRate = refreshRate
        self.repaintWindow = repaintWindow
    }

    /// 60 Hz with a 7 ms repaint window, Weston's default (within the ranges).
    public static let standard = Self(unchecked: 60, 7)

    /// The time between vblanks (ms).
    public var interval: Double { 1000 / refreshRate }

    /// The time of vblank `index` (ms): exact where it is a whole number of ms (vblank 6 at
    /// 60 Hz is 100, not 100.00000000000001), so trace times compare with it as written.
    public func vblank(_ index: Int) -> Double { Double(index) * 1000 / refreshRate }

    /// The index of the last vblank at or before `time` (ms).
    public func vblankIndex(atOrBefore time: Double) -> Int { Int((time * refreshRate / 1000).rounded(.down)) }

    /// Whether a commit at `time` is composed into the vblank at `vblank`.
    public func reaches(_ time: Double, vblank: Double) -> Bool { time < vblank - repaintWindow }

    private init(unchecked refreshRate: Double, _ repaintWindow: Double) {
        self.refreshRate = refreshRate
        self.repaintWindow = repaintWindow
    }

    /// `value` as people write it: whole numbers without a fraction, others to 1/100.
    private static func format(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e12 else { return "\(value)" }
        let hundredths = (value * 100).rounded()
        return hundredths.truncatingRemainder(dividingBy: 100) == 0 ? "\(Int(hundredths / 100))" : "\(hundredths / 100)"
    }
}
