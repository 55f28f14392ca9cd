import FolioLayers
import FolioPixels

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
/// resampled linearly — two taps per pixel — by vector kernels (`PageKernels`). Columns are drawn
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
    /// The back of a page turn's leaf, composed as its scenes are drawn (made on the first).
    var seeThrough: SeeThrough?
    /// Light that reaches a page whatever its angle (the ambient term: no page goes fully dark).
    public static let ambientLight = 0.5

    /// The pages as last prepared, in drawing order.
    var pages: [PreparedPage] = []
    /// The page layers found in the tree this frame (reused: no allocation per frame).
    var found: [(layer: Layer, contents: Bitmap)] = []
    /// The backdrop image (the root's contents), column-major, and which bitmap it was taken from.
    var backdropImage: (source: ObjectIdentifier, columns: UnsafeMutablePointer<UInt32>)?
    /// The backdrop texture's tile, column-major (its column c at `c * pixelHeight`, shown in the
    /// screen columns x ≡ c modulo the period): the columns are read top to bottom like
    /// everything else here; and as rows, for tiles that show it bare. Made on first use.
    var texture: (columns: UnsafeMutablePointer<UInt32>, rows: Bitmap)?
    /// A frame-wide row of the flat backdrop colour (and that colour), for tiles that show it bare.
    var flatRow: (colour: UInt32, pixels: UnsafeMutablePointer<UInt32>)?
    let texturePeriod: Int
    let shadows: ShadowMap
    /// Per buffer row (and column: the grid is square), the shadow grid cell before the pixel's
    /// centre and the next cell's weight (0…255).
    let rowCell: UnsafeMutablePointer<Int32>
    let rowWeight: UnsafeMutablePointer<UInt16>
    let kernels: PageKernels
    var scratch: [ColumnScratch]
    var geometry: [PageGeometry] = []
    /// Per page, what the column kernels read this frame (grown with the scene, never per frame).
    private var setups: UnsafeMutablePointer<PageSetup>
    private var setupCapacity = 0
    /// Columns per tile: whole columns are drawn into a column-major tile (contiguous writes), then
    /// written out row by row (whole cache lines).
    static let tileColumns = 32
    /// Pixels per tile column: the height rounded up to whole transposed blocks.
    let tileStride: Int
    /// Per tile, the rows a flat page shows as they are, this frame (each thread sets its tiles').
    let copies: UnsafeMutablePointer<TileCopy?>
    /// Per screen column, the light (0…256) of the flat page its copied rows show.
    let columnLights: UnsafeMutablePointer<UInt16>
    /// Whether those rows, and the rows of tiles that show the bare backdrop, are copied rather
    /// than drawn in columns (tests turn it off to hold the copies against the columns, which
    /// would give the same bytes).
    var copiesRows = true
    /// How many column plans the last frame made (pages that did not move keep theirs).
    var columnPlansMade = 0

    public init(pixelWidth: Int, pixelHeight: Int, scale: Double = 1, kernels: PageKernels = .best) {
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
        let cells = Self.gridCells(count: max(pixelWidth, pixelHeight), shadows: shadows)
        rowCell = cells.cell
        rowWeight = cells.weight
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
    var backBlurRadius: Int { max(1, Int((1.5 * scale).rounded())) }

    /// Takes the pages' contents from the tree under `root`: masks the rounded corners in,
    /// transposes, adds the borders; and the backdrop image, if the root has one. Once per gesture
    /// (or when contents change); back faces follow lazily.
    public func prepare(_ root: Layer) {
        collectPages(root)
        load(onlyChanged: false)
        prepareBackdrop(root)
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
        let (backdrop, backdropRows) = frameBackdrop(root, options: options)
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
        let frame = FrameSetup(
            target: target.pixels.assumingMemoryBound(to: UInt32.self), targetStride: target.stride / 4,
            backdrop: backdrop, backdropRows: backdropRows, shadows: options.shadows && !pages.isEmpty, pages: setups,
            pageCount: pages.count)
        renderTiles(frame, threads: options.threads)
    }

    /// The prepared image a page samples (tests compare the sampler with an exact reference on it).
    func pageImage(index: Int, back: Bool) -> PageImage {
        let page = pages[index]
        if back && !page.backReady { page.loadBack(blurRadius: backBlurRadius) }
        return back ? page.back : page.front
    }
}
