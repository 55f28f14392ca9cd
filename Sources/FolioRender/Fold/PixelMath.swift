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

    /// Lanes in the pixel's memory order (B, G, R, A), as a vector byte widening makes them:
    /// the page samplers' layout. Alpha is lane 3 in both layouts, so mix/scale/shade apply to both.
    @inline(__always) static func expandInMemoryOrder(_ p: UInt32) -> UInt64 {
        let q = UInt64(p)
        return (q & 0xFF) | ((q & 0xFF00) << 8) | ((q & 0xFF_0000) << 16) | ((q & 0xFF00_0000) << 24)
    }

    @inline(__always) static func packInMemoryOrder(_ e: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: (e & 0xFF) | ((e >> 8) & 0xFF00) | ((e >> 16) & 0xFF_0000) | ((e >> 24) & 0xFF00_0000))
    }

    /// From memory-order lanes to the B, R, G, A lanes of `expand` (green and red swap).
    @inline(__always) static func fromMemoryOrder(_ e: UInt64) -> UInt64 {
        (e & 0xFFFF_0000_0000_FFFF) | ((e >> 16) & 0xFFFF_0000) | ((e << 16) & 0xFFFF_0000_0000)
    }

    /// The alpha (0…255) of an expanded pixel.
    @inline(__always) static func alpha(_ e: UInt64) -> UInt64 { e >> 48 }

    /// Premultiplied `src` over `dst`: src + dst·(255 − αsrc)/255.
    @inline(__always) static func over(_ src: UInt64, _ dst: UInt64) -> UInt64 {
        let t = dst &* (255 &- alpha(src)) &+ half
        return src &+ (((t &+ ((t >> 8) & mask)) >> 8) & mask)
    }
}

/// The page sampler's hot loop: rows `rows` of one screen column where the page is opaque, two
/// rows per step in one 128-bit vector (eight 16-bit lanes: two pixels), lit by `shade` (0…256).
/// `temp` holds the column's blended source rows from `low` on; v is the 32.32 source row.
/// With `darkening` (the right page's shadow over the left page) each row is also darkened.
@inline(__always) @_optimize(speed)
func sampleOpaqueRunVector(v0: Int64, dv: Int64, temp: UnsafeMutablePointer<UInt64>, low: Int, rows: Range<Int>,
                     shade: UInt16, darkening: UnsafeMutablePointer<UInt16>? = nil,
                     rowCell: UnsafeMutablePointer<Int32>, rowWeight: UnsafeMutablePointer<UInt64>,
                     out: UnsafeMutablePointer<UInt32>) {
    var y = rows.lowerBound
    var v = v0 &+ dv &* Int64(y)
    let rounding = SIMD8<UInt16>(repeating: 128)
    @inline(__always) func light(_ y: Int) -> UInt16 {
        guard let darkening else { return shade }
        let g = Int(rowCell[y]), w = rowWeight[y]
        let keep = 256 &- ((UInt64(darkening[g]) &* (256 &- w) &+ UInt64(darkening[g &+ 1]) &* w) >> 8)
        return UInt16(truncatingIfNeeded: (UInt64(shade) &* keep) >> 8)
    }
    // top·(256 − w) + bottom·w = 256·top + (bottom − top)·w: one multiply fewer, and exact in
    // wrapping 16-bit lanes since the true sum stays below 2¹⁶.
    @inline(__always) func run(_ lights: (Int) -> SIMD8<UInt16>) {
        while y &+ 1 < rows.upperBound {
            let k = lights(y)
            let va = v, vb = v &+ dv
            let ja = Int(truncatingIfNeeded: va >> 32) &- low, jb = Int(truncatingIfNeeded: vb >> 32) &- low
            let fa = UInt16(truncatingIfNeeded: (va >> 24) & 0xFF), fb = UInt16(truncatingIfNeeded: (vb >> 24) & 0xFF)
            let top = SIMD8<UInt16>(lowHalf: unsafeBitCast(temp[ja], to: SIMD4<UInt16>.self),
                                    highHalf: unsafeBitCast(temp[jb], to: SIMD4<UInt16>.self))
            let bottom = SIMD8<UInt16>(lowHalf: unsafeBitCast(temp[ja &+ 1], to: SIMD4<UInt16>.self),
                                       highHalf: unsafeBitCast(temp[jb &+ 1], to: SIMD4<UInt16>.self))
            let w = SIMD8<UInt16>(lowHalf: SIMD4(repeating: fa), highHalf: SIMD4(repeating: fb))
            var e = ((top &<< 8) &+ (bottom &- top) &* w &+ rounding) &>> 8
            e = (e &* k &+ rounding) &>> 8
            let bytes = unsafeBitCast(SIMD8<UInt8>(truncatingIfNeeded: e), to: UInt64.self) | 0xFF00_0000_FF00_0000
            UnsafeMutableRawPointer(out + y).storeBytes(of: bytes, as: UInt64.self)
            v = vb &+ dv
            y &+= 2
        }
    }
    // Two copies of the loop: the common unshadowed one tests nothing per row.
    if darkening == nil {
        let k = SIMD8<UInt16>(repeating: shade)
        run { _ in k }
    } else {
        run { y in SIMD8<UInt16>(lowHalf: SIMD4(repeating: light(y)), highHalf: SIMD4(repeating: light(y &+ 1))) }
    }
    if y < rows.upperBound {
        let j = Int(truncatingIfNeeded: v >> 32) &- low
        let e = Lanes.scale(Lanes.mix(temp[j], temp[j &+ 1], UInt64(truncatingIfNeeded: (v >> 24) & 0xFF)), UInt64(light(y)))
        out[y] = Lanes.packInMemoryOrder(e) | Lanes.opaque
    }
}

