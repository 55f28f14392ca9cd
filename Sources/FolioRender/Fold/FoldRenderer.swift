import Dispatch
import FolioGeometry
import FolioLayers

/// How a fold frame is dressed.
public struct FoldRenderOptions: Sendable, Equatable {
    public enum Background: Sendable, Equatable {
        /// The procedural dark woven curtain.
        case texture
        /// One opaque colour, 0xRRGGBB.
        case flat(UInt32)
    }

    public var background: Background
    public var shadows: Bool
    /// Render threads sharing the frame's columns (1 = the calling thread only).
    public var threads: Int

    public init(background: Background = .texture, shadows: Bool = true, threads: Int = 1) {
        self.background = background
        self.shadows = shadows
        self.threads = max(1, threads)
    }
}

/// Renders the pinch fold (SPEC §2.3): the canvas as two pages of a `FoldScene`, turned about the
/// spine in perspective, over a backdrop, with soft shadows, lighting and paper backs.
///
/// Why it is fast: a rotation about the vertical axis sends each page column to one screen column
/// with a pure vertical scale. So each screen column needs one page column (a blend of two
/// neighbouring canvas columns, read contiguously from a transposed copy made once per gesture)
/// resampled linearly — two taps per pixel — in integer SWAR arithmetic. Masks, borders and back
/// faces are prepared once per gesture; shadows are blurred at low resolution; nothing is
/// allocated per frame.
///
/// Call `prepare(canvas:)` when a fold begins (the page contents), then `render` per frame.
public final class FoldRenderer {
    public let pixelWidth: Int
    public let pixelHeight: Int
    /// Buffer pixels per logical pixel.
    public let scale: Double
    /// The layer tree whose geometry the frames show.
    public let scene: FoldScene
    /// Light that reaches a page whatever its angle (the CA book's ambient term).
    public static let ambientLight = 0.5

    private let fronts: [PageImage]
    private let backs: [PageImage]
    private let masks: [PixelMask]
    private var backsReady = false
    public private(set) var isPrepared = false
    private var texture: Bitmap?
    private let shadows: ShadowMap
    private let rowCell: UnsafeMutablePointer<Int32>
    private let rowWeight: UnsafeMutablePointer<UInt64>
    private var scratch: [ColumnScratch]
    private var geometry: [FoldPageGeometry] = []

    public init(pixelWidth: Int, pixelHeight: Int, scale: Double = 1) {
        precondition(pixelWidth >= 2 && pixelHeight >= 1 && scale > 0, "fold size \(pixelWidth)x\(pixelHeight) at \(scale)")
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.scale = scale
        scene = FoldScene(width: Double(pixelWidth) / scale, height: Double(pixelHeight) / scale)
        let halfLeft = (pixelWidth + 1) / 2, spineColumn = pixelWidth / 2
        fronts = [PageImage(columns: halfLeft, rows: pixelHeight, firstCanvasColumn: 0),
                  PageImage(columns: pixelWidth - spineColumn, rows: pixelHeight, firstCanvasColumn: spineColumn)]
        backs = [PageImage(columns: halfLeft, rows: pixelHeight, firstCanvasColumn: 0),
                 PageImage(columns: pixelWidth - spineColumn, rows: pixelHeight, firstCanvasColumn: spineColumn)]
        masks = scene.pages.map { page in
            let m = page.contentLayer.mask ?? LayerPath(rect: page.contentLayer.bounds)
            let origin = page.side == .left ? 0.0 : Double(pixelWidth) / 2
            return PixelMask(path: LayerPath(
                roundedRect: Rect(x: origin + m.rect.minX * scale, y: m.rect.minY * scale,
                                  width: m.rect.width * scale, height: m.rect.height * scale),
                radius: m.radius * scale, corners: m.roundedCorners))
        }
        shadows = ShadowMap(pixelWidth: pixelWidth, pixelHeight: pixelHeight, sigma: FoldScene.shadowRadius * scale)
        rowCell = .allocate(capacity: pixelHeight)
        rowWeight = .allocate(capacity: pixelHeight)
        for y in 0..<pixelHeight {
            let g = (Double(y) + 0.5) / Double(shadows.cell) - 0.5 + Double(shadows.margin)
            let g0 = g.rounded(.down)
            rowCell[y] = Int32(g0)
            rowWeight[y] = UInt64(((g - g0) * 256).rounded(.down))
        }
        scratch = [ColumnScratch(rows: pixelHeight, gridHeight: shadows.gridHeight)]
    }

