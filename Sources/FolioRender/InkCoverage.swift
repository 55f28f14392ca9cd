import CPixman
import FolioGeometry
import FolioPixels
#if canImport(Glibc)
import Glibc
#endif

/// The coverage of one stroke inside one region, built from convex pieces: one per segment of
/// the flattened stroke, each ending in a round cap or in a cut along the bisector of a gentle
/// joint.
///
/// pixman rasterises each piece as a stack of trapezoids into a scratch a8 image. Trapezoids that
/// share an edge split its samples exactly, and so do pieces that share a bisector cut: a run of
/// gently bending pieces adds up to the exact coverage of its ribbon, without seams. Runs are then
/// merged into the mask with `max`, which never exceeds full coverage and never darkens where
/// runs overlap (at their round joins, and wherever a stroke crosses or retraces itself). `max` is
/// short of the exact union only in pixels that two runs cover from different sides: where a
/// stroke's round join ends meet (a few percent), and where two parts of one stroke touch, which
/// leaves a faint line between them. The buffers are reused between strokes and only grow, so
/// drawing allocates nothing in the steady state.
final class InkCoverage {
    /// Points farther out than this (buffer pixels) are clipped off before they reach pixman's
    /// 16.16 fixed point; the box is fixed, so clipping never depends on the caller's clip.
    private static let safeBox = (min: -2048.0, max: 18432.0)
    private static let maximumRadius = 2048.0
    /// Largest distance between a round end and the true circle, in buffer pixels.
    private static let arcTolerance = 0.05
    /// Largest distance a mitred joint may stand out of the round join it replaces.
    private static let mitreTolerance = 0.05

    private var capacityWidth = 0, capacityHeight = 0, capacityStride = 0
    private var pieceBits: UnsafeMutablePointer<UInt8>?
    private var maskBits: UnsafeMutablePointer<UInt8>?
    private var pieceImage: OpaquePointer?
    private var maskImage: OpaquePointer?

    /// The region being drawn, in buffer pixels; the buffers' (0, 0) is its origin.
    private var region = PixelRect.empty
    /// What the mask holds coverage in, relative to `region`.
    private var dirty = PixelRect.empty

    private var radius = 0.0
    /// Unit offsets of a round end's vertices: (along the segment, across it), from −90° to +90°.
    private var arc: [(along: Double, across: Double)] = []
    /// The unit circle of the last disc (see `makeDisc`).
    private var disc: [Point] = []
    private var polygon: [pixman_point_fixed_t] = []
    /// Quads of the current run not rasterised yet, as one ribbon: its two sides, from the first
    /// quad's `a` and `d` on (see `addQuad`).
    private var ribbonSide: [pixman_point_fixed_t] = []
    private var ribbonOtherSide: [pixman_point_fixed_t] = []
    /// How y rises and falls along each side of the pending ribbon, kept as quads come so
    /// checking that the ribbon stays y-monotone costs the same for every quad.
    private var sideDescent = Descent(), otherSideDescent = Descent()
    /// What the pieces of the current run wrote into the piece buffer, and the box around it.
    private var runWritten: [PixelRect] = []
    private var runBounds = PixelRect.empty
    private var trapezoids: [pixman_trapezoid_t] = []

    private var solid: OpaquePointer?
    private var solidColor: UInt32 = 0
    /// Polygons rasterised so far: the work ink costs, which tests hold to the ink drawn.
    private(set) var rasterised = 0

    /// Most points a side of a pending ribbon holds, so checking that it stays y-monotone stays
    /// cheap; 2 rasterises every quad on its own.
    private let longestRibbon: Int

    init(longestRibbon: Int = 48) {
        self.longestRibbon = max(longestRibbon, 2)
    }

    deinit {
        for image in [pieceImage, maskImage, solid] { if let image { pixman_image_unref(image) } }
        free(pieceBits)
        free(maskBits)
    }

    /// Starts a stroke over `region` (buffer pixels) with round ends of `radius` buffer pixels.
    func begin(region: PixelRect, radius: Double) {
        reserve(width: region.width, height: region.height)
        self.region = region
        dirty = PixelRect.empty
        ribbonSide.removeAll(keepingCapacity: true)
        ribbonOtherSide.removeAll(keepingCapacity: true)
        let radius = min(radius, Self.maximumRadius)
        if radius != self.radius { makeArc(radius: radius) }
    }

