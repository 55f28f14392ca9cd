import FolioGeometry
import FolioSketchbook

/// Paints strokes with pixman: antialiased, seam-free, round caps and joins; a path that
/// never moves paints a dot of the ink's width.
///
/// A stroke is flattened into line segments and each segment becomes a capsule (a segment with
/// round ends, which gives the round caps and joins). Their coverage is merged into one mask
/// (see `InkCoverage`) and the colour is painted through it once, so the stroke is one union.
/// Everything depends only on the path, never on the clip: drawing a stroke through two clips
/// gives exactly the pixels of drawing it whole.
public struct InkRasterizer {
    /// Largest distance between a flattened curve and the true one, in buffer pixels.
    public static let flatteningTolerance = 0.1

    /// Scratch buffers reused by every draw. A rasterizer belongs to one renderer and one thread.
    private let coverage = InkCoverage()

    public init() {}

    /// Paints `path` over `target`, touching only pixels inside `clip`.
    /// Coordinates are logical; `scale` is buffer pixels per logical pixel.
    /// Pieces of the path whose bounds miss the clip are skipped before any pixel work, so
    /// redrawing a long stroke's newest segment costs that segment, not the stroke.
    public func draw(_ path: [PathElement], style: InkStyle, into target: Bitmap, scale: Double, clip: PixelRect) {
        let radius = style.width * scale / 2
        let area = clip.intersection(target.bounds)
        guard radius > 0, radius.isFinite, scale.isFinite, !area.isEmpty else { return }
        let reach = radius + 1

        // First pass: the part of `area` the path can touch, so the mask is no larger than that.
        var region = PixelRect(x: 0, y: 0, width: 0, height: 0)
        Self.forEachPiece(of: path, scale: scale) { piece in
            region = region.union(Self.bounds(of: piece, reach: reach, within: area))
        }
        guard !region.isEmpty else { return }

        coverage.begin(region: region, radius: radius)
        Self.forEachPiece(of: path, scale: scale) { piece in
            guard !Self.bounds(of: piece, reach: reach, within: region).isEmpty else { return }
            switch piece {
            case let .dot(p):
                coverage.addCapsule(from: p, to: p)
            case let .line(a, b):
                addSegment(a, b, reach: reach)
            case let .quad(p0, p1, p2):
                var last = p0
                PathFlattening.flattenQuad(p0, p1, p2, tolerance: Self.flatteningTolerance) { p in
                    addSegment(last, p, reach: reach)
                    last = p
                }
            case let .cubic(p0, p1, p2, p3):
                var last = p0
                PathFlattening.flattenCubic(p0, p1, p2, p3, tolerance: Self.flatteningTolerance) { p in
                    addSegment(last, p, reach: reach)
                    last = p
                }
            }
        }
        coverage.composite(color: style.color, onto: target)
    }

    /// Adds one flattened segment unless it lies wholly outside the region.
    private func addSegment(_ a: Point, _ b: Point, reach: Double) {
        let region = coverage.currentRegion
        guard min(a.x, b.x) - reach < Double(region.maxX), max(a.x, b.x) + reach > Double(region.x),
              min(a.y, b.y) - reach < Double(region.maxY), max(a.y, b.y) + reach > Double(region.y)
        else { return }
        coverage.addCapsule(from: a, to: b)
    }

    // MARK: - The path in buffer pixels

    /// One drawable piece of a path in buffer pixels, starting where the previous one ended.
    private enum Piece {
        case dot(Point)
        case line(Point, Point)
        case quad(Point, Point, Point)
        case cubic(Point, Point, Point, Point)
    }

    /// Walks the path's pieces in buffer pixels. A sub-path that is only a move is a dot (a tap).
    private static func forEachPiece(of path: [PathElement], scale: Double, _ visit: (Piece) -> Void) {
        var current = Point.zero
        var lonelyMove: Point?
        for element in path {
            switch element {
            case let .move(p):
                if let dot = lonelyMove { visit(.dot(dot)) }
                current = p * scale
                lonelyMove = current
                continue
            case let .line(p):
                visit(.line(current, p * scale))
            case let .quad(c, p):
                visit(.quad(current, c * scale, p * scale))
            case let .curve(c1, c2, p):
                visit(.cubic(current, c1 * scale, c2 * scale, p * scale))
            }
            current = element.endPoint * scale
            lonelyMove = nil
        }
        if let dot = lonelyMove { visit(.dot(dot)) }
    }

    /// The pixels of `within` that `piece` may paint: its control hull grown by `reach`.
    private static func bounds(of piece: Piece, reach: Double, within limit: PixelRect) -> PixelRect {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        switch piece {
        case let .dot(p):
            minX = p.x; maxX = p.x; minY = p.y; maxY = p.y
        case let .line(a, b):
            minX = min(a.x, b.x); maxX = max(a.x, b.x); minY = min(a.y, b.y); maxY = max(a.y, b.y)
        case let .quad(a, b, c):
            minX = min(a.x, b.x, c.x); maxX = max(a.x, b.x, c.x); minY = min(a.y, b.y, c.y); maxY = max(a.y, b.y, c.y)
        case let .cubic(a, b, c, d):
            minX = min(a.x, b.x, c.x, d.x); maxX = max(a.x, b.x, c.x, d.x)
            minY = min(a.y, b.y, c.y, d.y); maxY = max(a.y, b.y, c.y, d.y)
        }
        // Clamp in floating point first: a non-finite or huge coordinate never reaches Int.
        let x0 = max((minX - reach).rounded(.down), Double(limit.x))
        let y0 = max((minY - reach).rounded(.down), Double(limit.y))
        let x1 = min((maxX + reach).rounded(.up), Double(limit.maxX))
        let y1 = min((maxY + reach).rounded(.up), Double(limit.maxY))
        guard x1 > x0, y1 > y0 else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        return PixelRect(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0))
    }
}