    deinit {
        rowCell.deallocate()
        rowWeight.deallocate()
    }

    /// Takes the page contents from `canvas` (the frame's pixel size): masks the rounded outer
    /// corners in, transposes, adds the borders. Once per gesture; back faces follow lazily.
    public func prepare(canvas: Bitmap) {
        precondition(canvas.width == pixelWidth && canvas.height == pixelHeight,
                     "canvas \(canvas.width)x\(canvas.height) is not the fold's \(pixelWidth)x\(pixelHeight)")
        for (i, page) in fronts.enumerated() {
            page.load(from: canvas, mask: masks[i])
        }
        backsReady = false
        isPrepared = true
    }

    /// Draws the fold at scale `s` (clamped to 0.48…1) into `target`, every pixel of it.
    public func render(foldScale s: Double, into target: Bitmap, options: FoldRenderOptions = FoldRenderOptions()) {
        scene.setScale(s)
        render(into: target, options: options)
    }

    /// Draws the pages with these transforms (left, right), as an animation or key steps leave
    /// them: each a rotation about y with a uniform scale under a perspective.
    public func render(pageTransforms: [Transform3D], into target: Bitmap, options: FoldRenderOptions = FoldRenderOptions()) {
        for (page, transform) in zip(scene.pages, pageTransforms) { page.shadowLayer.transform = transform }
        render(into: target, options: options)
    }

    private func render(into target: Bitmap, options: FoldRenderOptions) {
        precondition(isPrepared, "FoldRenderer.render before prepare(canvas:)")
        precondition(target.width == pixelWidth && target.height == pixelHeight, "target size differs from the fold's")
        updateGeometry()
        if geometry.contains(where: \.facesAway) && !backsReady { prepareBacks() }
        if options.shadows {
            // How far the book is open toward the viewer: |sin| of the left page's turn about y.
            let opening = abs(scene.pages[0].shadowLayer.transform.normal.x)
            shadows.update(pages: geometry, scale: scale, opening: opening)
        }
        var backdrop = Backdrop.flat(0)
        switch options.background {
        case let .flat(rgb): backdrop = .flat(0xFF00_0000 | rgb)
        case .texture: backdrop = .image(textureBitmap().pixels.assumingMemoryBound(to: UInt32.self))
        }
        while scratch.count < options.threads {
            scratch.append(ColumnScratch(rows: pixelHeight, gridHeight: shadows.gridHeight))
        }
        let frame = FrameSetup(
            target: target.pixels.assumingMemoryBound(to: UInt32.self), targetStride: target.stride / 4,
            backdrop: backdrop, shadows: options.shadows, pages: geometry.indices.map { plan(page: $0) })
        let threads = min(options.threads, pixelWidth)
        if threads == 1 {
            renderColumns(0..<pixelWidth, frame: frame, scratch: scratch[0])
        } else {
            let chunk = (pixelWidth + threads - 1) / threads
            let work = UncheckedBox((self, frame))
            DispatchQueue.concurrentPerform(iterations: threads) { t in
                let (renderer, frame) = work.value
                let range = (t * chunk)..<min(renderer.pixelWidth, (t + 1) * chunk)
                renderer.renderColumns(range, frame: frame, scratch: renderer.scratch[t])
            }
        }
    }

    // MARK: - Per frame

    private func updateGeometry() {
        geometry = scene.pages.map { page in
            let m = page.contentLayer.transformToRoot
            // Lit by the page's own turn (its transform about its anchor), the light at the viewer.
            let normal = page.shadowLayer.transform.normal
            let light = Self.ambientLight + (1 - Self.ambientLight) * abs(normal.z)
            let shadowLayer = page.shadowLayer
            return FoldPageGeometry(
                transform: m, bounds: page.contentLayer.bounds, contentsRect: page.contentLayer.contentsRect,
                shadowPath: shadowLayer.shadowPath?.offsetBy(dx: shadowLayer.shadowOffset.x, dy: shadowLayer.shadowOffset.y),
                shadowOpacity: shadowLayer.shadowOpacity * shadowLayer.shadowColor.alpha,
                facesAway: page.shadowLayer.facesAway, shade: UInt64((light * 256).rounded()), spineOnRight: page.side == .left)
        }
    }