    /// Starts over `region` from what `base` (a coverage begun over a larger region, never
    /// composited) holds there: its merged runs as the mask, its open run and pending ribbon as
    /// the run going on. Adding the rest of a stroke then gives what adding it all here would,
    /// at the cost of the region, not of what `base` took.
    func begin(region: PixelRect, radius: Double, over base: InkCoverage) {
        begin(region: region, radius: radius)
        guard let maskBits, let pieceBits, let baseMask = base.maskBits, let basePiece = base.pieceBits else { return }
        func copy(_ area: PixelRect, from source: UnsafeMutablePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>) -> PixelRect {
            let shared = PixelRect(x: area.x + base.region.x, y: area.y + base.region.y, width: area.width, height: area.height)
                .intersection(region)
            guard !shared.isEmpty else { return PixelRect.empty }
            for y in shared.y..<shared.maxY {
                memcpy(target + (y - region.y) * capacityStride + (shared.x - region.x),
                       source + (y - base.region.y) * base.capacityStride + (shared.x - base.region.x), shared.width)
            }
            return PixelRect(x: shared.x - region.x, y: shared.y - region.y, width: shared.width, height: shared.height)
        }
        dirty = copy(base.dirty, from: baseMask, to: maskBits)
        let open = copy(base.runBounds, from: basePiece, to: pieceBits)
        if !open.isEmpty {
            runWritten.append(open)
            runBounds = open
        }
        ribbonSide = base.ribbonSide
        ribbonOtherSide = base.ribbonOtherSide
        (sideDescent, otherSideDescent) = (base.sideDescent, base.otherSideDescent)
    }

    /// Forgets everything added since `begin` without painting it: the buffers are clear again.
    func discard() {
        ribbonSide.removeAll(keepingCapacity: true)
        ribbonOtherSide.removeAll(keepingCapacity: true)
        if let pieceBits {
            for written in runWritten {
                for y in written.y..<written.maxY { memset(pieceBits + y * capacityStride + written.x, 0, written.width) }
            }
        }
        runWritten.removeAll(keepingCapacity: true)
        runBounds = PixelRect.empty
        if let maskBits {
            for y in dirty.y..<dirty.maxY { memset(maskBits + y * capacityStride + dirty.x, 0, dirty.width) }
        }
        dirty = PixelRect.empty
    }

    /// Adds the capsule around the segment `a`–`b` (buffer pixels; `a == b` gives a disc).
    func addCapsule(from a: Point, to b: Point) {
        endRun()
        guard let (a, b) = Self.clipToSafeBox(a, b) else { return }
        addPiece(from: a, to: b, start: .cap, end: .cap)
        endRun()
    }

    /// Adds the ink around a polyline (buffer pixels, consecutive points distinct). `before` and
    /// `after` are the neighbouring points of the same stroke, when it goes on: a joint there is
    /// decided from them exactly as it is when the neighbour itself is drawn.
    ///
    /// Where the line bends gently, consecutive pieces are cut along the bisector of their joint,
    /// so they tile the ribbon exactly and are added in the piece buffer as one run: no joint
    /// shows in their edges. Where it bends sharply, the run ends with a round cap and the next
    /// starts with one; runs are merged by max like capsules, which makes the round join.
    func addPolyline(_ points: [Point], before: Point?, after: Point?) {
        guard points.count >= 2 else {
            endRun()
            if let p = points.first { addCapsule(from: p, to: p) }
            return
        }
        var start = Side.cap
        if let before, let joint = smoothJoint(before, points[0], points[1]) { start = joint }
        if case .cap = start { endRun() }
        for i in 0..<(points.count - 1) {
            let a = points[i], b = points[i + 1]
            guard Self.isSafe(a), Self.isSafe(b) else {
                addCapsule(from: a, to: b)
                start = .cap
                continue
            }
            let next = i + 2 < points.count ? points[i + 2] : after
            let end = next.flatMap { smoothJoint(a, b, $0) } ?? .cap
            let reach = radius + 1
            if min(a.x, b.x) - reach < Double(region.maxX), max(a.x, b.x) + reach > Double(region.x),
               min(a.y, b.y) - reach < Double(region.maxY), max(a.y, b.y) + reach > Double(region.y) {
                addPiece(from: a, to: b, start: start, end: end)
            }
            if case .cap = end { endRun() }
            start = end
        }
    }

