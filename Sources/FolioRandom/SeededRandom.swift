/// A small deterministic generator (a 64-bit LCG), so every run of a test tries the same input
/// and every run of a benchmark measures the same one. Its own module, so `folio bench` and the
/// tests share it without the shipped binary linking test code; its sequences must never change.
public struct SeededRandom {
    public var state: UInt64

    public init(state: UInt64) {
        self.state = state
    }

    /// A whole number in 0..<bound.
    public mutating func next(_ bound: Int) -> Int {
        step()
        return Int((state >> 33) % UInt64(bound))
    }

    /// 31 random bits.
    public mutating func bits() -> UInt32 {
        step()
        return UInt32(truncatingIfNeeded: state >> 33)
    }

    /// A number in 0..<1, with 53 bits.
    public mutating func unit() -> Double {
        step()
        return Double(state >> 11) / Double(1 << 53)
    }

    private mutating func step() {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    }
}
