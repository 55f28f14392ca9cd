/// A cubic Bézier easing curve from (0, 0) to (1, 1), as CAMediaTimingFunction defines it.
public struct TimingFunction: Hashable, Sendable {
    public let c1x: Double, c1y: Double, c2x: Double, c2y: Double

    public init(_ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) {
        // x must stay monotonic for the curve to be a function of time.
        self.c1x = min(max(c1x, 0), 1)
        self.c1y = c1y
        self.c2x = min(max(c2x, 0), 1)
        self.c2y = c2y
    }

    /// Core Animation's default for implicit animations.
    public static let `default` = TimingFunction(0.25, 0.1, 0.25, 1.0)
    public static let linear = TimingFunction(0, 0, 1, 1)
    public static let easeIn = TimingFunction(0.42, 0, 1, 1)
    public static let easeOut = TimingFunction(0, 0, 0.58, 1)
    public static let easeInEaseOut = TimingFunction(0.42, 0, 0.58, 1)

    /// The eased progress at linear time `t` in 0...1: solve x(u) = t for u, return y(u).
    public func value(at t: Double) -> Double {
        if t <= 0 { return 0 }
        if t >= 1 { return 1 }
        return Self.bezier(solveCurveX(t), c1y, c2y)
    }

    private static func bezier(_ u: Double, _ p1: Double, _ p2: Double) -> Double {
        let v = 1 - u
        return 3 * v * v * u * p1 + 3 * v * u * u * p2 + u * u * u
    }

    private static func derivative(_ u: Double, _ p1: Double, _ p2: Double) -> Double {
        let v = 1 - u
        return 3 * v * v * p1 + 6 * v * u * (p2 - p1) + 3 * u * u * (1 - p2)
    }

    /// Newton's method from a good start, falling back to bisection where the slope is flat.
    private func solveCurveX(_ x: Double) -> Double {
        var u = x
        for _ in 0..<8 {
            let error = Self.bezier(u, c1x, c2x) - x
            if abs(error) < 1e-12 { return u }
            let slope = Self.derivative(u, c1x, c2x)
            if abs(slope) < 1e-9 { break }
            u -= error / slope
        }
        var low = 0.0, high = 1.0
        u = x
        for _ in 0..<64 {
            let value = Self.bezier(u, c1x, c2x)
            if abs(value - x) < 1e-12 { break }
            if value < x { low = u } else { high = u }
            u = (low + high) / 2
        }
        return u
    }
}