    private func plan(page index: Int) -> PageFrame {
        let g = geometry[index]
        let image = g.facesAway ? backs[index] : fronts[index]
        var columns = 0..<pixelWidth
        if let quad = g.transform.project(g.bounds) {
            let box = quad.boundingBox
            let lo = max(0, Int((box.minX * scale).rounded(.down)) - 1)
            let hi = min(pixelWidth, Int((box.maxX * scale).rounded(.up)) + 1)
            columns = lo..<max(lo, hi)
        }
        let outerLocal = g.spineOnRight ? g.bounds.minX : g.bounds.maxX
        let spineLocal = g.spineOnRight ? g.bounds.maxX : g.bounds.minX
        let outer = g.transform.project(Point(x: outerLocal, y: (g.bounds.minY + g.bounds.maxY) / 2)).map { $0.x * scale } ?? 0
        let spine = g.transform.project(Point(x: spineLocal, y: (g.bounds.minY + g.bounds.maxY) / 2)).map { $0.x * scale } ?? 0
        return PageFrame(geometry: g, image: image, columns: columns, outerX: outer, outerIsLeft: outer < spine)
    }

    /// The prepared image a page samples (tests compare the sampler with an exact reference on it).
    func pageImage(index: Int, back: Bool) -> PageImage {
        if back && !backsReady { prepareBacks() }
        return back ? backs[index] : fronts[index]
    }

    private func textureBitmap() -> Bitmap {
        if let texture { return texture }
        let made = Bitmap(width: pixelWidth, height: pixelHeight)
        BackdropTexture.paint(made, scale: scale)
        texture = made
        return made
    }

    private func prepareBacks() {
        let radius = max(1, Int((1.5 * scale).rounded()))
        for i in 0..<2 {
            backs[i].loadBack(of: fronts[i], mask: masks[i], blurRadius: radius)
        }
        backsReady = true
    }

    // MARK: - Columns

    private func renderColumns(_ range: Range<Int>, frame: FrameSetup, scratch: ColumnScratch) {
        for x in range {
            renderColumn(x, frame: frame, scratch: scratch)
        }
    }

