import FolioGeometry
import FolioLayers
import FolioPixels
#if canImport(Glibc)
import Glibc
#endif

/// One page's pixels as the fold samples them, made once per gesture: the page's canvas columns
/// stored transposed (each canvas column one contiguous row, so the per-screen-column sampler reads
/// memory in order), premultiplied by the rounded-corner mask, with a one-pixel border all round —
/// transparent on the outer edges (antialiased page edges, no edge tests in the inner loops) and a
/// stored row and column copied into the border around it (clamp to edge: the sampler needs no
/// edge tests, and page edges get their antialiasing from exact coverage instead).
final class PageImage {
    /// Canvas columns held (the page's half).
    let columns: Int
    /// Canvas rows.
    let rows: Int
    /// The canvas column stored in row 1 (row 0 is the border before it).
    let firstCanvasColumn: Int
    /// Elements per transposed row: rows + 2 border pixels, rounded up to a cache line.
    let rowStride: Int
    let storage: UnsafeMutablePointer<UInt32>
    /// Per stored row: the first and last element index whose alpha is 255 (first > last: none).
    let opaqueFirst: UnsafeMutablePointer<Int32>
    let opaqueLast: UnsafeMutablePointer<Int32>

    init(columns: Int, rows: Int, firstCanvasColumn: Int) {
        self.columns = columns
        self.rows = rows
        self.firstCanvasColumn = firstCanvasColumn
        rowStride = (rows + 2 + 15) & ~15
        let count = (columns + 2) * rowStride
        // On 2 MiB boundaries, in huge pages where the system allows them: the sampler walks
        // every stored row each frame, and 4 KiB pages would cost a TLB miss every few columns.
        let hugePage = 2 << 20, bytes = (count * 4 + hugePage - 1) / hugePage * hugePage
        guard let memory = aligned_alloc(hugePage, bytes) else { fatalError("out of memory for a fold page") }
        _ = madvise(memory, bytes, MADV_HUGEPAGE)
        storage = memory.bindMemory(to: UInt32.self, capacity: count)
        storage.initialize(repeating: 0, count: count)
        opaqueFirst = .allocate(capacity: columns + 2)
        opaqueLast = .allocate(capacity: columns + 2)
        opaqueFirst.initialize(repeating: 1, count: columns + 2)
        opaqueLast.initialize(repeating: 0, count: columns + 2)
    }

    deinit {
        free(storage)
        opaqueFirst.deallocate()
        opaqueLast.deallocate()
    }

    @inline(__always) func row(_ i: Int) -> UnsafeMutablePointer<UInt32> { storage + i * rowStride }

    /// The stored pixel for canvas column `c`, canvas row `y` (both may be one outside: the border).
    func pixel(canvasColumn c: Int, row y: Int) -> UInt32 {
        row(c - firstCanvasColumn + 1)[y + 1]
    }

    /// Fills the page from `canvas`, masked by `mask` (in canvas pixels).
    @_optimize(speed)
    func load(from canvas: Bitmap, mask: PixelMask) {
        precondition(canvas.height == rows && firstCanvasColumn + columns <= canvas.width, "canvas size changed")
        let stride = canvas.stride
        let source = canvas.pixels + firstCanvasColumn * 4
        // Strips of 16 columns, top to bottom: each canvas row gives one cache line of a strip,
        // and its 16 stored rows are each written in order.
        var c0 = 0
        while c0 < columns {
            let c1 = min(columns, c0 + 16)
            var y = 0
            #if !DEBUG
            // 4×4 blocks through vector transposes (debug builds: the plain loop below).
            if c1 - c0 == 16 {
                while y &+ 4 <= rows {
                    var c = c0
                    while c < c1 {
                        let corner = source + (y &* stride &+ c &* 4)
                        let a = corner.loadUnaligned(as: SIMD4<UInt32>.self)
                        let b = corner.loadUnaligned(fromByteOffset: stride, as: SIMD4<UInt32>.self)
                        let d = corner.loadUnaligned(fromByteOffset: 2 &* stride, as: SIMD4<UInt32>.self)
                        let e = corner.loadUnaligned(fromByteOffset: 3 &* stride, as: SIMD4<UInt32>.self)
                        for k in 0..<4 {
                            let target = UnsafeMutableRawPointer(row(c &+ k &+ 1) + (y &+ 1))
                            target.storeBytes(of: SIMD4(a[k], b[k], d[k], e[k]), as: SIMD4<UInt32>.self)
                        }
                        c &+= 4
                    }
                    y &+= 4
                }
            }
            #endif
            for c in c0..<c1 {
                let out = row(c + 1), column = source + c * 4
                for y in y..<rows { out[y + 1] = column.load(fromByteOffset: y * stride, as: UInt32.self) }
            }
            c0 = c1
        }
        applyCorners(of: mask)
        finishBorders()
    }

