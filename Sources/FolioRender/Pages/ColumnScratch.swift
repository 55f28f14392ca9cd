import CPageKernels
#if canImport(Glibc)
import Glibc
#endif

/// One render thread's buffers, allocated once (and grown when a scene has more pages).
final class ColumnScratch {
    /// Per page (each list `pageCapacity` long): the column's two source columns blended, with
    /// room for the sampler's window reads past the end; the shadows of the pages above blended
    /// for this column, and that as the kernels take it; this column's plan, the first source row
    /// its blend holds, whether it is darkened.
    private(set) var temps: UnsafeMutablePointer<UnsafeMutablePointer<UInt32>>
    private(set) var sources: UnsafeMutablePointer<UnsafeMutablePointer<UInt32>>
    private(set) var pageColumns: UnsafeMutablePointer<UnsafeMutablePointer<UInt16>>
    private(set) var pageShadows: UnsafeMutablePointer<UnsafeMutablePointer<folio_page_shadow>>
    private(set) var plans: UnsafeMutablePointer<ColumnPlan>
    private(set) var lows: UnsafeMutablePointer<Int>
    /// Per page, the rows an opaque page above it hides in this column.
    private(set) var covered: UnsafeMutablePointer<Range<Int>>
    private(set) var darkened: UnsafeMutablePointer<Bool>
    private var pageCapacity = 0
    /// The backdrop's darkening (every shadow) blended for this column, and as the kernels take it.
    let backdropColumn: UnsafeMutablePointer<UInt16>
    let backdropShadow: UnsafeMutablePointer<folio_page_shadow>
    /// The backdrop's darkening blended for each column of a tile (`shadowColumnLength` apart), for
    /// a tile of bare backdrop under a shadow.
    let tileShadow: UnsafeMutablePointer<UInt16>
    /// Two tiles of whole columns, column-major, and what writes the filled one out.
    let tiles: [UnsafeMutablePointer<UInt32>]
    let writer: TileWriter
    private let rows: Int
    private let gridHeight: Int
    private let cellShift: Int32, margin: Int32

    init(rows: Int, tileStride: Int, shadows: ShadowMap, kernels: PageKernels) {
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
        -> UnsafeMutablePointer<folio_page_shadow> {
        let shadow = UnsafeMutablePointer<folio_page_shadow>.allocate(capacity: 1)
        shadow.initialize(to: folio_page_shadow(darkening: column, cell_shift: cellShift, margin: margin))
        return shadow
    }
}

/// Zeroed pixels on a cache-line boundary.
private func alignedPixels(_ count: Int) -> UnsafeMutablePointer<UInt32> {
    guard let memory = aligned_alloc(64, (count * 4 + 63) & ~63) else { fatalError("out of memory for page scratch") }
    let pixels = memory.bindMemory(to: UInt32.self, capacity: count)
    pixels.initialize(repeating: 0, count: count)
    return pixels
}
