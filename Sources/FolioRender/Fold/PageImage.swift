import FolioGeometry
import FolioLayers
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
        guard let memory = aligned_alloc(64, count * 4) else { fatalError("out of memory for a fold page") }
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
        // Row blocks keep the scattered (transposed) writes within a few cache lines per column.
        let block = 16
        var y0 = 0
        while y0 < rows {
            let y1 = min(rows, y0 + block)
            let rowsNeedMask = y0 < mask.yLow || y1 > mask.yHigh
            for c in 0..<columns {
                let out = row(c + 1)
                let x = firstCanvasColumn + c
                let source = canvas.pixels + x * 4
                if rowsNeedMask && (x < mask.xLow || x >= mask.xHigh) {
                    for y in y0..<y1 {
                        let p = source.load(fromByteOffset: y * stride, as: UInt32.self)
                        out[y + 1] = y < mask.yLow || y >= mask.yHigh ? mask.apply(p, x: x, y: y) : p
                    }
                } else {
                    for y in y0..<y1 { out[y + 1] = source.load(fromByteOffset: y * stride, as: UInt32.self) }
                }
            }
            y0 = y1
        }
        finishBorders()
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
    @_optimize(speed)
    func loadBack(of front: PageImage, mask: PixelMask, blurRadius: Int) {
        precondition(front.columns == columns && front.rows == rows, "back and front differ in size")
        let paper: (r: Int, g: Int, b: Int) = (236, 233, 226)
        let fade = 77  // of 256: how much of the drawing shows through
        // Unmasked colour (the front's is premultiplied by the mask: undo that where alpha < 255).
        for i in 1...columns {
            let src = front.row(i), dst = row(i)
            for j in 1...rows { dst[j] = src[j] >> 24 == 0xFF ? src[j] : unpremultiplied(src[j]) | Lanes.opaque }
        }
        // Blur along the stored rows (canvas columns), then across them (canvas rows).
        let n = 2 * blurRadius + 1
        let line = UnsafeMutablePointer<UInt32>.allocate(capacity: max(rows, columns))
        defer { line.deallocate() }
        func blur(count: Int, at index: (Int) -> UnsafeMutablePointer<UInt32>) {
            for k in 0..<count { line[k] = index(k).pointee }
            var r = 0, g = 0, b = 0
            func add(_ k: Int, _ sign: Int) {
                let p = line[min(max(k, 0), count - 1)]
                r += sign * Int((p >> 16) & 0xFF); g += sign * Int((p >> 8) & 0xFF); b += sign * Int(p & 0xFF)
            }
            for k in -blurRadius...blurRadius { add(k, 1) }
            for k in 0..<count {
                index(k).pointee = 0xFF00_0000 | UInt32(r / n) << 16 | UInt32(g / n) << 8 | UInt32(b / n)
                add(k + blurRadius + 1, 1)
                add(k - blurRadius, -1)
            }
        }
        for i in 1...columns {
            let r = row(i)
            blur(count: rows) { r + $0 + 1 }
        }
        for j in 1...rows {
            blur(count: columns) { self.row($0 + 1) + j }
        }
        for i in 1...columns {
            let r = row(i)
            let x = firstCanvasColumn + i - 1
            let needsMask = x < mask.xLow || x >= mask.xHigh
            for j in 1...rows {
                let p = r[j]
                func channel(_ shift: UInt32, _ base: Int) -> UInt32 {
                    let v = Int((p >> shift) & 0xFF)
                    return UInt32(base + ((v - base) * fade + 128) >> 8) << shift
                }
                let faded = 0xFF00_0000 | channel(16, paper.r) | channel(8, paper.g) | channel(0, paper.b)
                let y = j - 1
                r[j] = needsMask && (y < mask.yLow || y >= mask.yHigh) ? mask.apply(faded, x: x, y: y) : faded
            }
        }
        finishBorders()
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