/// The horizontal pass for one screen column: source rows `low…high` of two neighbouring stored
/// page columns blended with `weight` (0…255, of the second) into `temp`, lanes in memory order
/// (B, G, R, A: a plain byte widening), two pixels per 128-bit vector.
@inline(__always) @_optimize(speed)
func blendColumnsVector(_ first: UnsafeMutablePointer<UInt32>, _ second: UnsafeMutablePointer<UInt32>,
                  rows low: Int, through high: Int, weight: UInt64, into temp: UnsafeMutablePointer<UInt64>) {
    let w = SIMD8<UInt16>(repeating: UInt16(weight))
    let rounding = SIMD8<UInt16>(repeating: 128)
    var j = low
    while j < high {  // j and j + 1 both ≤ high
        let a = SIMD8<UInt16>(truncatingIfNeeded: UnsafeRawPointer(first + j).loadUnaligned(as: SIMD8<UInt8>.self))
        let b = SIMD8<UInt16>(truncatingIfNeeded: UnsafeRawPointer(second + j).loadUnaligned(as: SIMD8<UInt8>.self))
        let e = ((a &<< 8) &+ (b &- a) &* w &+ rounding) &>> 8  // = a·(256 − w) + b·w, as in the sampler
        temp[j &- low] = unsafeBitCast(e.lowHalf, to: UInt64.self)
        temp[j &- low &+ 1] = unsafeBitCast(e.highHalf, to: UInt64.self)
        j &+= 2
    }
    if j == high {
        temp[j &- low] = Lanes.mix(Lanes.expandInMemoryOrder(first[j]), Lanes.expandInMemoryOrder(second[j]), weight)
    }
}

/// Backdrop rows `rows` of one screen column darkened by the shadows, two rows per vector:
/// `source` is the column of the texture (nil: the opaque colour `flat`), `darkening` the shadow
/// grid blended for this column, read bilinearly through the per-row cell and weight tables.
@inline(__always) @_optimize(speed)
func darkenBackdropRunVector(source: UnsafeMutablePointer<UInt32>?, flat: UInt32, darkening: UnsafeMutablePointer<UInt16>,
                       rowCell: UnsafeMutablePointer<Int32>, rowWeight: UnsafeMutablePointer<UInt64>,
                       rows: Range<Int>, out: UnsafeMutablePointer<UInt32>) {
    @inline(__always) func keep(_ y: Int) -> UInt16 {
        let g = Int(rowCell[y]), w = rowWeight[y]
        return UInt16(truncatingIfNeeded: 256 &- ((UInt64(darkening[g]) &* (256 &- w) &+ UInt64(darkening[g &+ 1]) &* w) >> 8))
    }
    let rounding = SIMD8<UInt16>(repeating: 128)
    let flatPair = SIMD8<UInt16>(truncatingIfNeeded: unsafeBitCast(UInt64(flat) | UInt64(flat) << 32, to: SIMD8<UInt8>.self))
    let opaque: UInt64 = 0xFF00_0000_FF00_0000
    var y = rows.lowerBound
    while y + 1 < rows.upperBound {
        let pixels = source.map {
            SIMD8<UInt16>(truncatingIfNeeded: UnsafeRawPointer($0 + y).loadUnaligned(as: SIMD8<UInt8>.self))
        } ?? flatPair
        let k = SIMD8<UInt16>(lowHalf: SIMD4(repeating: keep(y)), highHalf: SIMD4(repeating: keep(y &+ 1)))
        let e = (pixels &* k &+ rounding) &>> 8
        let bytes = unsafeBitCast(SIMD8<UInt8>(truncatingIfNeeded: e), to: UInt64.self) | opaque
        UnsafeMutableRawPointer(out + y).storeBytes(of: bytes, as: UInt64.self)
        y &+= 2
    }
    if y < rows.upperBound {
        out[y] = Lanes.pack(Lanes.scale(Lanes.expand(source?[y] ?? flat), UInt64(keep(y)))) | Lanes.opaque
    }
}

// Debug builds run the stdlib's SIMD types through unspecialised generics, tens of times slower
// than plain integers; tests and the compositor scenarios run debug builds at interactive rates,
// so there the same arithmetic runs one pixel at a time in 64-bit lanes.