    /// Multiplies the stored pixels by `mask`'s coverage where it can be below 1: the squares of
    /// the rounded corners.
    private func applyCorners(of mask: PixelMask) {
        let top = max(0, min(mask.yLow, rows)), bottom = max(top, min(mask.yHigh, rows))
        for c in 0..<columns {
            let x = firstCanvasColumn + c
            guard x < mask.xLow || x >= mask.xHigh else { continue }
            let out = row(c + 1) + 1
            for y in 0..<top { out[y] = mask.apply(out[y], x: x, y: y) }
            for y in bottom..<rows { out[y] = mask.apply(out[y], x: x, y: y) }
        }
    }

    /// Copies the edges into the border, and records the opaque span of every stored row.
    @_optimize(speed)
    func finishBorders() {
        for i in 1...columns {
            let r = row(i)
            r[0] = r[1]
            r[rows + 1] = r[rows]
        }
        row(0).update(from: row(1), count: rowStride)
        row(columns + 1).update(from: row(columns), count: rowStride)
        for i in 0..<(columns + 2) {
            let r = row(i)
            var first = 0, last = rows + 1
            while first <= rows + 1 && r[first] >> 24 != 0xFF { first += 1 }
            while last >= first && r[last] >> 24 != 0xFF { last -= 1 }
            opaqueFirst[i] = Int32(first)
            opaqueLast[i] = Int32(last)
        }
    }