    /// Adds a convex quadrilateral (buffer pixels) of a variable-width ribbon: `continuesRun` adds
    /// it to the run before it (they share an edge exactly), otherwise it starts a new run.
    ///
    /// Quads that follow on from each other are rasterised together, as the one polygon their
    /// outer edges make, while it stays y-monotone. Each trapezoid costs pixman every sample row
    /// it spans, so a ribbon of thin quads costs about its height once instead of once per quad.
    /// pixman samples an edge the same whichever trapezoid it bounds, so the coverage is the
    /// quads' own (InkRibbonTests: all but one pixel of 450 random renderings, which is one
    /// sample of 255 apart).
    func addQuad(_ a: Point, _ b: Point, _ c: Point, _ d: Point, continuesRun: Bool) {
        if !continuesRun { endRun() }
        guard Self.isSafe(a), Self.isSafe(b), Self.isSafe(c), Self.isSafe(d) else { return flushRibbon() }
        let a = Self.fixed(a), b = Self.fixed(b), c = Self.fixed(c), d = Self.fixed(d)
        if continuesRun, ribbonSide.count < longestRibbon, let lastA = ribbonSide.last, let lastD = ribbonOtherSide.last,
           let firstA = ribbonSide.first, let firstD = ribbonOtherSide.first,
           lastA.x == a.x, lastA.y == a.y, lastD.x == d.x, lastD.y == d.y {
            var side = sideDescent, otherSide = otherSideDescent
            side.add(from: a, to: b)
            otherSide.add(from: d, to: c)
            // Round the polygon: one side, across its new end, the other side backwards, home.
            var around = side
            around.add(from: b, to: c)
            around.append(otherSide.reversed)
            around.add(from: firstD, to: firstA)
            if around.turnsAround <= 2 {
                ribbonSide.append(b)
                ribbonOtherSide.append(c)
                (sideDescent, otherSideDescent) = (side, otherSide)
                return
            }
        }
        flushRibbon()
        ribbonSide.append(a)
        ribbonSide.append(b)
        ribbonOtherSide.append(d)
        ribbonOtherSide.append(c)
        sideDescent = Descent()
        sideDescent.add(from: a, to: b)
        otherSideDescent = Descent()
        otherSideDescent.add(from: d, to: c)
    }

    /// Rasterises the pending ribbon (added to the run).
    private func flushRibbon() {
        guard !ribbonSide.isEmpty else { return }
        polygon.removeAll(keepingCapacity: true)
        polygon.append(contentsOf: ribbonSide)
        polygon.append(contentsOf: ribbonOtherSide.reversed())
        ribbonSide.removeAll(keepingCapacity: true)
        ribbonOtherSide.removeAll(keepingCapacity: true)
        rasterizePolygon()
    }

    /// How y goes along a chain of edges: whether its first and last edges that move in y go
    /// down, and how often it turns from falling to rising or back. A polygon is y-monotone when,
    /// going round it, y turns at most twice.
    private struct Descent {
        var first: Bool?, last: Bool?
        var turns = 0

        /// One more edge at the end of the chain.
        mutating func add(from p: pixman_point_fixed_t, to q: pixman_point_fixed_t) {
            guard q.y != p.y else { return }
            let down = q.y > p.y
            if let last, last != down { turns += 1 }
            if first == nil { first = down }
            last = down
        }

        /// Another chain after this one.
        mutating func append(_ other: Descent) {
            if let last, let next = other.first, last != next { turns += 1 }
            turns += other.turns
            first = first ?? other.first
            last = other.last ?? last
        }

        /// The chain walked backwards: every rise a fall, in reverse order.
        var reversed: Descent {
            Descent(first: last.map { !$0 }, last: first.map { !$0 }, turns: turns)
        }

        /// The turns of the chain closed into a loop (its end back to its start).
        var turnsAround: Int {
            if let first, let last, first != last { return turns + 1 }
            return turns
        }
    }