    /// One screen column: what each page shows there, shadows, backdrop, composited top to bottom.
    private func renderColumn(_ x: Int, frame: FrameSetup, scratch s: ColumnScratch) {
        let left = columnPlan(frame.pages[0], x: x, temp: s.leftTemp)
        let right = columnPlan(frame.pages[1], x: x, temp: s.rightTemp)
        let shaded = frame.shadows
        if shaded { loadShadowColumns(x, scratch: s) }
        let height = pixelHeight, stride = frame.targetStride
        let out = frame.target + x
        let leftShade = frame.pages[0].geometry.shade, rightShade = frame.pages[1].geometry.shade
        let rowCell = self.rowCell, rowWeight = self.rowWeight

        @inline(__always) func backdrop(_ y: Int) -> UInt64 {
            switch frame.backdrop {
            case let .flat(c): return Lanes.expand(c)
            case let .image(p): return Lanes.expand(p[y * pixelWidth + x])
            }
        }
        @inline(__always) func darkening(_ column: UnsafeMutablePointer<UInt16>, _ y: Int) -> UInt64 {
            let g = Int(rowCell[y]), w = rowWeight[y]
            return (UInt64(column[g]) &* (256 &- w) &+ UInt64(column[g + 1]) &* w) >> 8
        }
        @inline(__always) func sample(_ p: ColumnPlan, _ temp: UnsafeMutablePointer<UInt64>, _ y: Int, _ k: UInt64) -> UInt64 {
            let v = p.v0 &+ p.dv &* Int64(y)
            let j = Int(truncatingIfNeeded: v >> 32) - p.jLow
            let e = Lanes.mix(temp[j], temp[j + 1], UInt64(truncatingIfNeeded: (v >> 24) & 0xFF))
            return k >= 256 ? e : Lanes.shade(e, k)
        }
        /// A sample at an edge: the source row clamped into the page, times the page's coverage.
        @inline(__always) func edgeSample(_ p: ColumnPlan, _ temp: UnsafeMutablePointer<UInt64>, _ y: Int, _ k: UInt64) -> UInt64 {
            let v = min(max(p.v0 &+ p.dv &* Int64(y), Int64(p.jLow) << 32), p.vMax)
            let j = Int(truncatingIfNeeded: v >> 32) - p.jLow
            var e = Lanes.mix(temp[j], temp[j + 1], UInt64(truncatingIfNeeded: (v >> 24) & 0xFF))
            if k < 256 { e = Lanes.shade(e, k) }
            let c = p.coverage(y)
            return c >= 256 ? e : Lanes.scale(e, c)
        }

        for y in 0..<height {
            let o = out + y * stride
            if y >= right.opaqueStart && y < right.opaqueEnd {
                o.pointee = Lanes.pack(sample(right, s.rightTemp, y, rightShade)) | Lanes.opaque
                continue
            }
            let inLeft = y >= left.yStart && y < left.yEnd
            let inRight = y >= right.yStart && y < right.yEnd
            if !inLeft && !inRight {
                var c = backdrop(y)
                if shaded { c = Lanes.scale(c, 256 &- darkening(s.backdropColumn, y)) }
                o.pointee = Lanes.pack(c) | Lanes.opaque
            } else if !inRight && y >= left.opaqueStart && y < left.opaqueEnd {
                var c = sample(left, s.leftTemp, y, leftShade)
                if shaded && shadows.leftPageShaded { c = Lanes.scale(c, 256 &- darkening(s.leftPageColumn, y)) }
                o.pointee = Lanes.pack(c) | Lanes.opaque
            } else {
                // Edges and overlaps: the full painter's order.
                var c = backdrop(y)
                if inLeft {
                    if shaded { c = Lanes.scale(c, 256 &- leftShadow(x: x, y: y)) }
                    c = Lanes.over(edgeSample(left, s.leftTemp, y, leftShade), c)
                    if shaded { c = Lanes.scale(c, 256 &- darkening(s.leftPageColumn, y)) }
                } else if shaded {
                    c = Lanes.scale(c, 256 &- darkening(s.backdropColumn, y))
                }
                if inRight { c = Lanes.over(edgeSample(right, s.rightTemp, y, rightShade), c) }
                o.pointee = Lanes.pack(c) | Lanes.opaque
            }
        }
    }