    /// Makes this page the back of `front`: the same drawing (the geometry mirrors it), softened
    /// by a box blur and faded into the paper's reverse, then masked like the front.
    /// One stream over the stored rows: each is unpremultiplied and blurred along itself into a
    /// ring of 16-bit channel lines, and a running sum across the ring gives the second blur, so
    /// every loop walks contiguous memory (and vectorises) and no loop divides. Blue and red share
    /// a line, interleaved as they lie in a pixel (one mask apart), green has its own.
    /// Radii above `BoxDivision.largestRadius` (output scales above 42) blur as that radius.
    @_optimize(speed)
    func loadBack(of front: PageImage, mask: PixelMask, blurRadius: Int) {
        precondition(front.columns == columns && front.rows == rows, "back and front differ in size")
        precondition(blurRadius >= 1, "a back face needs some blur")
        let radius = min(blurRadius, BoxDivision.largestRadius)
        let taps = 2 * radius + 1
        let divide = BoxDivision(radius: radius)
        // How much of the drawing shows through the paper (77 of 256):
        // paper + ((v − paper)·77 + 128) >> 8, rewritten without negatives as
        // (v·77 + paper·179 + 128) >> 8 (179 = 256 − 77), the same value.
        let fade: UInt16 = 77
        let paperBlue: UInt16 = 226 * 179 + 128, paperGreen: UInt16 = 233 * 179 + 128, paperRed: UInt16 = 236 * 179 + 128
        // Per stored row: blue and red (2·rows), then green (rows).
        let lineLength = 3 * rows, paddedCount = rows + 2 * radius
        // A row's blur along itself is needed from when it enters the window until it leaves it.
        let slots = taps + 1
        let scratch = UnsafeMutablePointer<UInt16>.allocate(capacity: 3 * paddedCount + lineLength * (slots + 1))
        defer { scratch.deallocate() }
        let paddedBlueRed = scratch, paddedGreen = scratch + 2 * paddedCount
        let sums = scratch + 3 * paddedCount, ring = sums + lineLength
        func slot(_ storedRow: Int) -> UnsafeMutablePointer<UInt16> { ring + (storedRow % slots) * lineLength }

        // Stored row i unpremultiplied and blurred along itself (edges clamped) into `out`.
        func blurAlong(_ i: Int, into out: UnsafeMutablePointer<UInt16>) {
            let source = front.row(i) + 1
            let blueRed = UnsafeMutableRawPointer(paddedBlueRed + 2 * radius), green = paddedGreen + radius
            var opaque: UInt32 = 0xFFFF_FFFF
            for j in 0..<rows {
                let p = source[j]
                opaque &= p
                blueRed.storeBytes(of: p & 0x00FF_00FF, toByteOffset: 4 * j, as: UInt32.self)
                green[j] = UInt16(truncatingIfNeeded: (p >> 8) & 0xFF)
            }
            if opaque >> 24 != 0xFF {
                for j in 0..<rows where source[j] >> 24 != 0xFF {
                    let u = unpremultiplied(source[j])
                    blueRed.storeBytes(of: u & 0x00FF_00FF, toByteOffset: 4 * j, as: UInt32.self)
                    green[j] = UInt16(truncatingIfNeeded: (u >> 8) & 0xFF)
                }
            }
            for t in 0..<radius {
                paddedBlueRed[2 * t] = paddedBlueRed[2 * radius]
                paddedBlueRed[2 * t + 1] = paddedBlueRed[2 * radius + 1]
                paddedBlueRed[2 * (radius + rows + t)] = paddedBlueRed[2 * (radius + rows - 1)]
                paddedBlueRed[2 * (radius + rows + t) + 1] = paddedBlueRed[2 * (radius + rows - 1) + 1]
                paddedGreen[t] = paddedGreen[radius]
                paddedGreen[radius + rows + t] = paddedGreen[radius + rows - 1]
            }
            boxAverages(of: paddedBlueRed, step: 2, taps: taps, divide: divide, into: out, count: 2 * rows)
            boxAverages(of: paddedGreen, step: 1, taps: taps, divide: divide, into: out + 2 * rows, count: rows)
        }

        // The window sum across stored rows for stored row 1: rows 1 − r … 1 + r, clamped.
        var ready = min(columns, radius + 1)
        for i in 1...ready { blurAlong(i, into: slot(i)) }
        sums.initialize(repeating: 0, count: lineLength)
        for t in -radius...radius {
            let s = slot(min(max(1 + t, 1), columns))
            for j in 0..<lineLength { sums[j] &+= s[j] }
        }
        let blueRed = sums, green = sums + 2 * rows
        #if !DEBUG
        let paperPairs = SIMD8<UInt16>(paperBlue, paperRed, paperBlue, paperRed, paperBlue, paperRed, paperBlue, paperRed)
        @inline(__always) func load(_ line: UnsafeMutablePointer<UInt16>, _ at: Int) -> SIMD8<UInt16> {
            UnsafeRawPointer(line + at).loadUnaligned(as: SIMD8<UInt16>.self)
        }
        @inline(__always) func store(_ v: SIMD8<UInt16>, _ line: UnsafeMutablePointer<UInt16>, _ at: Int) {
            UnsafeMutableRawPointer(line + at).storeBytes(of: v, as: SIMD8<UInt16>.self)
        }
        /// Four pixels from four blue-red sum pairs and four faded greens.
        @inline(__always) func write(_ blueRedSums: SIMD8<UInt16>, _ greens: SIMD4<UInt16>, to out: UnsafeMutablePointer<UInt32>) {
            let blueRed = unsafeBitCast((divide(blueRedSums) &* fade &+ paperPairs) &>> 8, to: SIMD4<UInt32>.self)
            let pixels = blueRed | SIMD4<UInt32>(truncatingIfNeeded: greens) &<< 8 | Lanes.opaque
            UnsafeMutableRawPointer(out).storeBytes(of: pixels, as: SIMD4<UInt32>.self)
        }
        #endif
        for i in 1...columns {
            // Slides the window on as each row is written (after the last row, to no effect).
            let entering = min(i + radius + 1, columns), leaving = max(i - radius, 1)
            if entering > ready {
                ready = entering
                blurAlong(entering, into: slot(entering))
            }
            let addBlueRed = slot(entering), addGreen = addBlueRed + 2 * rows
            let removeBlueRed = slot(leaving), removeGreen = removeBlueRed + 2 * rows
            let out = row(i) + 1
            var j = 0
            #if !DEBUG
            // Eight pixels a step: two vectors of blue-red pairs (already where a pixel holds
            // them), one of green.
            while j &+ 8 <= rows {
                let pair = 2 &* j
                let br0 = load(blueRed, pair), br1 = load(blueRed, pair &+ 8), g = load(green, j)
                let fadedG = (divide(g) &* fade &+ paperGreen) &>> 8
                write(br0, fadedG.lowHalf, to: out + j)
                write(br1, fadedG.highHalf, to: out + (j &+ 4))
                store(br0 &+ load(addBlueRed, pair) &- load(removeBlueRed, pair), blueRed, pair)
                store(br1 &+ load(addBlueRed, pair &+ 8) &- load(removeBlueRed, pair &+ 8), blueRed, pair &+ 8)
                store(g &+ load(addGreen, j) &- load(removeGreen, j), green, j)
                j &+= 8
            }
            #endif
            while j < rows {
                let b = blueRed[2 &* j], r = blueRed[2 &* j &+ 1], g = green[j]
                let fadedB = (divide(b) &* fade &+ paperBlue) >> 8
                let fadedG = (divide(g) &* fade &+ paperGreen) >> 8
                let fadedR = (divide(r) &* fade &+ paperRed) >> 8
                out[j] = Lanes.opaque | UInt32(fadedR) << 16 | UInt32(fadedG) << 8 | UInt32(fadedB)
                blueRed[2 &* j] = b &+ addBlueRed[2 &* j] &- removeBlueRed[2 &* j]
                blueRed[2 &* j &+ 1] = r &+ addBlueRed[2 &* j &+ 1] &- removeBlueRed[2 &* j &+ 1]
                green[j] = g &+ addGreen[j] &- removeGreen[j]
                j &+= 1
            }
        }
        applyCorners(of: mask)
        finishBorders()
    }
}

