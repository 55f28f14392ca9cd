/// A small deterministic generator (a 64-bit LCG), so every run of a test tries the same books.
struct SeededRandom {
    var state: UInt64

    /// A whole number in 0..<bound.
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }

    /// A number in 0..<1.
    mutating func unit() -> Double { Double(next(1 << 30)) / Double(1 << 30) }
}
