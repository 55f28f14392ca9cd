import CFoldKernels
import Dispatch
import FolioGeometry
import FolioLayers
#if canImport(Glibc)
import Glibc
import FolioPixels
#endif

/// How a fold frame is dressed.
public struct PageRenderOptions: Sendable, Equatable {
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

/// Renders a scene of page layers in perspective over a backdrop: the one renderer behind the
/// pinch fold and the page turn, which are two layer trees for it, not two renderers.
///
/// What it reads from the tree: every visible layer with `contents` (a bitmap the frame's size,
/// as the canvas is) is a page, drawn in the tree's painter's order through its `contentsRect`,
/// `mask` (rounded corners), presentation transform chain (a turn about a vertical axis under a
/// perspective) and lighting (its normal), showing a softened mirror of itself from behind when it
/// is double-sided (nothing when not). The nearest layer at or above it with a `shadowPath` casts
/// its shadow. A page turns about its spine: the vertical edge its top-level layer's anchor lies on.
/// The backdrop is the root's contents when it holds a bitmap, else the options' colour or texture.
///
/// Why it is fast: a rotation about the vertical axis sends each page column to one screen column
/// with a pure vertical scale. So each screen column needs one page column (a blend of two
/// neighbouring canvas columns, read contiguously from a transposed copy made once per gesture)
/// resampled linearly — two taps per pixel — by vector kernels (`FoldKernels`). Columns are drawn
/// into a column-major tile and written out in transposed blocks; where a flat page shows its
/// contents unscaled and no shadow falls on it, whole rows are copied from them instead (lit
/// column by column under a gradient shadow), and tiles that show only the backdrop take its
/// rows (darkened row by row under a shadow). Masks, borders and back faces
/// are prepared once per gesture; shadows are blurred at low resolution; nothing is allocated per
/// frame.
///
/// Call `prepare(_:)` when the pages' contents change (once per gesture), then `render` per frame:
/// a frame reads both the prepared images and the contents bitmaps themselves.
public final class PageRenderer {
    public let pixelWidth: Int
    public let pixelHeight: Int
    /// Buffer pixels per logical pixel.
    public let scale: Double
    /// Light that reaches a page whatever its angle (the CA book's ambient term).
    public static let ambientLight = 0.5

    /// The pages as last prepared, in drawing order.
    private var pages: [PreparedPage] = []
    /// The page layers found in the tree this frame (reused: no allocation per frame).
    private var found: [(layer: Layer, contents: Bitmap)] = []
    /// The backdrop image (the root's contents), column-major, and which bitmap it was taken from.
    private var backdropImage: (source: ObjectIdentifier, columns: UnsafeMutablePointer<UInt32>)?
    /// The backdrop texture's tile, column-major (its column c at `c * pixelHeight`, shown in the
    /// screen columns x ≡ c modulo the period): the columns are read top to bottom like
    /// everything else here; and as rows, for tiles that show it bare. Made on first use.
    private var texture: (columns: UnsafeMutablePointer<UInt32>, rows: Bitmap)?
    /// A frame-wide row of the flat backdrop colour (and that colour), for tiles that show it bare.
    private var flatRow: (colour: UInt32, pixels: UnsafeMutablePointer<UInt32>)?
    private let texturePeriod: Int
    private let shadows: ShadowMap
    /// Per buffer row (and column: the grid is square), the shadow grid cell before the pixel's
    /// centre and the next cell's weight (0…255).
    private let rowCell: UnsafeMutablePointer<Int32>
    private let rowWeight: UnsafeMutablePointer<UInt16>
    private let kernels: FoldKernels
    private var scratch: [ColumnScratch]
    private var geometry: [FoldPageGeometry] = []
    /// Per page, what the column kernels read this frame (grown with the scene, never per frame).
    private var setups: UnsafeMutablePointer<PageSetup>
    private var setupCapacity = 0
    /// Columns per tile: whole columns are drawn into a column-major tile (contiguous writes), then
    /// written out row by row (whole cache lines).
    static let tileColumns = 32
    /// How many columns ahead a column asks for the plans: about an L3 fetch's worth of columns
    /// and more, and not so far that the lines leave L1 before their column.
    static let plansAhead = 4
    /// Pixels per tile column: the height rounded up to whole transposed blocks.
    private let tileStride: Int
    /// Per tile, the rows a flat page shows as they are, this frame (each thread sets its tiles').
    private let copies: UnsafeMutablePointer<TileCopy?>
    /// Per screen column, the light (0…256) of the flat page its copied rows show.
    private let columnLights: UnsafeMutablePointer<UInt16>
    /// Whether those rows, and the rows of tiles that show the bare backdrop, are copied rather
    /// than drawn in columns (tests turn it off to hold the copies against the columns, which
    /// would give the same bytes).
    var copiesRows = true
    /// How many column plans the last frame made (pages that did not move keep theirs).
    private(set) var columnPlansMade = 0

    public init(pixelWidth: Int, pixelHeight: Int, scale: Double = 1, kernels: FoldKernels = .best) {
        precondition(pixelWidth >= 2 && pixelHeight >= 1 && scale > 0, "page renderer size \(pixelWidth)x\(pixelHeight) at \(scale)")
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.scale = scale
        self.kernels = kernels
        tileStride = (pixelHeight + 7) & ~7
        texturePeriod = BackdropTexture.period(scale: scale)
        // A tile of bare backdrop copies one run of the texture's rows: tiles never straddle its period.
        precondition(texturePeriod % Self.tileColumns == 0, "backdrop texture period \(texturePeriod) is not whole tiles")
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
        setups = .allocate(capacity: 0)
        let groups = (pixelWidth + Self.tileColumns - 1) / Self.tileColumns
        copies = .allocate(capacity: groups)
        copies.initialize(repeating: nil, count: groups)
        columnLights = .allocate(capacity: pixelWidth)
        columnLights.initialize(repeating: 256, count: pixelWidth)
    }

    deinit {
        rowCell.deallocate()
        rowWeight.deallocate()
        texture?.columns.deallocate()
        flatRow?.pixels.deallocate()
        backdropImage?.columns.deallocate()
        setups.deallocate()
        copies.deallocate()
        columnLights.deallocate()
    }

    /// How far back faces are softened, in buffer pixels.
    private var backBlurRadius: Int { max(1, Int((1.5 * scale).rounded())) }

    /// Takes the pages' contents from the tree under `root`: masks the rounded corners in,
    /// transposes, adds the borders; and the backdrop image, if the root has one. Once per gesture
    /// (or when contents change); back faces follow lazily.
    public func prepare(_ root: Layer) {
        collectPages(root)
        load(onlyChanged: false)
        prepareBackdrop(root)
    }