/// Exact floor(s / taps) for a box blur's channel sums (s ≤ 255·taps, taps = 2·radius + 1) by a
/// multiply and shifts: the high half of a 16-bit product (one vector instruction for eight
/// lanes), then the rest of the shift. With 2^(16 + extraShift) > taps·2^15 the multiplier's
/// rounding error stays below one step, and sums stay within 16 bits, for radii up to 64.
struct BoxDivision {
    static let largestRadius = 64
    let multiplier: UInt16
    let extraShift: UInt16

    init(radius: Int) {
        precondition(radius >= 1 && radius <= Self.largestRadius, "box blur radius \(radius): only 1…64 divide exactly in 16 bits")
        let taps = 2 * radius + 1
        let extra = Int.bitWidth - 1 - taps.leadingZeroBitCount
        extraShift = UInt16(extra)
        multiplier = UInt16(((1 << (16 + extra)) + taps - 1) / taps)  // below 2^16: taps is odd
    }

    @inline(__always) func callAsFunction(_ sum: UInt16) -> UInt16 {
        UInt16(truncatingIfNeeded: (UInt32(sum) &* UInt32(multiplier)) &>> 16) &>> extraShift
    }

    @inline(__always) func callAsFunction(_ sums: SIMD8<UInt16>) -> SIMD8<UInt16> {
        let products = SIMD8<UInt32>(truncatingIfNeeded: sums) &* SIMD8(repeating: UInt32(multiplier))
        return SIMD8<UInt16>(truncatingIfNeeded: products &>> 16) &>> SIMD8(repeating: extraShift)
    }
}

