extension PageRenderer {
    /// Per buffer row (and column: the grid is square), the shadow grid cell before the pixel's
    /// centre and the next cell's weight (0…255), for `count` rows.
    static func gridCells(count: Int, shadows: ShadowMap) -> (cell: UnsafeMutablePointer<Int32>, weight: UnsafeMutablePointer<UInt16>) {
        let cell = UnsafeMutablePointer<Int32>.allocate(capacity: count)
        let weight = UnsafeMutablePointer<UInt16>.allocate(capacity: count)
        for y in 0..<count {
            let g = (Double(y) + 0.5) / Double(shadows.cell) - 0.5 + Double(shadows.margin)
            let g0 = g.rounded(.down)
            cell[y] = Int32(g0)
            weight[y] = UInt16(((g - g0) * 256).rounded(.down))
        }
        return (cell, weight)
    }

    /// Whether the shadow darkening `map` (a page's by the pages above, or the backdrop's) is
    /// anywhere in screen columns `columns`: every grid value a pixel there blends from (two grid
    /// columns, two grid rows) is looked at.
    func isShaded(_ map: UnsafeMutablePointer<UInt16>?, columns: Range<Int>) -> Bool {
        guard let map else { return false }
        let h = shadows.gridHeight
        let lo = Int(rowCell[0]), hi = Int(rowCell[pixelHeight - 1]) + 1
        for g in Int(rowCell[columns.lowerBound])...(Int(rowCell[columns.upperBound - 1]) + 1) {
            let column = map + g * h
            for y in lo...hi where column[y] != 0 { return true }
        }
        return false
    }

    /// A shadow grid's darkening at one pixel, 0…256 (only page edges need it, so no column cache):
    /// the grid read bilinearly through the row tables, which serve columns too.
    @inline(__always)
    func gridShadow(_ map: UnsafeMutablePointer<UInt16>, x: Int, y: Int) -> UInt64 {
        let h = shadows.gridHeight
        let gx = Int(rowCell[x]), gy = Int(rowCell[y]), wx = UInt64(rowWeight[x]), wy = UInt64(rowWeight[y])
        let top = UInt64(map[gx * h + gy]) * (256 - wx) + UInt64(map[(gx + 1) * h + gy]) * wx
        let bottom = UInt64(map[gx * h + gy + 1]) * (256 - wx) + UInt64(map[(gx + 1) * h + gy + 1]) * wx
        return (top * (256 - wy) + bottom * wy + (1 << (15 + ShadowMap.levelShift))) >> (16 + ShadowMap.levelShift)
    }

    /// The shadow grids blended horizontally for column x: the backdrop's (every shadow), and each
    /// page's in this column that pages above shade. Says whether any darkening is left there.
    @_optimize(speed)
    func loadShadowColumns(_ x: Int, frame: FrameSetup, scratch s: ColumnScratch) -> Bool {
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
    func blendShadowColumn(_ map: UnsafeMutablePointer<UInt16>, x: Int, into column: UnsafeMutablePointer<UInt16>) -> Bool {
        // The grid's columns share the rows' spacing and margin: the row tables serve columns too.
        let h = shadows.gridHeight, g0 = Int(rowCell[x])
        let lo = Int(rowCell[0]), hi = Int(rowCell[pixelHeight - 1]) + 3
        return kernels.blendGrid(map + g0 * h + lo, map + (g0 + 1) * h + lo, Int32(hi - lo + 1), UInt32(rowWeight[x]), column + lo) != 0
    }
}