    /// Adds a disc of its own radius (buffer pixels), merged by max like a capsule.
    func addDisc(centre: Point, radius: Double) {
        endRun()
        guard Self.isSafe(centre), radius > 0, radius.isFinite else { return }
        let radius = min(radius, Self.maximumRadius)
        let ratio = max(-1, 1 - Self.arcTolerance / radius)
        let steps = max(6, Int((Double.pi / acos(ratio)).rounded(.up)))
        // An even count: its vertices pair up at the same heights, so pixman fills the disc
        // with one trapezoid per pair instead of one per vertex.
        makeDisc(steps: steps + steps % 2)
        polygon.removeAll(keepingCapacity: true)
        for unit in disc { polygon.append(Self.fixed(centre + unit * radius)) }
        rasterizePolygon()
        endRun()
    }

    /// The unit circle's vertices for a disc of `steps` steps, kept while the count stays: a
    /// pen draws a disc at its live end every frame, and cos and sin would cost it each time.
    /// Each vertex in the left half mirrors one in the right half exactly, at the same height.
    private func makeDisc(steps: Int) {
        guard disc.count != steps else { return }
        disc.removeAll(keepingCapacity: true)
        for k in 0..<steps {
            let mirror = (steps / 2 - k + steps) % steps
            if mirror < k {
                disc.append(Point(x: -disc[mirror].x, y: disc[mirror].y))
            } else {
                let angle = 2 * Double.pi * Double(k) / Double(steps)
                disc.append(Point(x: cos(angle), y: sin(angle)))
            }
        }
    }

    /// Merges the pieces added since the last round cap into the mask.
    func endRun() {
        flushRibbon()
        for written in runWritten { merge(written: written) }
        runWritten.removeAll(keepingCapacity: true)
        runBounds = PixelRect.empty
    }

    /// How a piece ends: a round cap, or the two points where its edges meet the joint's bisector.
    private enum Side {
        case cap
        case joint(plus: pixman_point_fixed_t, minus: pixman_point_fixed_t)
    }

    /// The bisector cut at `b` between `a`–`b` and `b`–`c`, when the bend there is gentle (see
    /// `Mitre`) and both pieces head into the same quarter of the compass, so a run never comes
    /// back over itself.
    private func smoothJoint(_ a: Point, _ b: Point, _ c: Point) -> Side? {
        guard Self.isSafe(a), Self.isSafe(b), Self.isSafe(c) else { return nil }
        let d1 = b - a, d2 = c - b
        let l1 = (d1.x * d1.x + d1.y * d1.y).squareRoot(), l2 = (d2.x * d2.x + d2.y * d2.y).squareRoot()
        guard l1 > 0, l2 > 0, Mitre.quarter(d1) == Mitre.quarter(d2) else { return nil }
        let n1 = Point(x: -d1.y / l1, y: d1.x / l1), n2 = Point(x: -d2.y / l2, y: d2.x / l2)
        guard let mitre = Mitre.offset(n1, n2, radius: radius, tolerance: Self.mitreTolerance, shorterPiece: min(l1, l2)) else {
            return nil
        }
        return .joint(plus: Self.fixed(b + mitre), minus: Self.fixed(b - mitre))
    }

    /// Rasterises the piece `a`–`b` with the given ends into the piece buffer (added to the run).
    private func addPiece(from a: Point, to b: Point, start: Side, end: Side) {
        flushRibbon()
        let d = b - a
        let length = (d.x * d.x + d.y * d.y).squareRoot()
        // Direction along the segment and its normal; a disc has no direction, any will do.
        let u = length > 1e-9 ? Point(x: d.x / length, y: d.y / length) : Point(x: 1, y: 0)
        let n = Point(x: -u.y, y: u.x)
        polygon.removeAll(keepingCapacity: true)
        switch end {
        case .cap:
            for (along, across) in arc { polygon.append(Self.fixed(b + (u * along + n * across) * radius)) }
        case let .joint(plus, minus):
            polygon.append(minus)
            polygon.append(plus)
        }
        switch start {
        case .cap:
            for (along, across) in arc { polygon.append(Self.fixed(a - (u * along + n * across) * radius)) }
        case let .joint(plus, minus):
            polygon.append(plus)
            polygon.append(minus)
        }
        rasterizePolygon()
    }

