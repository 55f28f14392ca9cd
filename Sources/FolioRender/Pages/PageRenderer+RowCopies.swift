extension PageRenderer {
    /// Which rows of each tile go to the frame as row copies (none when `copiesRows` is off), and
    /// those rows written, before any tile's columns: the columns and the tiles skip them.
    @_optimize(speed)
    func writeRowCopies(_ groups: Range<Int>, frame: FrameSetup, scratch: ColumnScratch) {
        let copies = self.copies
        for g in groups {
            let x0 = g * Self.tileColumns
            let columns = x0..<min(pixelWidth, x0 + Self.tileColumns)
            copies[g] = copiesRows ? flatRows(columns, frame: frame) ?? bareBackdrop(columns, frame: frame) : nil
        }
        // Neighbouring tiles with the same rows of one source as one copy:
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