    /// The left page's own shadow at one pixel, 0…256 (only its edges need it, so no column cache).
    private func leftShadow(x: Int, y: Int) -> UInt64 {
        let gx = (Double(x) + 0.5) / Double(shadows.cell) - 0.5 + Double(shadows.margin)
        let gy = (Double(y) + 0.5) / Double(shadows.cell) - 0.5 + Double(shadows.margin)
        let x0 = Int(gx.rounded(.down)), y0 = Int(gy.rounded(.down))
        let fx = gx - Double(x0), fy = gy - Double(y0)
        let map = shadows.leftDarkening, h = shadows.gridHeight
        let a = Double(map[x0 * h + y0]), b = Double(map[(x0 + 1) * h + y0])
        let c = Double(map[x0 * h + y0 + 1]), d = Double(map[(x0 + 1) * h + y0 + 1])
        let value = (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy
        return UInt64(min(256, max(0, value.rounded())))
    }

    private func loadShadowColumns(_ x: Int, scratch s: ColumnScratch) {
        let h = shadows.gridHeight
        let g = (Double(x) + 0.5) / Double(shadows.cell) - 0.5 + Double(shadows.margin)
        let g0 = Int(g.rounded(.down)), w = UInt32(((g - Double(g0)) * 256).rounded(.down))
        func blend(_ map: UnsafeMutablePointer<UInt16>, into column: UnsafeMutablePointer<UInt16>) {
            let a = map + g0 * h, b = map + (g0 + 1) * h
            for i in 0..<h {
                column[i] = UInt16((UInt32(a[i]) * (256 - w) + UInt32(b[i]) * w) >> 8)
            }
        }
        blend(shadows.backdropDarkening, into: s.backdropColumn)
        if shadows.leftPageShaded { blend(shadows.leftPageDarkening, into: s.leftPageColumn) }
    }

    /// Where a page falls in screen column `x`, and its blended source column in `temp`.
    /// Straight page edges get exact area coverage (the column's share of the page horizontally, the
    /// first and last rows' share vertically), so edges stay smooth whatever the foreshortening.
    private func columnPlan(_ page: PageFrame, x: Int, temp: UnsafeMutablePointer<UInt64>) -> ColumnPlan {
        var p = ColumnPlan()
        guard page.columns.contains(x) else { return p }
        let g = page.geometry, m = g.transform, b = g.bounds, cr = g.contentsRect, image = page.image
        // The page's outer edge cuts the column; its spine edge owns whole columns (no seam).
        let left = Double(x), coverage = page.outerIsLeft ? left + 1 - page.outerX : page.outerX - left
        guard coverage > 0 else { return p }
        p.columnCoverage = UInt64((min(coverage, 1) * 256).rounded())
        let screenX = (left + 0.5) / scale
        let den = screenX * m.m14 - m.m11
        guard abs(den) > 1e-12 else { return p }
        let spineX = g.spineOnRight ? b.maxX : b.minX, outerLocal = g.spineOnRight ? b.minX : b.maxX
        var lx = (m.m41 - screenX * m.m44) / den
        guard g.spineOnRight ? lx <= spineX : lx >= spineX else { return p }
        if g.spineOnRight ? lx < outerLocal : lx > outerLocal { lx = outerLocal }
        let w = lx * m.m14 + m.m44
        guard w > 0 else { return p }
        let cx = (cr.minX + (lx - b.minX) / b.width * cr.width) * Double(pixelWidth)
        let u = min(max(cx - Double(image.firstCanvasColumn) + 0.5, 0.5), Double(image.columns) + 0.5)
        let i0 = Int(u)
        let fu = UInt64(((u - Double(i0)) * 256).rounded(.down))

        let height = Double(pixelHeight)
        let ky = cr.height * height / b.height
        let step = ky * w / (scale * m.m22)
        let start = cr.minY * height + ky * ((lx * -m.m12 - m.m42) / m.m22 - b.minY) + 0.5 * step + 0.5
        guard step > 0, step.isFinite, start.isFinite else { return p }
        // The page's top and bottom edges on screen in this column, in buffer pixels.
        let top = (lx * m.m12 + b.minY * m.m22 + m.m42) / w * scale
        let bottom = (lx * m.m12 + b.maxY * m.m22 + m.m42) / w * scale
        let y0 = max(0, Int(top.rounded(.down))), y1 = min(pixelHeight, Int(bottom.rounded(.up)))
        guard y1 > y0 else { return p }
        p.yStart = y0
        p.yEnd = y1
        p.topCoverage = UInt64(((min(Double(y0 + 1), bottom) - max(Double(y0), top)) * 256).rounded())
        p.bottomCoverage = UInt64(((min(Double(y1), bottom) - max(Double(y1 - 1), top)) * 256).rounded())
        p.v0 = Int64((start * 4_294_967_296).rounded())
        p.dv = Int64((step * 4_294_967_296).rounded())
        p.vMax = Int64(pixelHeight) << 32
        p.jLow = min(max(p.j(y0), 0), pixelHeight)
        let jHigh = min(max(p.j(y1 - 1), 0), pixelHeight) + 1
        let a = image.row(i0), bRow = image.row(i0 + 1)
        if fu == 0 {
            for j in p.jLow...jHigh { temp[j - p.jLow] = Lanes.expand(a[j]) }
        } else {
            for j in p.jLow...jHigh { temp[j - p.jLow] = Lanes.mix(Lanes.expand(a[j]), Lanes.expand(bRow[j]), fu) }
        }
        // Fully opaque rows: whole column and row covered, both taps in the opaque span of both source columns.
        guard p.columnCoverage >= 256 else { return p }
        var first = Int(image.opaqueFirst[i0]), lastOpaque = Int(image.opaqueLast[i0])
        if fu != 0 {
            first = max(first, Int(image.opaqueFirst[i0 + 1]))
            lastOpaque = min(lastOpaque, Int(image.opaqueLast[i0 + 1]))
        }
        let inner0 = y0 + 1, inner1 = y1 - 1
        guard lastOpaque > first, inner1 > inner0 else { return p }
        var o0 = Int(max(Double(inner0), min(Double(inner1), ((Double(first) - start) / step).rounded(.up))))
        while o0 < inner1 && p.j(o0) < first { o0 += 1 }
        while o0 > inner0 && p.j(o0 - 1) >= first { o0 -= 1 }
        var o1 = Int(max(Double(o0), min(Double(inner1), ((Double(lastOpaque) - start) / step).rounded(.up))))
        while o1 > o0 && p.j(o1 - 1) + 1 > lastOpaque { o1 -= 1 }
        while o1 < inner1 && p.j(o1) + 1 <= lastOpaque { o1 += 1 }
        if o1 > o0 {
            p.opaqueStart = o0
            p.opaqueEnd = o1
        }
        return p
    }
}

/// A page as one frame sees it: geometry, the image it samples (front or back), the screen columns it may touch.
struct PageFrame {
    var geometry: FoldPageGeometry
    var image: PageImage
    var columns: Range<Int>
    /// The outer edge's screen x in buffer pixels, and whether it lies left of the spine.
    var outerX: Double
    var outerIsLeft: Bool
}

/// What a page shows in one screen column: rows covered, rows fully opaque, and the 32.32 fixed-point
/// source row at y = 0 and per row (its index is into the column's blended `temp`, from `jLow`).
struct ColumnPlan {
    var yStart = 0, yEnd = 0
    var opaqueStart = 0, opaqueEnd = 0
    var v0: Int64 = 0, dv: Int64 = 0, vMax: Int64 = 0
    var jLow = 0
    /// 0…256: the page's share of the column, and of its first and last rows.
    var columnCoverage: UInt64 = 0, topCoverage: UInt64 = 0, bottomCoverage: UInt64 = 0

