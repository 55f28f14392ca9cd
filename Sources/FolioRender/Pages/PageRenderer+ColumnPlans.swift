import FolioGeometry

extension PageRenderer {
    /// Each page's transform, light and shadow as they are on screen at `time`.
    func updateGeometry(at time: Double?) {
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
            geometry.append(PageGeometry(
                transform: m, bounds: layer.bounds, contentsRect: layer.contentsRect,
                shadowTransform: caster?.transformToRoot(at: time) ?? m,
                shadowPath: caster?.shadowPath.map { $0.offsetBy(dx: caster?.shadowOffset.x ?? 0, dy: caster?.shadowOffset.y ?? 0) },
                shadowOpacity: shadowOpacity, facesAway: facesAway, isHidden: hidden, normalX: normal.x,
                light: light, shade: UInt64((light * 256).rounded()), shading: layer.shading, spineOnRight: layer.spineOnRight))
        }
    }

    /// Page `index` as this frame sees it; its column plans are made again only where its geometry
    /// or its columns changed since the last frame.
    func pageFrame(_ index: Int) -> PageFrame {
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
    var geometry: PageGeometry
    var image: PageImage
    /// Per screen column, what the page shows there this frame.
    var plans: UnsafeMutablePointer<ColumnPlan>
    var columns: Range<Int>
    /// The outer edge's screen x in buffer pixels, and whether it lies left of the spine.
    var outerX: Double
    var outerIsLeft: Bool
}