@inline(__always) @_optimize(speed)
func sampleOpaqueRun(v0: Int64, dv: Int64, temp: UnsafeMutablePointer<UInt64>, low: Int, rows: Range<Int>,
                     shade: UInt16, darkening: UnsafeMutablePointer<UInt16>? = nil,
                     rowCell: UnsafeMutablePointer<Int32>, rowWeight: UnsafeMutablePointer<UInt64>,
                     out: UnsafeMutablePointer<UInt32>) {
    #if DEBUG
    for y in rows {
        var k = UInt64(shade)
        if let darkening {
            let g = Int(rowCell[y]), w = rowWeight[y]
            k = (k &* (256 &- ((UInt64(darkening[g]) &* (256 &- w) &+ UInt64(darkening[g &+ 1]) &* w) >> 8))) >> 8
        }
        let v = v0 &+ dv &* Int64(y)
        let j = Int(truncatingIfNeeded: v >> 32) &- low
        let e = Lanes.scale(Lanes.mix(temp[j], temp[j &+ 1], UInt64(truncatingIfNeeded: (v >> 24) & 0xFF)), k)
        out[y] = Lanes.packInMemoryOrder(e) | Lanes.opaque
    }
    #else
    sampleOpaqueRunVector(v0: v0, dv: dv, temp: temp, low: low, rows: rows, shade: shade, darkening: darkening,
                          rowCell: rowCell, rowWeight: rowWeight, out: out)
    #endif
}

@inline(__always) @_optimize(speed)
func blendColumns(_ first: UnsafeMutablePointer<UInt32>, _ second: UnsafeMutablePointer<UInt32>,
                  rows low: Int, through high: Int, weight: UInt64, into temp: UnsafeMutablePointer<UInt64>) {
    #if DEBUG
    for j in low...high {
        temp[j &- low] = Lanes.mix(Lanes.expandInMemoryOrder(first[j]), Lanes.expandInMemoryOrder(second[j]), weight)
    }
    #else
    blendColumnsVector(first, second, rows: low, through: high, weight: weight, into: temp)
    #endif
}

@inline(__always) @_optimize(speed)
func darkenBackdropRun(source: UnsafeMutablePointer<UInt32>?, flat: UInt32, darkening: UnsafeMutablePointer<UInt16>,
                       rowCell: UnsafeMutablePointer<Int32>, rowWeight: UnsafeMutablePointer<UInt64>,
                       rows: Range<Int>, out: UnsafeMutablePointer<UInt32>) {
    #if DEBUG
    for y in rows {
        let g = Int(rowCell[y]), w = rowWeight[y]
        let keep = 256 &- ((UInt64(darkening[g]) &* (256 &- w) &+ UInt64(darkening[g &+ 1]) &* w) >> 8)
        out[y] = Lanes.pack(Lanes.scale(Lanes.expand(source?[y] ?? flat), keep)) | Lanes.opaque
    }
    #else
    darkenBackdropRunVector(source: source, flat: flat, darkening: darkening, rowCell: rowCell, rowWeight: rowWeight,
                            rows: rows, out: out)
    #endif
}

/// Copies a column-major tile (`FoldRenderer.bandRows` elements per column) out to the frame row by
/// row. Whole tiles go through 4×4 vector transposes: four loads and four 16-byte stores per 16 pixels.
@inline(__always) @_optimize(speed)
func writeTile(_ tile: UnsafeMutablePointer<UInt32>, columns: Int, rows: Int,
               to out: UnsafeMutablePointer<UInt32>, stride: Int) {
    let band = FoldRenderer.bandRows
    var y = 0
    #if !DEBUG
    if columns == FoldRenderer.tileColumns {
        while y &+ 3 < rows {
            var c = 0
            while c < columns {
                let source = tile + (c &* band &+ y)
                let a = UnsafeRawPointer(source).loadUnaligned(as: SIMD4<UInt32>.self)
                let b = UnsafeRawPointer(source + band).loadUnaligned(as: SIMD4<UInt32>.self)
                let d = UnsafeRawPointer(source + 2 &* band).loadUnaligned(as: SIMD4<UInt32>.self)
                let e = UnsafeRawPointer(source + 3 &* band).loadUnaligned(as: SIMD4<UInt32>.self)
                let target = out + (y &* stride &+ c)
                UnsafeMutableRawPointer(target).storeBytes(of: SIMD4(a[0], b[0], d[0], e[0]), as: SIMD4<UInt32>.self)
                UnsafeMutableRawPointer(target + stride).storeBytes(of: SIMD4(a[1], b[1], d[1], e[1]), as: SIMD4<UInt32>.self)
                UnsafeMutableRawPointer(target + 2 &* stride).storeBytes(of: SIMD4(a[2], b[2], d[2], e[2]), as: SIMD4<UInt32>.self)
                UnsafeMutableRawPointer(target + 3 &* stride).storeBytes(of: SIMD4(a[3], b[3], d[3], e[3]), as: SIMD4<UInt32>.self)
                c &+= 4
            }
            y &+= 4
        }
    }
    #endif
    while y < rows {
        let target = out + y &* stride
        for c in 0..<columns { target[c] = tile[c &* band &+ y] }
        y &+= 1
    }
}
