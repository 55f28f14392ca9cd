/// Pixel arithmetic for the fold: a premultiplied 0xAARRGGBB pixel spread into four 16-bit lanes of
/// a UInt64 (B, R, G, A from the low end) so one multiply scales all four channels (SWAR).
enum Lanes {
    static let mask: UInt64 = 0x00FF_00FF_00FF_00FF
    static let colourMask: UInt64 = 0x0000_00FF_00FF_00FF
    static let alphaMask: UInt64 = 0x00FF_0000_0000_0000
    static let half: UInt64 = 0x0080_0080_0080_0080
    static let opaque: UInt32 = 0xFF00_0000

    @inline(__always) static func expand(_ p: UInt32) -> UInt64 {
        let q = UInt64(p)
        return (q & 0x00FF_00FF) | ((q & 0xFF00_FF00) << 24)
    }

    @inline(__always) static func pack(_ e: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: (e & 0x00FF_00FF) | ((e >> 24) & 0xFF00_FF00))
    }

    /// a·(256 − w) + b·w, rounded, for a weight w in 0…256.
    @inline(__always) static func mix(_ a: UInt64, _ b: UInt64, _ w: UInt64) -> UInt64 {
        ((a &* (256 &- w) &+ b &* w &+ half) >> 8) & mask
    }

    /// Every channel times k/256 (k in 0…256).
    @inline(__always) static func scale(_ e: UInt64, _ k: UInt64) -> UInt64 {
        ((e &* k &+ half) >> 8) & mask
    }

    /// Colour channels times k/256, alpha kept: the page's lighting.
    @inline(__always) static func shade(_ e: UInt64, _ k: UInt64) -> UInt64 {
        (scale(e, k) & colourMask) | (e & alphaMask)
    }

    /// The alpha (0…255) of an expanded pixel.
    @inline(__always) static func alpha(_ e: UInt64) -> UInt64 { e >> 48 }

    /// Premultiplied `src` over `dst`: src + dst·(255 − αsrc)/255.
    @inline(__always) static func over(_ src: UInt64, _ dst: UInt64) -> UInt64 {
        let t = dst &* (255 &- alpha(src)) &+ half
        return src &+ (((t &+ ((t >> 8) & mask)) >> 8) & mask)
    }
}

// Rounding without library calls (the baseline x86-64 target has no rounding instruction): the
// fold's column plans round a dozen values per screen column per frame. Arguments are finite and
// well inside Int's range.

/// To the nearest integer, halves away from zero (as `rounded()`).
@inline(__always) func nearest(_ x: Double) -> Int { x >= 0 ? Int(x + 0.5) : -Int(-x + 0.5) }

@inline(__always) func floorInt(_ x: Double) -> Int {
    let t = Int(x)
    return Double(t) > x ? t - 1 : t
}

@inline(__always) func ceilInt(_ x: Double) -> Int {
    let t = Int(x)
    return Double(t) < x ? t + 1 : t
}
