import CFoldKernels
import Dispatch
import FolioGeometry
import FolioLayers
#if canImport(Glibc)
import Glibc
import FolioPixels
#endif

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
/// resampled linearly — two taps per pixel — by vector kernels (`FoldKernels`). Columns are drawn
/// into a column-major tile and written out in transposed blocks. Masks, borders and back faces
/// are prepared once per gesture; shadows are blurred at low resolution; nothing is allocated per
/// frame.
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
    /// The backdrop texture's tile, column-major (its column c at `c * pixelHeight`, shown in the
    /// screen columns x ≡ c modulo the period): the columns are read top to bottom like
    /// everything else here. Made on first use.
    private var texture: UnsafeMutablePointer<UInt32>?
    private let texturePeriod: Int
    private let shadows: ShadowMap
    /// Per buffer row (and column: the grid is square), the shadow grid cell before the pixel's
    /// centre and the next cell's weight (0…255).
    private let rowCell: UnsafeMutablePointer<Int32>
    private let rowWeight: UnsafeMutablePointer<UInt16>
    private let kernels: FoldKernels
    private var scratch: [ColumnScratch]
    private var geometry: [FoldPageGeometry]
    /// Per screen column, what each page shows there this frame (left, right).
    private let leftPlans: UnsafeMutablePointer<ColumnPlan>
    private let rightPlans: UnsafeMutablePointer<ColumnPlan>
    /// Columns per tile: whole columns are drawn into a column-major tile (contiguous writes), then
    /// written out row by row (whole cache lines).
    static let tileColumns = 32
    /// Pixels per tile column: the height rounded up to whole transposed blocks.
    private let tileStride: Int

    public init(pixelWidth: Int, pixelHeight: Int, scale: Double = 1, kernels: FoldKernels = .best) {
        precondition(pixelWidth >= 2 && pixelHeight >= 1 && scale > 0, "fold size \(pixelWidth)x\(pixelHeight) at \(scale)")
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.scale = scale
        self.kernels = kernels
        tileStride = (pixelHeight + 7) & ~7
        texturePeriod = BackdropTexture.period(scale: scale)
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
        let cells = max(pixelWidth, pixelHeight)
        rowCell = .allocate(capacity: cells)
        rowWeight = .allocate(capacity: cells)
        for y in 0..<cells {
            let g = (Double(y) + 0.5) / Double(shadows.cell) - 0.5 + Double(shadows.margin)
            let g0 = g.rounded(.down)
            rowCell[y] = Int32(g0)
            rowWeight[y] = UInt16(((g - g0) * 256).rounded(.down))
        }
        scratch = [ColumnScratch(rows: pixelHeight, tileStride: tileStride, shadows: shadows, kernels: kernels)]
        leftPlans = .allocate(capacity: pixelWidth)
        leftPlans.initialize(repeating: ColumnPlan(), count: pixelWidth)
        rightPlans = .allocate(capacity: pixelWidth)
        rightPlans.initialize(repeating: ColumnPlan(), count: pixelWidth)
        geometry = []
        geometry.reserveCapacity(2)
    }

    deinit {
        rowCell.deallocate()
        rowWeight.deallocate()
        leftPlans.deallocate()
        rightPlans.deallocate()
        texture?.deallocate()
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
        if (geometry[0].facesAway || geometry[1].facesAway) && !backsReady { prepareBacks() }
        if options.shadows {
            // How far the book is open toward the viewer: |sin| of the left page's turn about y.
            let opening = abs(scene.pages[0].shadowLayer.transform.normal.x)
            shadows.update(pages: geometry, scale: scale, opening: opening)
        }
        var backdrop = Backdrop.flat(0)
        switch options.background {
        case let .flat(rgb): backdrop = .flat(0xFF00_0000 | rgb)
        case .texture: backdrop = .columns(textureColumns())
        }
        while scratch.count < options.threads {
            scratch.append(ColumnScratch(rows: pixelHeight, tileStride: tileStride, shadows: shadows, kernels: kernels))
        }
        let frame = FrameSetup(
            target: target.pixels.assumingMemoryBound(to: UInt32.self), targetStride: target.stride / 4,
            backdrop: backdrop, shadows: options.shadows, left: pageFrame(0), right: pageFrame(1))
        // Column groups shared out between the threads, each thread a contiguous run.
        let groups = (pixelWidth + Self.tileColumns - 1) / Self.tileColumns
        let threads = max(1, min(options.threads, groups))
        if threads == 1 {
            renderGroups(0..<groups, frame: frame, scratch: scratch[0])
        } else {
            let perThread = (groups + threads - 1) / threads
            let work = UncheckedBox((self, frame))
            DispatchQueue.concurrentPerform(iterations: threads) { t in
                let (renderer, frame) = work.value
                let range = min(groups, t * perThread)..<min(groups, (t + 1) * perThread)
                renderer.renderGroups(range, frame: frame, scratch: renderer.scratch[t])
            }
        }
    }

    // MARK: - Per frame

    private func updateGeometry() {
        geometry.removeAll(keepingCapacity: true)
        for page in scene.pages {
            let m = page.contentLayer.transformToRoot
            // Lit by the page's own turn (its transform about its anchor), the light at the viewer.
            let normal = page.shadowLayer.transform.normal
            let light = Self.ambientLight + (1 - Self.ambientLight) * abs(normal.z)
            let shadowLayer = page.shadowLayer
            geometry.append(FoldPageGeometry(
                transform: m, bounds: page.contentLayer.bounds, contentsRect: page.contentLayer.contentsRect,
                shadowPath: shadowLayer.shadowPath?.offsetBy(dx: shadowLayer.shadowOffset.x, dy: shadowLayer.shadowOffset.y),
                shadowOpacity: shadowLayer.shadowOpacity * shadowLayer.shadowColor.alpha,
                facesAway: page.shadowLayer.facesAway, shade: UInt64((light * 256).rounded()), spineOnRight: page.side == .left))
        }
    }

    private func pageFrame(_ index: Int) -> PageFrame {
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
        let midY = (g.bounds.minY + g.bounds.maxY) / 2
        let outer = g.transform.project(Point(x: outerLocal, y: midY)).map { $0.x * scale } ?? 0
        let spine = g.transform.project(Point(x: spineLocal, y: midY)).map { $0.x * scale } ?? 0
        let page = PageFrame(geometry: g, image: image, columns: columns, outerX: outer, outerIsLeft: outer < spine)
        let plans = index == 0 ? leftPlans : rightPlans
        plans.update(repeating: ColumnPlan(), count: pixelWidth)
        for x in columns { plans[x] = columnPlan(page, x: x) }
        return page
    }

    /// The prepared image a page samples (tests compare the sampler with an exact reference on it).
    func pageImage(index: Int, back: Bool) -> PageImage {
        if back && !backsReady { prepareBacks() }
        return back ? backs[index] : fronts[index]
    }

    private func textureColumns() -> UnsafeMutablePointer<UInt32> {
        if let texture { return texture }
        let rows = Bitmap(width: texturePeriod, height: pixelHeight)
        BackdropTexture.paint(rows, scale: scale)
        let columns = UnsafeMutablePointer<UInt32>.allocate(capacity: texturePeriod * pixelHeight)
        for y in 0..<pixelHeight {
            let row = rows.pixels.advanced(by: y * rows.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<texturePeriod { columns[x * pixelHeight + y] = row[x] }
        }
        texture = columns
        return columns
    }

    private func prepareBacks() {
        let radius = max(1, Int((1.5 * scale).rounded()))
        for i in 0..<2 {
            backs[i].loadBack(of: fronts[i], mask: masks[i], blurRadius: radius)
        }
        backsReady = true
    }

    // MARK: - Tiles and columns

    /// Two tiles per thread: while one fills column by column, the previous one goes out to the
    /// frame sixteen rows at a time between the column kernels, so the frame's writes drain steadily
    /// while the next columns compute rather than stalling in bursts.
    @_optimize(speed)
    private func renderGroups(_ groups: Range<Int>, frame: FrameSetup, scratch: ColumnScratch) {
        let writer = scratch.writer
        var current = 0
        for g in groups {
            let x0 = g * Self.tileColumns, x1 = min(pixelWidth, x0 + Self.tileColumns)
            let tile = scratch.tiles[current]
            for x in x0..<x1 {
                renderColumn(x, frame: frame, scratch: scratch, into: tile + (x - x0) * tileStride, tileColumn: x - x0)
                writer.catchUp(columnsDone: x - x0 + 1)
            }
            writer.finish()
            writer.start(tile: tile, target: frame.target + x0, stride: frame.targetStride, columns: x1 - x0)
            current ^= 1
        }
        writer.finish()
        kernels.finish()
    }

    /// One screen column: what each page shows there, shadows, backdrop, composited in the
    /// painter's order. `out[y]` receives row y (a column of the tile).
    @_optimize(speed)
    private func renderColumn(_ x: Int, frame: FrameSetup, scratch s: ColumnScratch, into out: UnsafeMutablePointer<UInt32>,
                              tileColumn: Int) {
        let writer = s.writer
        let left = leftPlans[x], right = rightPlans[x]
        let next = min(x + 1, pixelWidth - 1)
        let leftLow = fill(left, next: leftPlans[next], frame.left.image, temp: s.leftTemp)
        writer.pump(columnsDone: tileColumn)
        let rightLow = fill(right, next: rightPlans[next], frame.right.image, temp: s.rightTemp)
        writer.pump(columnsDone: tileColumn)
        var shaded = frame.shadows
        var leftShaded = shaded && shadows.leftPageShaded
        if shaded {
            // Under the opaque pages nothing shows a shadow (but the left page under the right's):
            // no shadow work there; far from the pages the shadows are nil: plain copies.
            let underRight = right.opaqueStart == 0 && right.opaqueEnd == pixelHeight
            let underLeft = left.opaqueStart == 0 && left.opaqueEnd == pixelHeight && right.yEnd <= right.yStart && !leftShaded
            if underRight || underLeft {
                (shaded, leftShaded) = (false, false)
            } else {
                (shaded, leftShaded) = loadShadowColumns(x, scratch: s, leftPage: leftShaded && left.yEnd > left.yStart)
            }
        }
        let leftShade = frame.left.geometry.shade, rightShade = frame.right.geometry.shade
        let rowCell = self.rowCell, rowWeight = self.rowWeight
        let backdropColumn: UnsafeMutablePointer<UInt32>?
        let flatColour: UInt32
        switch frame.backdrop {
        case let .flat(c): (backdropColumn, flatColour) = (nil, c)
        case let .columns(p): (backdropColumn, flatColour) = (p + (x % texturePeriod) * pixelHeight, Lanes.opaque)
        }
        let flat = Lanes.expand(flatColour)

        @inline(__always) func backdrop(_ y: Int) -> UInt64 {
            if let backdropColumn { return Lanes.expand(backdropColumn[y]) }
            return flat
        }
        @inline(__always) func darkening(_ column: UnsafeMutablePointer<UInt16>, _ y: Int) -> UInt64 {
            let g = Int(rowCell[y]), w = UInt64(rowWeight[y])
            return (UInt64(column[g]) &* (256 &- w) &+ UInt64(column[g + 1]) &* w) >> 8
        }
        /// A sample at an edge: the source row clamped into the page, times the page's coverage.
        @inline(__always) func edgeSample(_ p: ColumnPlan, _ temp: UnsafeMutablePointer<UInt32>, _ low: Int,
                                          _ y: Int, _ k: UInt64) -> UInt64 {
            let v = min(max(p.v0 &+ p.dv &* Int64(y), Int64(low) << 32), p.vMax)
            let j = Int(truncatingIfNeeded: v >> 32) - low
            let top = Lanes.expand(temp[j]), bottom = Lanes.expand(temp[j + 1])
            var e = Lanes.mix(top, bottom, UInt64(truncatingIfNeeded: (v >> 24) & 0xFF))
            if k < 256 { e = Lanes.shade(e, k) }
            let c = p.coverage(y)
            return c >= 256 ? e : Lanes.scale(e, c)
        }
        /// Rows `rows` of an opaque page: the sampler, through the right page's shadow on the left page.
        @inline(__always) func sampleRun(_ p: ColumnPlan, _ temp: UnsafeMutablePointer<UInt32>, _ low: Int,
                                         _ rows: Range<Int>, shade: UInt64, darkened: Bool) {
            let v = p.v0 &+ p.dv &* Int64(rows.lowerBound) &- (Int64(low) << 32)
            if darkened {
                kernels.sample(temp, v, p.dv, Int32(rows.count), s.leftPageShadow, Int32(rows.lowerBound), UInt16(shade),
                               out + rows.lowerBound)
            } else {
                kernels.sample(temp, v, p.dv, Int32(rows.count), nil, 0, UInt16(shade), out + rows.lowerBound)
            }
            writer.pump(columnsDone: tileColumn)
        }

        // Rows split where what they show changes; each run is one kernel call. Each run ends at
        // the nearest of the eight boundaries past its start (branch-free selects, where sorting
        // them mispredicted).
        @inline(__always) func nearer(_ cut: Int, _ start: Int, _ end: Int) -> Int { cut > start && cut < end ? cut : end }
        var start = 0
        while start < pixelHeight {
            var end = pixelHeight
            end = nearer(left.yStart, start, end)
            end = nearer(left.yEnd, start, end)
            end = nearer(left.opaqueStart, start, end)
            end = nearer(left.opaqueEnd, start, end)
            end = nearer(right.yStart, start, end)
            end = nearer(right.yEnd, start, end)
            end = nearer(right.opaqueStart, start, end)
            end = nearer(right.opaqueEnd, start, end)
            let inLeft = start >= left.yStart && start < left.yEnd
            let inRight = start >= right.yStart && start < right.yEnd
            let leftOpaque = start >= left.opaqueStart && start < left.opaqueEnd
            let rightOpaque = start >= right.opaqueStart && start < right.opaqueEnd
            if rightOpaque {
                sampleRun(right, s.rightTemp, rightLow, start..<end, shade: rightShade, darkened: false)
            } else if !inLeft && !inRight {
                if shaded {
                    kernels.darken(backdropColumn.map { $0 + start }, flatColour, s.backdropShadow, Int32(start),
                                   Int32(end - start), out + start)
                    writer.pump(columnsDone: tileColumn)
                } else if let backdropColumn {
                    (out + start).update(from: backdropColumn + start, count: end - start)
                } else {
                    (out + start).update(repeating: flatColour, count: end - start)
                }
            } else if !inRight && leftOpaque {
                sampleRun(left, s.leftTemp, leftLow, start..<end, shade: leftShade, darkened: leftShaded)
            } else {
                // Edges and overlaps: the full painter's order.
                for y in start..<end {
                    var c = backdrop(y)
                    if inLeft {
                        if shaded { c = Lanes.scale(c, 256 &- leftShadow(x: x, y: y)) }
                        c = Lanes.over(edgeSample(left, s.leftTemp, leftLow, y, leftShade), c)
                        if leftShaded { c = Lanes.scale(c, 256 &- darkening(s.leftPageColumn, y)) }
                    } else if shaded {
                        c = Lanes.scale(c, 256 &- darkening(s.backdropColumn, y))
                    }
                    if inRight { c = Lanes.over(edgeSample(right, s.rightTemp, rightLow, y, rightShade), c) }
                    out[y] = Lanes.pack(c) | Lanes.opaque
                }
            }
            start = end
        }
    }

    /// Blends the page's two source columns over the source rows the column needs into `temp`
    /// (from the returned source row on); nothing when the page is not in this column. Brings in
    /// the column the next screen column adds on the way.
    @inline(__always)
    private func fill(_ p: ColumnPlan, next: ColumnPlan, _ image: PageImage, temp: UnsafeMutablePointer<UInt32>) -> Int {
        guard p.yEnd > p.yStart else { return 0 }
        // From a whole cache line of the page's stored column: aligned loads and stores.
        let low = min(max(p.j(p.yStart), 0), pixelHeight) & ~15
        let high = min(max(p.j(p.yEnd - 1), 0), pixelHeight) + 1
        let ahead = next.yEnd > next.yStart && next.sourceColumn != p.sourceColumn ? image.row(next.sourceColumn + 1) + low : nil
        kernels.blend(image.row(p.sourceColumn) + low, image.row(p.sourceColumn + 1) + low, Int32(high - low + 1),
                      UInt32((p.fu + 1) >> 1), temp, ahead)
        return low
    }

    /// The left page's own shadow at one pixel, 0…256 (only its edges need it, so no column cache):
    /// the grid read bilinearly through the row tables, which serve columns too.
    @inline(__always)
    private func leftShadow(x: Int, y: Int) -> UInt64 {
        let map = shadows.leftDarkening, h = shadows.gridHeight
        let gx = Int(rowCell[x]), gy = Int(rowCell[y]), wx = UInt64(rowWeight[x]), wy = UInt64(rowWeight[y])
        let top = UInt64(map[gx * h + gy]) * (256 - wx) + UInt64(map[(gx + 1) * h + gy]) * wx
        let bottom = UInt64(map[gx * h + gy + 1]) * (256 - wx) + UInt64(map[(gx + 1) * h + gy + 1]) * wx
        return (top * (256 - wy) + bottom * wy + 32768) >> 16
    }

    /// The shadow grid blended horizontally for column x; says whether any darkening is left
    /// there (backdrop, left page).
    @_optimize(speed)
    private func loadShadowColumns(_ x: Int, scratch s: ColumnScratch, leftPage: Bool) -> (Bool, Bool) {
        let h = shadows.gridHeight
        // The grid's columns share the rows' spacing and margin: the row tables serve columns too.
        let g0 = Int(rowCell[x]), w = UInt32(rowWeight[x])
        // Every grid row a kernel may read: up to three cells past the last row's (32-row steps).
        let lo = Int(rowCell[0]), hi = Int(rowCell[pixelHeight - 1]) + 3
        func blend(_ map: UnsafeMutablePointer<UInt16>, into column: UnsafeMutablePointer<UInt16>) -> Bool {
            kernels.blendGrid(map + g0 * h + lo, map + (g0 + 1) * h + lo, Int32(hi - lo + 1), w, column + lo) != 0
        }
        let backdrop = blend(shadows.backdropDarkening, into: s.backdropColumn)
        let leftPageShade = leftPage && blend(shadows.leftPageDarkening, into: s.leftPageColumn)
        return (backdrop || leftPageShade, leftPageShade)
    }

    /// Where a page falls in screen column `x`: rows covered, rows fully opaque, the source columns.
    /// Straight page edges get exact area coverage (the column's share of the page horizontally, the
    /// first and last rows' share vertically), so edges stay smooth whatever the foreshortening.
    @_optimize(speed)
    private func columnPlan(_ page: PageFrame, x: Int) -> ColumnPlan {
        var p = ColumnPlan()
        guard page.columns.contains(x) else { return p }
        let g = page.geometry, m = g.transform, b = g.bounds, cr = g.contentsRect, image = page.image
        // The page's outer edge cuts the column; its spine edge owns whole columns (no seam).
        let left = Double(x), coverage = page.outerIsLeft ? left + 1 - page.outerX : page.outerX - left
        guard coverage > 0 else { return p }
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
        // On a 1/256 grid, rounded: a centre that lands a hair before a pixel centre takes that pixel.
        let fixedU = nearest(u * 256)
        let i0 = min(fixedU >> 8, image.columns)
        let fu = i0 == fixedU >> 8 ? UInt64(fixedU & 0xFF) : 0

        let height = Double(pixelHeight)
        let ky = cr.height * height / b.height
        let step = ky * w / (scale * m.m22)
        let start = cr.minY * height + ky * ((lx * -m.m12 - m.m42) / m.m22 - b.minY) + 0.5 * step + 0.5
        guard step > 0, step.isFinite, start.isFinite else { return p }
        // The page's top and bottom edges on screen in this column, in buffer pixels.
        let top = (lx * m.m12 + b.minY * m.m22 + m.m42) / w * scale
        let bottom = (lx * m.m12 + b.maxY * m.m22 + m.m42) / w * scale
        let y0 = floorInt(min(max(top, 0), height)), y1 = ceilInt(min(max(bottom, 0), height))
        guard y1 > y0 else { return p }
        p.yStart = y0
        p.yEnd = y1
        p.columnCoverage = UInt64(nearest(min(coverage, 1) * 256))
        p.topCoverage = UInt64(nearest((min(Double(y0 + 1), bottom) - max(Double(y0), top)) * 256))
        p.bottomCoverage = UInt64(nearest((min(Double(y1), bottom) - max(Double(y1 - 1), top)) * 256))
        p.v0 = Int64(nearest(start * 4_294_967_296))
        p.dv = Int64(nearest(step * 4_294_967_296))
        p.vMax = Int64(pixelHeight) << 32
        p.sourceColumn = i0
        p.fu = fu
        // Fully opaque rows: whole column and row covered, both taps in the opaque span of both source columns.
        guard p.columnCoverage >= 256 else { return p }
        var first = Int(image.opaqueFirst[i0]), lastOpaque = Int(image.opaqueLast[i0])
        if fu != 0 {
            first = max(first, Int(image.opaqueFirst[i0 + 1]))
            lastOpaque = min(lastOpaque, Int(image.opaqueLast[i0 + 1]))
        }
        let inner0 = y0 + 1, inner1 = y1 - 1
        guard lastOpaque > first, inner1 > inner0 else { return p }
        var o0 = ceilInt(max(Double(inner0), min(Double(inner1), (Double(first) - start) / step)))
        while o0 < inner1 && p.j(o0) < first { o0 += 1 }
        while o0 > inner0 && p.j(o0 - 1) >= first { o0 -= 1 }
        var o1 = ceilInt(max(Double(o0), min(Double(inner1), (Double(lastOpaque) - start) / step)))
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

/// What a page shows in one screen column: rows covered, rows fully opaque, the source column pair
/// and the 32.32 fixed-point source row at y = 0 and per row.
struct ColumnPlan {
    var yStart = 0, yEnd = 0
    var opaqueStart = 0, opaqueEnd = 0
    var v0: Int64 = 0, dv: Int64 = 0, vMax: Int64 = 0
    /// The stored row (canvas column + 1) of the left tap, and the right tap's weight (0…255).
    var sourceColumn = 0
    var fu: UInt64 = 0
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
    /// The texture's tile, column-major.
    case columns(UnsafeMutablePointer<UInt32>)
}

struct FrameSetup {
    var target: UnsafeMutablePointer<UInt32>
    var targetStride: Int
    var backdrop: Backdrop
    var shadows: Bool
    var left: PageFrame
    var right: PageFrame
}

/// One render thread's buffers, allocated once.
final class ColumnScratch {
    /// Per page, the column's two source columns blended, with
    /// room for the sampler's window reads past the end.
    let leftTemp: UnsafeMutablePointer<UInt32>
    let rightTemp: UnsafeMutablePointer<UInt32>
    /// The shadow grid blended for this column: darkening of the backdrop and of the left page,
    /// and those as the kernels take them.
    let backdropColumn: UnsafeMutablePointer<UInt16>
    let leftPageColumn: UnsafeMutablePointer<UInt16>
    let backdropShadow: UnsafeMutablePointer<folio_fold_shadow>
    let leftPageShadow: UnsafeMutablePointer<folio_fold_shadow>
    /// Two tiles of whole columns, column-major, and what writes the filled one out.
    let tiles: [UnsafeMutablePointer<UInt32>]
    let writer: TileWriter

    init(rows: Int, tileStride: Int, shadows: ShadowMap, kernels: FoldKernels) {
        let gridHeight = shadows.gridHeight
        // Cache-line aligned: the kernels' whole-vector stores then never straddle two lines.
        leftTemp = alignedPixels(rows + 80)
        rightTemp = alignedPixels(rows + 80)
        backdropColumn = .allocate(capacity: gridHeight + 1)
        leftPageColumn = .allocate(capacity: gridHeight + 1)
        backdropColumn.initialize(repeating: 0, count: gridHeight + 1)
        leftPageColumn.initialize(repeating: 0, count: gridHeight + 1)
        let shift = Int32(shadows.cellShift), margin = Int32(shadows.margin)
        backdropShadow = .allocate(capacity: 1)
        backdropShadow.initialize(to: folio_fold_shadow(darkening: backdropColumn, cell_shift: shift, margin: margin))
        leftPageShadow = .allocate(capacity: 1)
        leftPageShadow.initialize(to: folio_fold_shadow(darkening: leftPageColumn, cell_shift: shift, margin: margin))
        tiles = (0..<2).map { _ in alignedPixels(tileStride * FoldRenderer.tileColumns) }
        writer = TileWriter(rows: rows, tileStride: tileStride, kernels: kernels)
    }

    deinit {
        free(leftTemp)
        free(rightTemp)
        backdropColumn.deallocate()
        leftPageColumn.deallocate()
        backdropShadow.deallocate()
        leftPageShadow.deallocate()
        tiles.forEach { free($0) }
    }
}

/// Zeroed pixels on a cache-line boundary.
private func alignedPixels(_ count: Int) -> UnsafeMutablePointer<UInt32> {
    guard let memory = aligned_alloc(64, (count * 4 + 63) & ~63) else { fatalError("out of memory for fold scratch") }
    let pixels = memory.bindMemory(to: UInt32.self, capacity: count)
    pixels.initialize(repeating: 0, count: count)
    return pixels
}

/// Writes a filled tile out to the frame 16 rows at a time (blocks of 16×16 pixels: whole cache
/// lines of the frame), a few at a time, keeping pace with the columns of the next tile.
final class TileWriter {
    static let rowsPerStep = 16
    private let rows: Int
    private let tileStride: Int
    private let kernels: FoldKernels
    private var tile: UnsafeMutablePointer<UInt32>?
    private var target: UnsafeMutablePointer<UInt32>?
    private var stride = 0, columns = 0, written = 0
    /// Steps per tile: its rows, sixteen at a time.
    private let steps: Int

    init(rows: Int, tileStride: Int, kernels: FoldKernels) {
        self.rows = rows
        self.tileStride = tileStride
        self.kernels = kernels
        steps = (rows + Self.rowsPerStep - 1) / Self.rowsPerStep
        written = steps  // nothing to write until a tile starts
    }

    /// Takes `tile` (`columns` columns, all rows) to go out to `target` (its first pixel) and on.
    func start(tile: UnsafeMutablePointer<UInt32>, target: UnsafeMutablePointer<UInt32>, stride: Int, columns: Int) {
        self.tile = tile
        self.target = target
        self.stride = stride
        self.columns = columns
        written = 0
    }

    /// Writes one more step if the tile is behind the next `columnsDone`'s share.
    @inline(__always) func pump(columnsDone: Int) {
        if written < steps && written * FoldRenderer.tileColumns < steps * (columnsDone + 1) { writeNext() }
    }

    /// Writes steps until the tile has its share for `columnsDone` columns of the next tile.
    func catchUp(columnsDone: Int) {
        while written < steps && written * FoldRenderer.tileColumns < steps * columnsDone { writeNext() }
    }

    func finish() {
        while written < steps { writeNext() }
    }

    private func writeNext() {
        guard let tile, let target else { return }
        let r = written * Self.rowsPerStep
        kernels.writeTile(tile + r, Int32(tileStride), Int32(columns), Int32(min(Self.rowsPerStep, rows - r)),
                          target + r * stride, Int32(stride))
        written += 1
    }
}

/// Hands non-Sendable state to the render threads, which touch disjoint columns only.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
