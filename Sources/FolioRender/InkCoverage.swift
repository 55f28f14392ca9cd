import CPixman
import FolioGeometry
#if canImport(Glibc)
import Glibc
#endif

/// The coverage of one stroke inside one region, built from capsules (a segment with round ends).
///
/// pixman rasterises each capsule, a convex polygon, as a stack of trapezoids into a scratch
/// a8 image: trapezoids that share an edge split its samples exactly, so a capsule's inside is
/// fully covered without seams. Capsules are then merged into the mask with `max`, which can
/// never exceed full coverage and never darkens where consecutive capsules overlap (at every
/// joint, and wherever a stroke crosses itself). The buffers are reused between strokes and only
/// grow, so drawing allocates nothing in the steady state.
final class InkCoverage {
    /// Points farther out than this (buffer pixels) are clipped off before they reach pixman's
    /// 16.16 fixed point; the box is fixed, so clipping never depends on the caller's clip.
    private static let safeBox = (min: -2048.0, max: 18432.0)
    private static let maximumRadius = 2048.0
    /// Largest distance between a round end and the true circle, in buffer pixels.
    private static let arcTolerance = 0.05

    private var capacityWidth = 0, capacityHeight = 0, capacityStride = 0
    private var pieceBits: UnsafeMutablePointer<UInt8>?
    private var maskBits: UnsafeMutablePointer<UInt8>?
    private var pieceImage: OpaquePointer?
    private var maskImage: OpaquePointer?

    /// The region being drawn, in buffer pixels; the buffers' (0, 0) is its origin.
    private var region = PixelRect(x: 0, y: 0, width: 0, height: 0)
    var currentRegion: PixelRect { region }
    /// What the mask holds coverage in, relative to `region`.
    private var dirty = PixelRect(x: 0, y: 0, width: 0, height: 0)

    private var radius = 0.0
    /// Unit offsets of a round end's vertices: (along the segment, across it), from −90° to +90°.
    private var arc: [(along: Double, across: Double)] = []
    private var polygon: [pixman_point_fixed_t] = []
    private var trapezoids: [pixman_trapezoid_t] = []

    private var solid: OpaquePointer?
    private var solidColor: UInt32 = 0

    init() {}

    deinit {
        for image in [pieceImage, maskImage, solid] { if let image { pixman_image_unref(image) } }
        free(pieceBits)
        free(maskBits)
    }

    /// Starts a stroke over `region` (buffer pixels) with round ends of `radius` buffer pixels.
    func begin(region: PixelRect, radius: Double) {
        reserve(width: region.width, height: region.height)
        self.region = region
        dirty = PixelRect(x: 0, y: 0, width: 0, height: 0)
        let radius = min(radius, Self.maximumRadius)
        if radius != self.radius { makeArc(radius: radius) }
    }

    /// Adds the capsule around the segment `a`–`b` (buffer pixels; `a == b` gives a disc).
    func addCapsule(from a: Point, to b: Point) {
        guard let (a, b) = Self.clipToSafeBox(a, b) else { return }
        let d = b - a
        let length = (d.x * d.x + d.y * d.y).squareRoot()
        // Direction along the segment and its normal; a disc has no direction, any will do.
        let u = length > 1e-9 ? Point(x: d.x / length, y: d.y / length) : Point(x: 1, y: 0)
        let n = Point(x: -u.y, y: u.x)
        polygon.removeAll(keepingCapacity: true)
        for (along, across) in arc {
            polygon.append(Self.fixed(b + (u * along + n * across) * radius))
        }
        for (along, across) in arc {
            polygon.append(Self.fixed(a - (u * along + n * across) * radius))
        }
        rasterizePolygon()
    }

    /// Paints `color` (0xRRGGBB, opaque) through the coverage onto `target`, within the region.
    func composite(color: UInt32, onto target: Bitmap) {
        guard !dirty.isEmpty, let maskImage, let maskBits else { return }
        let solid = solidImage(color: color)
        pixman_image_composite32(PIXMAN_OP_OVER, solid, maskImage, target.image,
                                 0, 0, Int32(dirty.x), Int32(dirty.y),
                                 Int32(region.x + dirty.x), Int32(region.y + dirty.y),
                                 Int32(dirty.width), Int32(dirty.height))
        for y in dirty.y..<dirty.maxY {
            memset(maskBits + y * capacityStride + dirty.x, 0, dirty.width)
        }
        dirty = PixelRect(x: 0, y: 0, width: 0, height: 0)
    }

    // MARK: - Capsules to coverage

    /// Rasterises the convex `polygon` into the piece buffer, then merges it into the mask.
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
        mergePiece(written: written)
    }

    /// mask = max(mask, piece) where the region is, and the piece buffer back to zero.
    private func mergePiece(written: PixelRect) {
        guard !written.isEmpty, let pieceBits, let maskBits else { return }
        let merged = written.intersection(PixelRect(x: 0, y: 0, width: region.width, height: region.height))
        for y in written.y..<written.maxY {
            let row = y * capacityStride
            if y >= merged.y && y < merged.maxY {
                let piece = pieceBits + row, mask = maskBits + row
                for x in merged.x..<merged.maxX where piece[x] > mask[x] { mask[x] = piece[x] }
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

    /// The part of `a`–`b` inside the safe box (Liang–Barsky); nil when none is, or a point is not finite.
    private static func clipToSafeBox(_ a: Point, _ b: Point) -> (Point, Point)? {
        guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { return nil }
        let (lo, hi) = safeBox
        if a.x >= lo, a.x <= hi, a.y >= lo, a.y <= hi, b.x >= lo, b.x <= hi, b.y >= lo, b.y <= hi { return (a, b) }
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
