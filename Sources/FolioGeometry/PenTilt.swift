/// A pen's tilt from upright, in degrees toward +x and +y (tablet-v2's convention), each
/// within ±90.
public struct PenTilt: Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double

    public static let range: ClosedRange<Double> = -90...90

    /// Clamped into `range`; a value that is not a number is taken as upright.
    public init(x: Double, y: Double) {
        self.x = x.isNaN ? 0 : min(max(x, Self.range.lowerBound), Self.range.upperBound)
        self.y = y.isNaN ? 0 : min(max(y, Self.range.lowerBound), Self.range.upperBound)
    }
}