/// out[j] = ⌊(p[j] + p[j + step] + … + p[j + (taps − 1)·step]) / taps⌋ for j in 0..<count.
@inline(__always) @_optimize(speed)
private func boxAverages(of p: UnsafePointer<UInt16>, step: Int, taps: Int, divide: BoxDivision,
                         into out: UnsafeMutablePointer<UInt16>, count: Int) {
    #if !DEBUG
    // Thirty-two sums at once, kept in registers across the taps; the last block overlaps the one
    // before it instead of leaving a tail (debug builds would run these SIMD types through
    // unspecialised generics: there the plain loop below does everything).
    if count >= 32 {
        var j = 0
        while j < count {
            let start = min(j, count &- 32)
            var sum = UnsafeRawPointer(p + start).loadUnaligned(as: SIMD32<UInt16>.self)
            for t in 1..<taps {
                sum &+= UnsafeRawPointer(p + (start &+ t &* step)).loadUnaligned(as: SIMD32<UInt16>.self)
            }
            let target = UnsafeMutableRawPointer(out + start)
            target.storeBytes(of: divide(sum.lowHalf.lowHalf), as: SIMD8<UInt16>.self)
            target.storeBytes(of: divide(sum.lowHalf.highHalf), toByteOffset: 16, as: SIMD8<UInt16>.self)
            target.storeBytes(of: divide(sum.highHalf.lowHalf), toByteOffset: 32, as: SIMD8<UInt16>.self)
            target.storeBytes(of: divide(sum.highHalf.highHalf), toByteOffset: 48, as: SIMD8<UInt16>.self)
            j = start &+ 32
        }
        return
    }
    #endif
    for j in 0..<count {
        var sum = p[j]
        for t in 1..<taps { sum &+= p[j &+ t &* step] }
        out[j] = divide(sum)
    }
}

private func unpremultiplied(_ p: UInt32) -> UInt32 {
    let a = p >> 24
    guard a != 0 else { return 0xFFFF_FFFF }
    guard a != 255 else { return p & 0x00FF_FFFF }
    func channel(_ shift: UInt32) -> UInt32 { min(255, (((p >> shift) & 0xFF) * 255 + a / 2) / a) << shift }
    return channel(16) | channel(8) | channel(0)
}

/// The rounded-corner mask in canvas pixels: coverage 1 except inside the rounded corners'
/// squares, where it is the (analytically approximated) share of the pixel inside the arc.
struct PixelMask {
    let path: LayerPath
    /// Only pixels left of `xLow` or from `xHigh` on, and above `yLow` or from `yHigh` on, can be
    /// inside a rounded corner's square: everything else is kept as it is.
    let xLow: Int, xHigh: Int, yLow: Int, yHigh: Int

    init(path: LayerPath) {
        self.path = path
        let r = path.radius, rect = path.rect, corners = path.roundedCorners
        let leftRounded = !corners.isDisjoint(with: [.topLeft, .bottomLeft])
        let rightRounded = !corners.isDisjoint(with: [.topRight, .bottomRight])
        xLow = leftRounded ? Int((rect.minX + r).rounded(.up)) + 1 : Int.min
        xHigh = rightRounded ? Int((rect.maxX - r).rounded(.down)) - 1 : Int.max
        yLow = Int((rect.minY + r).rounded(.up)) + 1
        yHigh = Int((rect.maxY - r).rounded(.down)) - 1
    }

    /// `p` (premultiplied) times the mask's coverage at pixel (x, y).
    @inline(__always) func apply(_ p: UInt32, x: Int, y: Int) -> UInt32 {
        let centre = Point(x: Double(x) + 0.5, y: Double(y) + 0.5)
        guard let (c, _) = path.cornerCircle(near: centre) else { return p }
        let coverage = min(max(path.radius - centre.distance(to: c) + 0.5, 0), 1)
        guard coverage < 1 else { return p }
        let k = UInt64((coverage * 256).rounded())
        return Lanes.pack(Lanes.scale(Lanes.expand(p), k))
    }
}