    /// Paints `color` (0xRRGGBB, opaque) through the coverage onto `target`, within the region.
    func composite(color: UInt32, onto target: Bitmap) {
        endRun()
        guard !dirty.isEmpty, let maskImage, let maskBits else { return }
        let solid = solidImage(color: color)
        pixman_image_composite32(PIXMAN_OP_OVER, solid, maskImage, target.image,
                                 0, 0, Int32(dirty.x), Int32(dirty.y),
                                 Int32(region.x + dirty.x), Int32(region.y + dirty.y),
                                 Int32(dirty.width), Int32(dirty.height))
        for y in dirty.y..<dirty.maxY {
            memset(maskBits + y * capacityStride + dirty.x, 0, dirty.width)
        }
        dirty = PixelRect.empty
    }

    // MARK: - Capsules to coverage

    /// Rasterises the convex `polygon` into the piece buffer, adding to what the run has there.
    private func rasterizePolygon() {
        guard let pieceImage, polygon.count >= 3 else { return }
        var minX = Int32.max, minY = Int32.max, maxX = Int32.min, maxY = Int32.min
        var top = 0, bottom = 0
        var twiceArea: Int64 = 0
        for (i, p) in polygon.enumerated() {
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            if p.y < polygon[top].y { top = i }
            if p.y > polygon[bottom].y { bottom = i }
            minY = min(minY, p.y); maxY = max(maxY, p.y)
            let q = polygon[(i + 1) % polygon.count]
            twiceArea += Int64(p.x) * Int64(q.y) - Int64(q.x) * Int64(p.y)
        }
        guard twiceArea != 0 else { return }
        rasterised += 1
        // Stack of trapezoids between consecutive vertex heights. Walking forward from the top
        // follows the right-hand side when the polygon turns clockwise on screen (y down).
        let count = polygon.count
        let forwardIsRight = twiceArea > 0
        var forward = top, backward = top
        var y = polygon[top].y
        trapezoids.removeAll(keepingCapacity: true)
        while true {
            while forward != bottom && polygon[(forward + 1) % count].y <= y { forward = (forward + 1) % count }
            while backward != bottom && polygon[(backward + count - 1) % count].y <= y {
                backward = (backward + count - 1) % count
            }
            if forward == bottom || backward == bottom { break }
            let forwardEnd = (forward + 1) % count, backwardEnd = (backward + count - 1) % count
            let nextY = min(polygon[forwardEnd].y, polygon[backwardEnd].y)
            let forwardEdge = pixman_line_fixed_t(p1: polygon[forward], p2: polygon[forwardEnd])
            let backwardEdge = pixman_line_fixed_t(p1: polygon[backward], p2: polygon[backwardEnd])
            trapezoids.append(pixman_trapezoid_t(
                top: y, bottom: nextY,
                left: forwardIsRight ? backwardEdge : forwardEdge,
                right: forwardIsRight ? forwardEdge : backwardEdge))
            y = nextY
        }
        let offsetX = Int32(-region.x), offsetY = Int32(-region.y)
        for i in trapezoids.indices {
            withUnsafePointer(to: &trapezoids[i]) { pixman_rasterize_trapezoid(pieceImage, $0, offsetX, offsetY) }
        }
        // What pixman may have written: the polygon's pixels, within the buffers.
        let written = PixelRect(x: Int(minX >> 16) - region.x - 1, y: Int(minY >> 16) - region.y - 1,
                                width: Int((maxX - minX) >> 16) + 3, height: Int((maxY - minY) >> 16) + 3)
            .intersection(PixelRect(x: 0, y: 0, width: capacityWidth, height: capacityHeight))
        if !written.isEmpty {
            runWritten.append(written)
            runBounds = runBounds.union(written)
        }
    }

