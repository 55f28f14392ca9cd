import CPageKernels

extension PageRenderer {
    /// How many columns ahead a column asks for the plans: about an L3 fetch's worth of columns
    /// and more, and not so far that the lines leave L1 before their column.
    static let plansAhead = 4

    /// One screen column: what each page shows there, shadows, backdrop, composited in the
    /// painter's order. `out[y]` receives row y (a column of the tile); rows in `skip` are left out.
    @_optimize(speed)
    func renderColumn(_ x: Int, frame: FrameSetup, scratch s: ColumnScratch, into out: UnsafeMutablePointer<UInt32>,
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
}