    /// Loads the found pages' images: every one, or only those whose layer or contents object is
    /// not what was loaded (a scene that swapped a page's contents mid-gesture).
    private func load(onlyChanged: Bool) {
        // Reuse the images of the last gesture where a page keeps its shape (they are large).
        var spare = pages
        pages = found.map { entry in
            if onlyChanged, let same = spare.firstIndex(where: { $0.layer === entry.layer && $0.contents === entry.contents }) {
                return spare.remove(at: same)
            }
            let shape = PageShape(contents: entry.contents, contentsRect: entry.layer.contentsRect, pixelWidth: pixelWidth)
            if let reused = spare.firstIndex(where: { $0.shape == shape }).map({ spare.remove(at: $0) }) {
                reused.load(layer: entry.layer, contents: entry.contents, pixelWidth: pixelWidth, pixelHeight: pixelHeight)
                return reused
            }
            return PreparedPage(shape: shape, layer: entry.layer, contents: entry.contents, pixelWidth: pixelWidth, pixelHeight: pixelHeight)
        }
    }

    /// Draws the tree under `root` into `target`, every pixel of it, with each layer's transform as
    /// it is on screen at `time` (ms on its transaction's clock; nil: the model values).
    public func render(_ root: Layer, at time: Double? = nil, into target: Bitmap, options: PageRenderOptions = PageRenderOptions()) {
        precondition(target.width == pixelWidth && target.height == pixelHeight, "target size differs from the renderer's")
        collectPages(root)
        if !matchesPrepared() {
            load(onlyChanged: true)
            if (root.contents as? Bitmap).map(ObjectIdentifier.init) != backdropImage?.source { prepareBackdrop(root) }
        }
        updateGeometry(at: time)
        for (page, g) in zip(pages, geometry) where g.facesAway && !g.isHidden && !page.backReady {
            page.loadBack(blurRadius: backBlurRadius)
        }
        if options.shadows { shadows.update(pages: geometry, scale: scale) }
        var backdrop = Backdrop.flat(0)
        var backdropRows: BackdropRows?
        if let image = backdropImage {
            backdrop = .columns(image.columns, period: pixelWidth)
        } else if case let .flat(rgb) = options.background {
            backdrop = .flat(0xFF00_0000 | rgb)
            backdropRows = BackdropRows(pixels: flatBackdropRow(0xFF00_0000 | rgb), stride: 0, period: pixelWidth)
        } else if let colour = root.backgroundColor {
            backdrop = .flat(colour.opaqueARGB)
            backdropRows = BackdropRows(pixels: flatBackdropRow(colour.opaqueARGB), stride: 0, period: pixelWidth)
        } else {
            let tile = backdropTexture()
            backdrop = .columns(tile.columns, period: texturePeriod)
            backdropRows = BackdropRows(pixels: tile.rows.pixels.assumingMemoryBound(to: UInt32.self), stride: tile.rows.stride / 4,
                                        period: texturePeriod)
        }
        if setupCapacity < pages.count {
            setups.deallocate()
            setups = .allocate(capacity: pages.count)
            setupCapacity = pages.count
        }
        columnPlansMade = 0
        for index in pages.indices {
            let frame = pageFrame(index), image = frame.image, contents = pages[index].contents
            (setups + index).initialize(to: PageSetup(
                plans: frame.plans, image: image.storage, rowStride: image.rowStride,
                flat: frame.geometry.facesAway ? nil : FlatSource(
                    pixels: contents.pixels.assumingMemoryBound(to: UInt32.self) + image.firstCanvasColumn,
                    stride: contents.stride / 4, columns: image.columns, rows: image.rows),
                backdropDarkening: options.shadows ? shadows.backdropDarkening(upTo: index) : nil,
                darkening: options.shadows ? shadows.pageDarkening(index) : nil,
                isShadedFromAbove: options.shadows && shadows.isShadedFromAbove(index)))
        }
        while scratch.count < options.threads {
            scratch.append(ColumnScratch(rows: pixelHeight, tileStride: tileStride, shadows: shadows, kernels: kernels))
        }
        for s in scratch { s.reserve(pages: pages.count) }
        let frame = FrameSetup(
            target: target.pixels.assumingMemoryBound(to: UInt32.self), targetStride: target.stride / 4,
            backdrop: backdrop, backdropRows: backdropRows, shadows: options.shadows && !pages.isEmpty, pages: setups,
            pageCount: pages.count)
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

    /// How many pixels the last frame copied in rows rather than drew in columns: from page
    /// contents (only those lit column by column, when `lit`), or of the bare backdrop (only those
    /// under a shadow, when `darkened`).
    func copiedPixels(lit: Bool = false, backdrop: Bool = false, darkened: Bool = false) -> Int {
        let groups = (pixelWidth + Self.tileColumns - 1) / Self.tileColumns
        return (0..<groups).reduce(0) { sum, g in
            guard let copy = copies[g], copy.isBackdrop == backdrop, copy.lit || !lit, copy.darkened || !darkened else { return sum }
            return sum + copy.rows.count * (min(pixelWidth, (g + 1) * Self.tileColumns) - g * Self.tileColumns)
        }
    }

    /// The prepared image a page samples (tests compare the sampler with an exact reference on it).
    func pageImage(index: Int, back: Bool) -> PageImage {
        let page = pages[index]
        if back && !page.backReady { page.loadBack(blurRadius: backBlurRadius) }
        return back ? page.back : page.front
    }

    // MARK: - The tree

    /// Every visible layer with bitmap contents under `root` (the root's own contents are the
    /// backdrop), in painter's order: a layer, then its sublayers.
    private func collectPages(_ root: Layer) {
        found.removeAll(keepingCapacity: true)
        func visit(_ layer: Layer) {
            guard !layer.isHidden else { return }
            if let contents = layer.contents as? Bitmap { found.append((layer, contents)) }
            for sublayer in layer.sublayers { visit(sublayer) }
        }
        for sublayer in root.sublayers { visit(sublayer) }
    }

    private func matchesPrepared() -> Bool {
        guard found.count == pages.count else { return false }
        for (entry, page) in zip(found, pages) where entry.layer !== page.layer || entry.contents !== page.contents {
            return false
        }
        return true
    }

    private func prepareBackdrop(_ root: Layer) {
        guard let image = root.contents as? Bitmap else {
            backdropImage?.columns.deallocate()
            backdropImage = nil
            return
        }
        precondition(image.width == pixelWidth && image.height == pixelHeight, "backdrop \(image.width)x\(image.height) is not the frame's size")
        let columns = backdropImage?.columns ?? .allocate(capacity: pixelWidth * pixelHeight)
        transposeColumns(of: image, into: columns)
        backdropImage = (ObjectIdentifier(image), columns)
    }

    private func transposeColumns(of bitmap: Bitmap, into columns: UnsafeMutablePointer<UInt32>) {
        let rows = bitmap.height
        for y in 0..<rows {
            let row = bitmap.pixels.advanced(by: y * bitmap.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<bitmap.width { columns[x * rows + y] = row[x] }
        }
    }

    private func backdropTexture() -> (columns: UnsafeMutablePointer<UInt32>, rows: Bitmap) {
        if let texture { return texture }
        let rows = Bitmap(width: texturePeriod, height: pixelHeight)
        BackdropTexture.paint(rows, scale: scale)
        let columns = UnsafeMutablePointer<UInt32>.allocate(capacity: texturePeriod * pixelHeight)
        transposeColumns(of: rows, into: columns)
        texture = (columns, rows)
        return (columns, rows)
    }

    private func flatBackdropRow(_ colour: UInt32) -> UnsafeMutablePointer<UInt32> {
        let pixels = flatRow?.pixels ?? .allocate(capacity: pixelWidth)
        if flatRow?.colour != colour { pixels.initialize(repeating: colour, count: pixelWidth) }
        flatRow = (colour, pixels)
        return pixels
    }

    // MARK: - Per frame

    private func updateGeometry(at time: Double?) {
        geometry.removeAll(keepingCapacity: true)
        for page in pages {
            let layer = page.layer
            let m = layer.transformToRoot(at: time)
            // Lit by the page's own turn (its transforms, without the positions), the light at the viewer.
            let normal = layer.turnToRoot(at: time).normal
            let light = Self.ambientLight + (1 - Self.ambientLight) * abs(normal.z)
            let facesAway = layer.facesAway(at: time)
            let caster = layer.shadowCaster
            var shadowOpacity = caster.map { $0.shadowOpacity * $0.shadowColor.alpha } ?? 0
            let hidden = facesAway && !layer.isDoubleSidedToRoot
            if hidden { shadowOpacity = 0 }
            geometry.append(FoldPageGeometry(
                transform: m, bounds: layer.bounds, contentsRect: layer.contentsRect,
                shadowTransform: caster?.transformToRoot(at: time) ?? m,
                shadowPath: caster?.shadowPath.map { $0.offsetBy(dx: caster?.shadowOffset.x ?? 0, dy: caster?.shadowOffset.y ?? 0) },
                shadowOpacity: shadowOpacity, facesAway: facesAway, isHidden: hidden, normalX: normal.x,
                light: light, shade: UInt64((light * 256).rounded()), shading: layer.shading, spineOnRight: layer.spineOnRight))
        }
    }

    private func pageFrame(_ index: Int) -> PageFrame {
        let g = geometry[index], page = pages[index]
        let image = g.facesAway ? page.back : page.front
        var columns = 0..<pixelWidth
        if g.isHidden {
            columns = 0..<0
        } else if let quad = g.transform.project(g.bounds) {
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
        let frame = PageFrame(geometry: g, image: image, plans: page.plans, columns: columns, outerX: outer, outerIsLeft: outer < spine)
        guard g != page.plannedFor || columns != page.plannedColumns else { return frame }
        // Only the columns planned last frame hold plans: those this frame leaves out are emptied.
        let plans = page.plans
        for x in page.plannedColumns where !columns.contains(x) { plans[x] = ColumnPlan() }
        for x in columns { plans[x] = columnPlan(frame, x: x) }
        columnPlansMade += columns.count
        page.plannedColumns = columns
        page.plannedFor = g
        return frame
    }

    // MARK: - Tiles and columns

    /// Two tiles per thread: while one fills column by column, the previous one goes out to the
    /// frame sixteen rows at a time between the column kernels, so the frame's writes drain steadily
    /// while the next columns compute rather than stalling in bursts.
    @_optimize(speed)
    private func renderGroups(_ groups: Range<Int>, frame: FrameSetup, scratch: ColumnScratch) {
        let writer = scratch.writer, copies = self.copies
        for g in groups {
            let x0 = g * Self.tileColumns
            let columns = x0..<min(pixelWidth, x0 + Self.tileColumns)
            copies[g] = copiesRows ? flatRows(columns, frame: frame) ?? bareBackdrop(columns, frame: frame) : nil
        }
        // The copied rows first, neighbouring tiles with the same rows of one source as one copy:
        // long runs of each row, read and written in order (a darkened tile alone: its shadow is
        // blended per tile).
        var g = groups.lowerBound
        while g < groups.upperBound {
            guard let copy = copies[g] else {
                g += 1
                continue
            }
            let x0 = g * Self.tileColumns
            if copy.darkened {
                darkenBareBackdrop(copy, columns: x0..<min(pixelWidth, x0 + Self.tileColumns), frame: frame, scratch: scratch)
                g += 1
                continue
            }
            var end = g + 1, lit = copy.lit
            while end < groups.upperBound, let next = copies[end], next.rows == copy.rows, !next.darkened,
                  next.source == copy.source + (end - g) * Self.tileColumns {
                lit = lit || next.lit
                end += 1
            }
            let x1 = min(pixelWidth, end * Self.tileColumns)
            let target = frame.target + copy.rows.lowerBound * frame.targetStride + x0
            if lit {
                kernels.copyRowsLit(copy.source, Int32(copy.stride), Int32(x1 - x0), Int32(copy.rows.count), columnLights + x0,
                                    target, Int32(frame.targetStride))
            } else {
                kernels.copyRows(copy.source, Int32(copy.stride), Int32(x1 - x0), Int32(copy.rows.count), target,
                                 Int32(frame.targetStride))
            }
            g = end
        }
        var current = 0
        for g in groups {
            let x0 = g * Self.tileColumns, x1 = min(pixelWidth, x0 + Self.tileColumns)
            let tile = scratch.tiles[current]
            let skip = copies[g]?.rows ?? 0..<0
            if skip != 0..<pixelHeight {
                for x in x0..<x1 {
                    renderColumn(x, frame: frame, scratch: scratch, into: tile + (x - x0) * tileStride, tileColumn: x - x0,
                                 skip: skip)
                    writer.catchUp(columnsDone: x - x0 + 1)
                }
            }
            writer.finish()
            writer.start(tile: tile, target: frame.target + x0, stride: frame.targetStride, columns: x1 - x0, skip: skip)
            current ^= 1
        }
        writer.finish()
        kernels.finish()
    }

    /// The rows of the tile's columns that one flat page shows pixel for pixel (unmoved, opaque, the
    /// topmost page there, no shadow from above on it; lit column by column, as under a gradient
    /// shadow, or not) from contiguous columns of its contents: they go to the frame as row copies,
    /// and the columns and the tile skip them. Whole writer steps only.
    @_optimize(speed)
    private func flatRows(_ columns: Range<Int>, frame: FrameSetup) -> TileCopy? {
        var low = 0, high = pixelHeight
        var page = -1, firstColumn = 0, offset = 0, lit = false
        for x in columns {
            var k = frame.pageCount - 1
            while k >= 0 && frame.pages[k].plans[x].yEnd <= frame.pages[k].plans[x].yStart { k -= 1 }
            guard k >= 0, let flat = frame.pages[k].flat else { return nil }
            if frame.shadows && frame.pages[k].isShadedFromAbove && k != page {
                guard !isShaded(frame.pages[k].darkening, columns: columns) else { return nil }
            }
            let p = frame.pages[k].plans[x]
            guard p.isAligned, p.sourceColumn >= 1, p.sourceColumn <= flat.columns else { return nil }
            columnLights[x] = UInt16(p.shade)
            lit = lit || p.shade != 256
            // The stored element row 0 shows: stored rows and elements from 1 on are the contents' columns and rows.
            let element = Int(truncatingIfNeeded: p.v0 >> 32), column = p.sourceColumn - (x - columns.lowerBound)
            if page < 0 { (page, firstColumn, offset) = (k, column, element) }
            guard k == page, column == firstColumn, element == offset else { return nil }
            low = max(low, p.opaqueStart, 1 - element)
            high = min(high, p.opaqueEnd, flat.rows + 1 - element)
            guard high > low else { return nil }
        }
        guard page >= 0, let flat = frame.pages[page].flat else { return nil }
        let step = TileWriter.rowsPerStep
        let first = (low + step - 1) / step * step, last = high == pixelHeight ? high : high / step * step
        guard last > first else { return nil }
        let source = flat.pixels + (first + offset - 1) * flat.stride + firstColumn - 1
        return TileCopy(rows: first..<last, source: source, stride: flat.stride, lit: lit)
    }

    /// A tile whose columns show the backdrop alone: all its rows taken from the backdrop's own rows
    /// (the texture's, or the flat colour's), darkened on the way where a shadow reaches the tile.
    @_optimize(speed)
    private func bareBackdrop(_ columns: Range<Int>, frame: FrameSetup) -> TileCopy? {
        guard let rows = frame.backdropRows else { return nil }
        for k in 0..<frame.pageCount {
            let plans = frame.pages[k].plans
            for x in columns where plans[x].yEnd > plans[x].yStart { return nil }
        }
        let shaded = frame.shadows && frame.pageCount > 0 && isShaded(frame.pages[frame.pageCount - 1].backdropDarkening, columns: columns)
        return TileCopy(rows: 0..<pixelHeight, source: rows.pixels + columns.lowerBound % rows.period, stride: rows.stride, lit: false,
                        isBackdrop: true, darkened: shaded)
    }

    /// A tile of bare backdrop under a shadow, straight to the frame in rows: the shadow grid
    /// blended for each of its columns as a column would blend it, then the rows darkened by it.
    private func darkenBareBackdrop(_ copy: TileCopy, columns: Range<Int>, frame: FrameSetup, scratch s: ColumnScratch) {
        guard let map = frame.pages[frame.pageCount - 1].backdropDarkening else { return }
        let stride = ColumnScratch.shadowColumnLength(shadows.gridHeight)
        for x in columns { _ = blendShadowColumn(map, x: x, into: s.tileShadow + (x - columns.lowerBound) * stride) }
        kernels.darkenRows(copy.source, Int32(copy.stride), Int32(columns.count), Int32(copy.rows.count), s.tileShadow, Int32(stride),
                           Int32(shadows.cellShift), Int32(shadows.margin), Int32(copy.rows.lowerBound),
                           frame.target + copy.rows.lowerBound * frame.targetStride + columns.lowerBound, Int32(frame.targetStride))
    }

    /// Whether the shadow darkening `map` (a page's by the pages above, or the backdrop's) is
    /// anywhere in screen columns `columns`: every grid value a pixel there blends from (two grid
    /// columns, two grid rows) is looked at.
    private func isShaded(_ map: UnsafeMutablePointer<UInt16>?, columns: Range<Int>) -> Bool {
        guard let map else { return false }
        let h = shadows.gridHeight
        let lo = Int(rowCell[0]), hi = Int(rowCell[pixelHeight - 1]) + 1
        for g in Int(rowCell[columns.lowerBound])...(Int(rowCell[columns.upperBound - 1]) + 1) {
            let column = map + g * h
            for y in lo...hi where column[y] != 0 { return true }
        }
        return false
    }

    /// One screen column: what each page shows there, shadows, backdrop, composited in the
    /// painter's order. `out[y]` receives row y (a column of the tile); rows in `skip` are left out.
    @_optimize(speed)
    private func renderColumn(_ x: Int, frame: FrameSetup, scratch s: ColumnScratch, into out: UnsafeMutablePointer<UInt32>,
                              tileColumn: Int, skip: Range<Int>) {
        let writer = s.writer
        let n = frame.pageCount, pages = frame.pages
        let plans = s.plans, lows = s.lows, covered = s.covered, darkened = s.darkened, temps = s.temps, pageColumns = s.pageColumns
        /// Per page, what its samples are read from this column: its blend in `temps`, or the page image itself.
        let sources = s.sources
        let next = min(x + 1, pixelWidth - 1)
        let backdropColumn: UnsafeMutablePointer<UInt32>?
        let flatColour: UInt32
        switch frame.backdrop {
        case let .flat(c): (backdropColumn, flatColour) = (nil, c)
        case let .columns(p, period): (backdropColumn, flatColour) = (p + (x % period) * pixelHeight, Lanes.opaque)
        }
        // The frame's streams push the plans (made before the frame's first column) and the
        // backdrop's columns out of the nearer caches: each would be a miss at a page's edges, and
        // the plans of the column after this one a miss when its blend begins.
        let planAhead = min(x + Self.plansAhead, pixelWidth - 1)
        for k in 0..<n { prefetchPlan(pages[k].plans + planAhead) }
        /// The topmost page in this column, if any.
        var top = -1
        // From the top down: a page whose rows here all lie under an opaque span of a page above
        // cannot show, so it is neither blended nor composited (a flat sheet under the leaf).
        var hiddenBelow = 0..<0
        for k in stride(from: n - 1, through: 0, by: -1) {
            var p = pages[k].plans[x]
            covered[k] = hiddenBelow
            if p.yEnd > p.yStart {
                if p.yStart >= hiddenBelow.lowerBound && p.yEnd <= hiddenBelow.upperBound {
                    p = ColumnPlan()
                } else {
                    if top < 0 { top = k }
                    if p.opaqueEnd - p.opaqueStart > hiddenBelow.count { hiddenBelow = p.opaqueStart..<p.opaqueEnd }
                    if let backdropColumn {
                        folio_prefetch(backdropColumn + p.yStart)
                        folio_prefetch(backdropColumn + p.yEnd - 1)
                    }
                }
            }
            plans[k] = p
            darkened[k] = false
        }
        for k in 0..<n {
            let page = pages[k], p = plans[k]
            if p.isAligned {
                // A flat page's column is one stored column as it is: read straight from the page
                // image (shown pixel for pixel, or sampled for its light and the shadows above it).
                lows[k] = 0
                sources[k] = page.row(p.sourceColumn)
                prefetchEnds(page.plans[next], page)
            } else {
                lows[k] = fill(p, next: page.plans[next], page, temp: temps[k], covered: covered[k])
                sources[k] = temps[k]
                writer.pump(columnsDone: tileColumn)
            }
        }
        var shaded = frame.shadows
        if shaded {
            // Under a page that fills the column and is shaded by nothing above it, no shadow
            // shows: no shadow work there; far from the pages the shadows are nil: plain copies.
            if top >= 0 && plans[top].opaqueStart == 0 && plans[top].opaqueEnd == pixelHeight && !pages[top].isShadedFromAbove {
                shaded = false
            } else {
                shaded = loadShadowColumns(x, frame: frame, scratch: s)
            }
        }
        let rowCell = self.rowCell, rowWeight = self.rowWeight
        let flat = Lanes.expand(flatColour)

        @inline(__always) func backdrop(_ y: Int) -> UInt64 {
            if let backdropColumn { return Lanes.expand(backdropColumn[y]) }
            return flat
        }
        @inline(__always) func darkening(_ column: UnsafeMutablePointer<UInt16>, _ y: Int) -> UInt64 {
            let g = Int(rowCell[y]), w = UInt64(rowWeight[y])
            return (UInt64(column[g]) &* (256 &- w) &+ UInt64(column[g + 1]) &* w) >> (8 + ShadowMap.levelShift)
        }
        @inline(__always) func covers(_ k: Int, _ y: Int) -> Bool { y >= plans[k].yStart && y < plans[k].yEnd }
        /// A sample at an edge: the source row clamped into the page, times the page's coverage.
        @inline(__always) func edgeSample(_ k: Int, _ y: Int) -> UInt64 {
            let p = plans[k], low = lows[k], temp = sources[k], shade = p.shade
            let v = min(max(p.v0 &+ p.dv &* Int64(y), Int64(low) << 32), Int64(pixelHeight) << 32)
            let j = Int(truncatingIfNeeded: v >> 32) - low
            let top = Lanes.expand(temp[j]), bottom = Lanes.expand(temp[j + 1])
            var e = Lanes.mix(top, bottom, UInt64(truncatingIfNeeded: (v >> 24) & 0xFF))
            if shade < 256 { e = Lanes.shade(e, shade) }
            let c = p.coverage(y)
            return c >= 256 ? e : Lanes.scale(e, c)
        }
        /// Rows `rows` of an opaque page: the sampler, through the shadows of the pages above it.
        @inline(__always) func sampleRun(_ k: Int, _ rows: Range<Int>) {
            let p = plans[k], shade = UInt16(p.shade)
            let v = p.v0 &+ p.dv &* Int64(rows.lowerBound) &- (Int64(lows[k]) << 32)
            if darkened[k] {
                kernels.sample(sources[k], v, p.dv, Int32(rows.count), s.pageShadows[k], Int32(rows.lowerBound), shade,
                               out + rows.lowerBound)
            } else if p.isExactCopy {
                (out + rows.lowerBound).update(from: sources[k] + Int(truncatingIfNeeded: v >> 32), count: rows.count)
            } else {
                kernels.sample(sources[k], v, p.dv, Int32(rows.count), nil, 0, shade, out + rows.lowerBound)
            }
            writer.pump(columnsDone: tileColumn)
        }

        // Rows split where what they show changes; each run is one kernel call. Each run ends at
        // the nearest of the pages' boundaries past its start (branch-free selects, where sorting
        // them mispredicted).
        @inline(__always) func nearer(_ cut: Int, _ start: Int, _ end: Int) -> Int { cut > start && cut < end ? cut : end }
        var start = 0
        while start < pixelHeight {
            if start == skip.lowerBound && !skip.isEmpty {
                start = skip.upperBound
                continue
            }
            var end = nearer(skip.lowerBound, start, pixelHeight)
            for k in 0..<n {
                let p = plans[k]
                end = nearer(p.yStart, start, end)
                end = nearer(p.yEnd, start, end)
                end = nearer(p.opaqueStart, start, end)
                end = nearer(p.opaqueEnd, start, end)
            }
            // The topmost page over these rows decides: opaque, it alone shows.
            var topHere = n - 1
            while topHere >= 0 && !covers(topHere, start) { topHere -= 1 }
            if topHere < 0 {
                if shaded {
                    kernels.darken(backdropColumn.map { $0 + start }, flatColour, s.backdropShadow, Int32(start),
                                   Int32(end - start), out + start)
                    writer.pump(columnsDone: tileColumn)
                } else if let backdropColumn {
                    (out + start).update(from: backdropColumn + start, count: end - start)
                } else {
                    (out + start).update(repeating: flatColour, count: end - start)
                }
            } else if start >= plans[topHere].opaqueStart && start < plans[topHere].opaqueEnd {
                sampleRun(topHere, start..<end)
            } else {
                // Edges and overlaps: the full painter's order. The backdrop under the lowest page
                // here takes the shadows of the pages up to it; each page those of the pages above.
                var lowest = 0
                while !covers(lowest, start) { lowest += 1 }
                let below: UnsafeMutablePointer<UInt16>? = shaded && lowest < n - 1 ? pages[lowest].backdropDarkening : nil
                for y in start..<end {
                    var c = backdrop(y)
                    if shaded {
                        c = Lanes.scale(c, 256 &- (below.map { gridShadow($0, x: x, y: y) } ?? darkening(s.backdropColumn, y)))
                    }
                    for k in lowest...topHere where covers(k, start) {
                        c = Lanes.over(edgeSample(k, y), c)
                        if darkened[k] { c = Lanes.scale(c, 256 &- darkening(pageColumns[k], y)) }
                    }
                    out[y] = Lanes.pack(c) | Lanes.opaque
                }
            }
            start = end
        }
    }

    /// Asks for both cache lines a plan may straddle.
    @inline(__always)
    private func prefetchPlan(_ plan: UnsafeMutablePointer<ColumnPlan>) {
        let bytes = UnsafeRawPointer(plan)
        folio_prefetch(bytes)
        folio_prefetch(bytes + MemoryLayout<ColumnPlan>.stride - 1)
    }

    /// Asks for the cache lines at both ends of a flat page's stored column that the next screen
    /// column shows: row copies take its middle from the contents, so nothing streams through
    /// the stored column there and its ends would each miss the caches (two lines an end: the
    /// rows up to the copies' whole 16-row steps).
    @inline(__always)
    private func prefetchEnds(_ p: ColumnPlan, _ image: PageSetup) {
        guard p.isAligned && p.yEnd > p.yStart else { return }
        let column = image.row(p.sourceColumn), first = p.j(p.yStart), last = p.j(p.yEnd - 1)
        folio_prefetch(column + first)
        folio_prefetch(column + first + 16)
        folio_prefetch(column + last)
        folio_prefetch(column + max(first, last - 16))
    }

    /// Blends the page's two source columns over the source rows the column needs into `temp`
    /// (from the returned source row on); nothing when the page is not in this column. Rows inside
    /// `covered` (an opaque span of a page above) never show this page, so their source rows are
    /// left out. Brings in the columns the next screen column adds on the way.
    @inline(__always)
    private func fill(_ p: ColumnPlan, next: ColumnPlan, _ image: PageSetup, temp: UnsafeMutablePointer<UInt32>,
                      covered: Range<Int>) -> Int {
        guard p.yEnd > p.yStart else { return 0 }
        // From a whole cache line of the page's stored column: aligned loads and stores.
        let low = min(max(p.j(p.yStart), 0), pixelHeight) & ~15
        let a = image.row(p.sourceColumn), b = image.row(p.sourceColumn + 1), weight = UInt32((p.fu + 1) >> 1)
        // The stored columns the next screen column blends and this one does not.
        let nextShows = next.yEnd > next.yStart, here = p.sourceColumn...(p.sourceColumn + 1)
        let ahead = nextShows && !here.contains(next.sourceColumn + 1) ? image.row(next.sourceColumn + 1) : nil
        let ahead2 = nextShows && !here.contains(next.sourceColumn) ? image.row(next.sourceColumn) : nil
        func blend(_ rows: Range<Int>) {
            guard !rows.isEmpty else { return }
            let first = min(max(p.j(rows.lowerBound), 0), pixelHeight) & ~15
            let high = min(max(p.j(rows.upperBound - 1), 0), pixelHeight) + 1
            kernels.blend(a + first, b + first, Int32(high - first + 1), weight, temp + (first - low), ahead.map { $0 + first },
                          ahead2.map { $0 + first })
        }
        if covered.isEmpty || covered.lowerBound >= p.yEnd || covered.upperBound <= p.yStart {
            blend(p.yStart..<p.yEnd)
        } else {
            blend(p.yStart..<max(p.yStart, covered.lowerBound))
            blend(min(p.yEnd, covered.upperBound)..<p.yEnd)
        }
        return low
    }

    /// A shadow grid's darkening at one pixel, 0…256 (only page edges need it, so no column cache):
    /// the grid read bilinearly through the row tables, which serve columns too.
    @inline(__always)
    private func gridShadow(_ map: UnsafeMutablePointer<UInt16>, x: Int, y: Int) -> UInt64 {
        let h = shadows.gridHeight
        let gx = Int(rowCell[x]), gy = Int(rowCell[y]), wx = UInt64(rowWeight[x]), wy = UInt64(rowWeight[y])
        let top = UInt64(map[gx * h + gy]) * (256 - wx) + UInt64(map[(gx + 1) * h + gy]) * wx
        let bottom = UInt64(map[gx * h + gy + 1]) * (256 - wx) + UInt64(map[(gx + 1) * h + gy + 1]) * wx
        return (top * (256 - wy) + bottom * wy + (1 << (15 + ShadowMap.levelShift))) >> (16 + ShadowMap.levelShift)
    }

    /// The shadow grids blended horizontally for column x: the backdrop's (every shadow), and each
    /// page's in this column that pages above shade. Says whether any darkening is left there.
    @_optimize(speed)
    private func loadShadowColumns(_ x: Int, frame: FrameSetup, scratch s: ColumnScratch) -> Bool {
        let n = frame.pageCount, pages = frame.pages
        guard let all = pages[n - 1].backdropDarkening else { return false }
        var any = blendShadowColumn(all, x: x, into: s.backdropColumn)
        for k in 0..<(n - 1) where pages[k].isShadedFromAbove && s.plans[k].yEnd > s.plans[k].yStart {
            if let map = pages[k].darkening, blendShadowColumn(map, x: x, into: s.pageColumns[k]) {
                s.darkened[k] = true
                any = true
            }
        }
        return any
    }

    /// The shadow grid `map` blended for screen column `x` into `column` (one grid column, `gridHeight + 1`
    /// long): every grid row a kernel may read, up to three cells past the last row's (32-row steps).
    /// Says whether any darkening is left there.
    @inline(__always)
    private func blendShadowColumn(_ map: UnsafeMutablePointer<UInt16>, x: Int, into column: UnsafeMutablePointer<UInt16>) -> Bool {
        // The grid's columns share the rows' spacing and margin: the row tables serve columns too.
        let h = shadows.gridHeight, g0 = Int(rowCell[x])
        let lo = Int(rowCell[0]), hi = Int(rowCell[pixelHeight - 1]) + 3
        return kernels.blendGrid(map + g0 * h + lo, map + (g0 + 1) * h + lo, Int32(hi - lo + 1), UInt32(rowWeight[x]), column + lo) != 0
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
        p.sourceColumn = i0
        p.fu = fu
        p.shade = g.shade
        if let shading = g.shading {
            p.shade = UInt64((g.light * (1 - shading.opacity(at: (lx - b.minX) / b.width)) * 256).rounded())
        }
        // Fully opaque rows: whole column and row covered, both taps in the opaque span of both source columns.
        guard p.columnCoverage >= 256 else { return p }
        var first = Int(image.opaqueFirst[i0]), lastOpaque = Int(image.opaqueLast[i0])
        if fu != 0 {
            first = max(first, Int(image.opaqueFirst[i0 + 1]))
            lastOpaque = min(lastOpaque, Int(image.opaqueLast[i0 + 1]))
        }
        // The first and last rows are opaque too where the page covers them whole (a flat sheet
        // edge to edge): their row copies and shadow-free columns then need no edge pass.
        let inner0 = p.topCoverage >= 256 ? y0 : y0 + 1, inner1 = p.bottomCoverage >= 256 ? y1 : y1 - 1
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
    /// Per screen column, what the page shows there this frame.
    var plans: UnsafeMutablePointer<ColumnPlan>
    var columns: Range<Int>
    /// The outer edge's screen x in buffer pixels, and whether it lies left of the spine.
    var outerX: Double
    var outerIsLeft: Bool
}

/// What a page shows in one screen column: rows covered, rows fully opaque, the source column pair
/// and the 32.32 fixed-point source row at y = 0 and per row.
struct ColumnPlan {
    var v0: Int64 = 0, dv: Int64 = 0
    // Narrow storage behind whole-number values: 48 bytes a plan, so the column loop's reads of
    // two plans a column take fewer cache lines. Rows and columns stay below 2^15 (bitmap sizes).
    @Narrow<Int32, Int> var yStart = 0
    @Narrow<Int32, Int> var yEnd = 0
    @Narrow<Int32, Int> var opaqueStart = 0
    @Narrow<Int32, Int> var opaqueEnd = 0
    /// The stored row (canvas column + 1) of the left tap, and the right tap's weight (0…255).
    @Narrow<Int32, Int> var sourceColumn = 0
    @Narrow<UInt16, UInt64> var fu = 0
    /// 0…256: the page's share of the column, and of its first and last rows.
    @Narrow<UInt16, UInt64> var columnCoverage = 0
    @Narrow<UInt16, UInt64> var topCoverage = 0
    @Narrow<UInt16, UInt64> var bottomCoverage = 0
    /// 0…256: the colour factor here: the page's lighting, under its gradient shadow if any.
    @Narrow<UInt16, UInt64> var shade = 256

    /// Whether the column shows one stored column unscaled and on whole rows.
    var isAligned: Bool { fu == 0 && dv == 1 << 32 && v0 & 0xFFFF_FFFF == 0 }

    /// Whether it does so unlit too: its pixels are the page's own (the sampler would give them
    /// back exactly).
    var isExactCopy: Bool { isAligned && shade == 256 }

    @inline(__always) func j(_ y: Int) -> Int { Int(truncatingIfNeeded: (v0 &+ dv &* Int64(y)) >> 32) }

    /// The page's coverage (0…256) of pixel row y inside [yStart, yEnd).
    @inline(__always) func coverage(_ y: Int) -> UInt64 {
        var c = columnCoverage
        if y == yStart { c = (c &* topCoverage) >> 8 }
        if y == yEnd - 1 { c = (c &* bottomCoverage) >> 8 }
        return c
    }
}

/// A value kept in a narrower integer than it is used as (its range must fit the narrow one).
@propertyWrapper
struct Narrow<Stored: FixedWidthInteger, Value: FixedWidthInteger> {
    private var stored: Stored

    init(wrappedValue: Value) { stored = Stored(truncatingIfNeeded: wrappedValue) }

    var wrappedValue: Value {
        get { Value(truncatingIfNeeded: stored) }
        set { stored = Stored(truncatingIfNeeded: newValue) }
    }
}

enum Backdrop {
    case flat(UInt32)
    /// Columns of an image or of the texture's tile, column-major, repeated every `period` columns.
    case columns(UnsafeMutablePointer<UInt32>, period: Int)
}

/// The backdrop as rows, where it has them: screen column x of any row is `pixels[x % period]`
/// of that row's, rows `stride` pixels apart (0: every row the same).
struct BackdropRows {
    var pixels: UnsafeMutablePointer<UInt32>
    var stride: Int
    var period: Int
}

struct FrameSetup {
    var target: UnsafeMutablePointer<UInt32>
    var targetStride: Int
    var backdrop: Backdrop
    var backdropRows: BackdropRows?
    var shadows: Bool
    var pages: UnsafeMutablePointer<PageSetup>
    var pageCount: Int
}

/// What the column loop reads of one page for a frame: plain pointers and numbers, no references,
/// so reading it per column costs no reference counting.
struct PageSetup {
    var plans: UnsafeMutablePointer<ColumnPlan>
    /// The image sampled (front or back) and its elements per stored row.
    var image: UnsafeMutablePointer<UInt32>
    var rowStride: Int
    /// The page's contents as they are, where it shows its front (nil: its back).
    var flat: FlatSource?
    /// The backdrop's darkening by the shadows of this page and those below; the page's own by
    /// the pages above it, and whether there is any (nil without shadows).
    var backdropDarkening: UnsafeMutablePointer<UInt16>?
    var darkening: UnsafeMutablePointer<UInt16>?
    var isShadedFromAbove: Bool

    @inline(__always) func row(_ i: Int) -> UnsafeMutablePointer<UInt32> { image + i * rowStride }
}

/// A page's contents, row-major, from its first canvas column: stored row i ≥ 1 of its image is
/// column i − 1 here, stored element j ≥ 1 is row j − 1, masked (rounded corners) only where not opaque.
struct FlatSource {
    var pixels: UnsafeMutablePointer<UInt32>
    /// Pixels per row.
    var stride: Int
    var columns: Int
    var rows: Int
}

/// Rows of a tile copied to the frame from `source` (the first row's first pixel, `stride` pixels
/// per row): those a flat page shows as its contents hold them, lit by the columns' lights where
/// `lit`; or all of a tile that shows the bare backdrop.
struct TileCopy {
    var rows: Range<Int>
    var source: UnsafeMutablePointer<UInt32>
    var stride: Int
    var lit: Bool
    /// Rows of the bare backdrop rather than of a page; under a shadow, darkened by it on the way.
    var isBackdrop = false
    var darkened = false
}

/// One render thread's buffers, allocated once (and grown when a scene has more pages).
final class ColumnScratch {
    /// Per page (each list `pageCapacity` long): the column's two source columns blended, with
    /// room for the sampler's window reads past the end; the shadows of the pages above blended
    /// for this column, and that as the kernels take it; this column's plan, the first source row
    /// its blend holds, whether it is darkened.
    private(set) var temps: UnsafeMutablePointer<UnsafeMutablePointer<UInt32>>
    private(set) var sources: UnsafeMutablePointer<UnsafeMutablePointer<UInt32>>
    private(set) var pageColumns: UnsafeMutablePointer<UnsafeMutablePointer<UInt16>>
    private(set) var pageShadows: UnsafeMutablePointer<UnsafeMutablePointer<folio_fold_shadow>>
    private(set) var plans: UnsafeMutablePointer<ColumnPlan>
    private(set) var lows: UnsafeMutablePointer<Int>
    /// Per page, the rows an opaque page above it hides in this column.
    private(set) var covered: UnsafeMutablePointer<Range<Int>>
    private(set) var darkened: UnsafeMutablePointer<Bool>
    private var pageCapacity = 0
    /// The backdrop's darkening (every shadow) blended for this column, and as the kernels take it.
    let backdropColumn: UnsafeMutablePointer<UInt16>
    let backdropShadow: UnsafeMutablePointer<folio_fold_shadow>
    /// The backdrop's darkening blended for each column of a tile (`shadowColumnLength` apart), for
    /// a tile of bare backdrop under a shadow.
    let tileShadow: UnsafeMutablePointer<UInt16>
    /// Two tiles of whole columns, column-major, and what writes the filled one out.
    let tiles: [UnsafeMutablePointer<UInt32>]
    let writer: TileWriter
    private let rows: Int
    private let gridHeight: Int
    private let cellShift: Int32, margin: Int32

    init(rows: Int, tileStride: Int, shadows: ShadowMap, kernels: FoldKernels) {
        self.rows = rows
        gridHeight = shadows.gridHeight
        cellShift = Int32(shadows.cellShift)
        margin = Int32(shadows.margin)
        backdropColumn = Self.shadowColumn(gridHeight)
        backdropShadow = Self.shadow(backdropColumn, cellShift: cellShift, margin: margin)
        let tileShadowLength = Self.shadowColumnLength(gridHeight) * PageRenderer.tileColumns
        tileShadow = .allocate(capacity: tileShadowLength)
        tileShadow.initialize(repeating: 0, count: tileShadowLength)
        temps = .allocate(capacity: 0)
        sources = .allocate(capacity: 0)
        pageColumns = .allocate(capacity: 0)
        pageShadows = .allocate(capacity: 0)
        plans = .allocate(capacity: 0)
        lows = .allocate(capacity: 0)
        covered = .allocate(capacity: 0)
        darkened = .allocate(capacity: 0)
        tiles = (0..<2).map { _ in alignedPixels(tileStride * PageRenderer.tileColumns) }
        writer = TileWriter(rows: rows, tileStride: tileStride, kernels: kernels)
    }

    deinit {
        releasePages()
        backdropColumn.deallocate()
        backdropShadow.deallocate()
        tileShadow.deallocate()
        tiles.forEach { free($0) }
    }

    /// Room for `count` pages.
    func reserve(pages count: Int) {
        guard count > pageCapacity else { return }
        releasePages()
        pageCapacity = count
        temps = .allocate(capacity: count)
        pageColumns = .allocate(capacity: count)
        pageShadows = .allocate(capacity: count)
        for k in 0..<count {
            // Cache-line aligned: the kernels' whole-vector stores then never straddle two lines.
            (temps + k).initialize(to: alignedPixels(rows + 80))
            let column = Self.shadowColumn(gridHeight)
            (pageColumns + k).initialize(to: column)
            (pageShadows + k).initialize(to: Self.shadow(column, cellShift: cellShift, margin: margin))
        }
        sources = .allocate(capacity: count)
        sources.initialize(from: temps, count: count)
        plans = .allocate(capacity: count)
        plans.initialize(repeating: ColumnPlan(), count: count)
        lows = .allocate(capacity: count)
        lows.initialize(repeating: 0, count: count)
        covered = .allocate(capacity: count)
        covered.initialize(repeating: 0..<0, count: count)
        darkened = .allocate(capacity: count)
        darkened.initialize(repeating: false, count: count)
    }

    private func releasePages() {
        for k in 0..<pageCapacity {
            free(temps[k])
            pageColumns[k].deallocate()
            pageShadows[k].deallocate()
        }
        temps.deallocate()
        sources.deallocate()
        pageColumns.deallocate()
        pageShadows.deallocate()
        plans.deallocate()
        lows.deallocate()
        covered.deallocate()
        darkened.deallocate()
    }

    /// A blended shadow column's length: the grid's rows and one more, for the kernels' reads past the last.
    static func shadowColumnLength(_ gridHeight: Int) -> Int { gridHeight + 1 }

    private static func shadowColumn(_ gridHeight: Int) -> UnsafeMutablePointer<UInt16> {
        let column = UnsafeMutablePointer<UInt16>.allocate(capacity: shadowColumnLength(gridHeight))
        column.initialize(repeating: 0, count: shadowColumnLength(gridHeight))
        return column
    }

    private static func shadow(_ column: UnsafeMutablePointer<UInt16>, cellShift: Int32, margin: Int32)
        -> UnsafeMutablePointer<folio_fold_shadow> {
        let shadow = UnsafeMutablePointer<folio_fold_shadow>.allocate(capacity: 1)
        shadow.initialize(to: folio_fold_shadow(darkening: column, cell_shift: cellShift, margin: margin))
        return shadow
    }
}

/// Zeroed pixels on a cache-line boundary.
private func alignedPixels(_ count: Int) -> UnsafeMutablePointer<UInt32> {
    guard let memory = aligned_alloc(64, (count * 4 + 63) & ~63) else { fatalError("out of memory for fold scratch") }
    let pixels = memory.bindMemory(to: UInt32.self, capacity: count)
    pixels.initialize(repeating: 0, count: count)
    return pixels
}

/// Writes a filled tile out to the frame 16 rows at a time (in rows of 16 pixels: whole cache
/// lines of the frame), a few steps at a time, keeping pace with the columns of the next tile.
final class TileWriter {
    static let rowsPerStep = 16
    private let rows: Int
    private let tileStride: Int
    private let kernels: FoldKernels
    private var tile: UnsafeMutablePointer<UInt32>?
    private var target: UnsafeMutablePointer<UInt32>?
    private var skip = 0..<0
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

    /// Takes `tile` (`columns` columns, all rows but those in `skip`, whole steps written elsewhere)
    /// to go out to `target` (its first pixel) and on.
    func start(tile: UnsafeMutablePointer<UInt32>, target: UnsafeMutablePointer<UInt32>, stride: Int, columns: Int,
               skip: Range<Int>) {
        self.tile = tile
        self.target = target
        self.skip = skip
        self.stride = stride
        self.columns = columns
        written = 0
    }

    /// Writes one more step if the tile is behind the next `columnsDone`'s share.
    @inline(__always) func pump(columnsDone: Int) {
        if written < steps && written * PageRenderer.tileColumns < steps * (columnsDone + 1) { writeNext() }
    }

    /// Writes steps until the tile has its share for `columnsDone` columns of the next tile.
    func catchUp(columnsDone: Int) {
        while written < steps && written * PageRenderer.tileColumns < steps * columnsDone { writeNext() }
    }

    func finish() {
        while written < steps { writeNext() }
    }

    private func writeNext() {
        guard let tile, let target else { return }
        let r = written * Self.rowsPerStep
        if !skip.contains(r) {
            kernels.writeTile(tile + r, Int32(tileStride), Int32(columns), Int32(min(Self.rowsPerStep, rows - r)),
                              target + r * stride, Int32(stride))
        }
        written += 1
    }
}

/// Hands non-Sendable state to the render threads, which touch disjoint columns only.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

extension LayerColor {
    /// The colour as an opaque 0xFFRRGGBB pixel (a backdrop shows no transparency).
    var opaqueARGB: UInt32 {
        func channel(_ v: Double) -> UInt32 { UInt32((min(max(v, 0), 1) * 255).rounded()) }
        return 0xFF00_0000 | channel(red) << 16 | channel(green) << 8 | channel(blue)
    }
}