    @inline(__always) func j(_ y: Int) -> Int { Int(truncatingIfNeeded: (v0 &+ dv &* Int64(y)) >> 32) }

    /// The page's coverage (0…256) of pixel row y inside [yStart, yEnd).
    @inline(__always) func coverage(_ y: Int) -> UInt64 {
        var c = columnCoverage
        if y == yStart { c = (c &* topCoverage) >> 8 }
        if y == yEnd - 1 { c = (c &* bottomCoverage) >> 8 }
        return c
    }
}

enum Backdrop {
    case flat(UInt32)
    case image(UnsafeMutablePointer<UInt32>)
}

struct FrameSetup {
    var target: UnsafeMutablePointer<UInt32>
    var targetStride: Int
    var backdrop: Backdrop
    var shadows: Bool
    var pages: [PageFrame]
}

/// One render thread's buffers, allocated once.
final class ColumnScratch {
    let leftTemp: UnsafeMutablePointer<UInt64>
    let rightTemp: UnsafeMutablePointer<UInt64>
    let backdropColumn: UnsafeMutablePointer<UInt16>
    let leftPageColumn: UnsafeMutablePointer<UInt16>

    init(rows: Int, gridHeight: Int) {
        leftTemp = .allocate(capacity: rows + 4)
        rightTemp = .allocate(capacity: rows + 4)
        backdropColumn = .allocate(capacity: gridHeight + 1)
        leftPageColumn = .allocate(capacity: gridHeight + 1)
        backdropColumn.initialize(repeating: 0, count: gridHeight + 1)
        leftPageColumn.initialize(repeating: 0, count: gridHeight + 1)
    }

    deinit {
        leftTemp.deallocate()
        rightTemp.deallocate()
        backdropColumn.deallocate()
        leftPageColumn.deallocate()
    }
}

/// Hands non-Sendable state to the render threads, which touch disjoint columns only.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
