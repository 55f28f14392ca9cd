/// Buffer pixels per logical pixel, as Wayland speaks it: a whole number (wl_output.scale,
/// preferred_buffer_scale) or a fraction of 120 (wp_fractional_scale_v1's preferred_scale).
/// Kept in 120ths, so a buffer's size is rounded exactly as that protocol says (halfway away
/// from zero), never through floating point: 1280 logical px at 150/120 are 1600 buffer px.
public struct BufferScale: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The denominator of wp_fractional_scale_v1's scale.
    public static let denominator = 120

    /// The scale in 120ths (180 is 1.5).
    public let numerator: Int

    public init(numerator: Int) {
        self.numerator = numerator
    }

    /// A whole-number scale, such as wl_output.scale sends.
    public init(_ integer: Int) {
        let (product, overflow) = integer.multipliedReportingOverflow(by: Self.denominator)
        numerator = overflow ? (integer < 0 ? Int.min : Int.max) : product
    }

    public init(integerLiteral value: Int) {
        self.init(value)
    }

    /// `value` at the nearest 1/120 (1.25 is 150/120, 1.33 is 160/120); nil when it is not a
    /// finite number or lies beyond any scale an Int can hold.
    public init?(nearest value: Double) {
        let units = (value * Double(Self.denominator)).rounded()
        guard units.isFinite, abs(units) < 1e15 else { return nil }
        numerator = Int(units)
    }

    /// The factor as a floating-point number, for geometry.
    public var factor: Double { Double(numerator) / Double(Self.denominator) }

    public var isInteger: Bool { numerator % Self.denominator == 0 }

    /// The smallest whole scale at least this large (for what only takes an integer scale, like
    /// a cursor's wl_surface.set_buffer_scale).
    public var roundedUp: Int { max(1, (numerator + Self.denominator - 1) / Self.denominator) }

    /// The buffer pixels `logical` pixels cover: `logical × scale`, rounded halfway away from zero
    /// (saturating where an Int cannot hold the product).
    public func pixels(_ logical: Int) -> Int {
        let (exact, overflow) = logical.multipliedReportingOverflow(by: numerator)
        if overflow { return (logical < 0) == (numerator < 0) ? Int.max : Int.min }
        let half = Self.denominator / 2
        return exact >= 0 ? (exact + half) / Self.denominator : -((-exact + half) / Self.denominator)
    }

    public static func < (a: BufferScale, b: BufferScale) -> Bool { a.numerator < b.numerator }

    /// `2`, `1.5`, `1.25`; a scale with no short decimal form as its fraction, `121/120`.
    public var description: String {
        if isInteger { return "\(numerator / Self.denominator)" }
        // A multiple of 3/120 is a whole number of thousandths: a short decimal (1.5, 1.25, 1.175).
        guard numerator % 3 == 0 else { return "\(numerator)/\(Self.denominator)" }
        return "\(factor)"
    }
}