    /// mask = max(mask, piece) where the region is, and the piece buffer back to zero. The
    /// rectangles of one run may overlap: a pixel merged once reads zero afterwards.
    private func merge(written: PixelRect) {
        guard let pieceBits, let maskBits else { return }
        let merged = written.intersection(PixelRect(x: 0, y: 0, width: region.width, height: region.height))
        for y in written.y..<written.maxY {
            let row = y * capacityStride
            if y >= merged.y && y < merged.maxY {
                let piece = pieceBits + row, mask = maskBits + row
                // An unconditional store, so the loop vectorises.
                for x in merged.x..<merged.maxX { mask[x] = max(mask[x], piece[x]) }
            }
            memset(pieceBits + row + written.x, 0, written.width)
        }
        dirty = dirty.union(merged)
    }

    // MARK: - Set-up

    private func makeArc(radius: Double) {
        self.radius = radius
        // Steps over half a circle so the polygon stays within arcTolerance of the circle.
        let ratio = max(-1, 1 - Self.arcTolerance / max(radius, 1e-9))
        let steps = max(2, Int((Double.pi / (2 * acos(ratio))).rounded(.up)))
        arc = (0...steps).map { k in
            let angle = Double.pi * Double(k) / Double(steps)
            return (along: sin(angle), across: -cos(angle))
        }
    }

    private func reserve(width: Int, height: Int) {
        guard width > capacityWidth || height > capacityHeight else { return }
        for image in [pieceImage, maskImage] { if let image { pixman_image_unref(image) } }
        free(pieceBits)
        free(maskBits)
        capacityWidth = max(width, capacityWidth)
        capacityHeight = max(height, capacityHeight)
        capacityStride = (capacityWidth + 3) & ~3
        pieceBits = Self.zeroedBuffer(count: capacityStride * capacityHeight)
        maskBits = Self.zeroedBuffer(count: capacityStride * capacityHeight)
        pieceImage = Self.a8Image(pieceBits, width: capacityWidth, height: capacityHeight, stride: capacityStride)
        maskImage = Self.a8Image(maskBits, width: capacityWidth, height: capacityHeight, stride: capacityStride)
    }

    private static func zeroedBuffer(count: Int) -> UnsafeMutablePointer<UInt8> {
        guard let memory = calloc(count, 1) else { fatalError("out of memory for a \(count)-byte ink mask") }
        return memory.assumingMemoryBound(to: UInt8.self)
    }

    private static func a8Image(_ bits: UnsafeMutablePointer<UInt8>?, width: Int, height: Int, stride: Int) -> OpaquePointer {
        let words = UnsafeMutableRawPointer(bits)?.assumingMemoryBound(to: UInt32.self)
        guard let image = pixman_image_create_bits_no_clear(PIXMAN_a8, Int32(width), Int32(height), words, Int32(stride))
        else { fatalError("pixman could not wrap a \(width)x\(height) ink mask") }
        return image
    }

    private func solidImage(color: UInt32) -> OpaquePointer {
        if let solid, solidColor == color { return solid }
        if let solid { pixman_image_unref(solid) }
        var pixmanColor = pixman_color_t(0xFF00_0000 | (color & 0xFF_FFFF))
        guard let image = pixman_image_create_solid_fill(&pixmanColor) else { fatalError("pixman could not make a solid colour") }
        solid = image
        solidColor = color
        return image
    }

    // MARK: - Fixed point

    private static func fixed(_ p: Point) -> pixman_point_fixed_t {
        pixman_point_fixed_t(x: pixman_fixed_t((p.x * 65536).rounded()), y: pixman_fixed_t((p.y * 65536).rounded()))
    }

    private static func isSafe(_ p: Point) -> Bool {
        p.x >= safeBox.min && p.x <= safeBox.max && p.y >= safeBox.min && p.y <= safeBox.max
    }

    /// The part of `a`–`b` inside the safe box (Liang–Barsky); nil when none is, or a point is not finite.
    private static func clipToSafeBox(_ a: Point, _ b: Point) -> (Point, Point)? {
        guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { return nil }
        if isSafe(a), isSafe(b) { return (a, b) }
        let (lo, hi) = safeBox
        let d = b - a
        var t0 = 0.0, t1 = 1.0
        for (p, q) in [(-d.x, a.x - lo), (d.x, hi - a.x), (-d.y, a.y - lo), (d.y, hi - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let t = q / p
                if p < 0 { t0 = max(t0, t) } else { t1 = min(t1, t) }
            }
        }
        guard t0 <= t1 else { return nil }
        return (a + d * t0, a + d * t1)
    }
}
