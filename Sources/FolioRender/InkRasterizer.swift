import FolioGeometry
import FolioPixels
import FolioSketchbook

/// Paints strokes with pixman: antialiased, seam-free, round caps and joins; a path that
/// never moves paints a dot of the ink's width.
///
/// A stroke is flattened into a polyline; each of its segments becomes a convex piece with
/// round ends, or with a cut along the bisector where the line bends gently (see `InkCoverage`).
/// Their coverage is merged into one mask and the colour is painted through it once, so
/// overlaps never darken. Everything depends only on the path, never on the clip: drawing a
/// stroke through two clips gives exactly the pixels of drawing it whole.
///
/// A class because it owns scratch buffers that every draw reuses; one renderer, one thread.
public final class InkRasterizer {
    /// Largest distance between a flattened curve and the true one, in buffer pixels.
    public static let flatteningTolerance = 0.1
    /// Shortest flattened segment kept, in buffer pixels (a pausing finger repeats points).
    static let shortestSegment = 1e-3

    private let coverage = InkCoverage()
    /// The path in buffer pixels, the element being drawn flattened, and a neighbour flattened:
    /// reused so drawing allocates nothing.
    private var pieces: [Piece] = []
    private var polyline: [Point] = []
    private var neighbour: [Point] = []

    public init() {}

    /// Polygons this renderer has rasterised (see `InkCoverage.rasterised`).
    var rasterised: Int { coverage.rasterised }

    /// Paints `path`, then `tail` (a live stroke's provisional end), over `target`, touching only
    /// pixels inside `clip`. Coordinates are logical; `scale` is buffer pixels per logical pixel.
    /// Pieces of the path whose bounds miss the clip are skipped before any pixel work.
    public func draw(_ path: [PathElement], tail: PathElement? = nil, style: InkStyle,
                     into target: Bitmap, scale: Double, clip: PixelRect) {
        let radius = style.width * scale / 2
        let area = clip.intersection(target.bounds)
        guard radius > 0, radius.isFinite, scale.isFinite, !area.isEmpty else { return }
        let reach = radius + 1
        collectPieces(of: path, tail: tail, elements: nil, scale: scale)

        // The part of `area` the path can touch, so the mask is no larger than that.
        var region = PixelRect.empty
        for piece in pieces { region = region.union(piece.bounds(reach: reach, within: area)) }
        guard !region.isEmpty else { return }

        coverage.begin(region: region, radius: radius)
        addPieces(only: nil, reach: reach, within: region, to: coverage)
        coverage.composite(color: style.color, onto: target)
    }

    /// Adds the ink of `path`'s elements `elements` to `settled`, a coverage begun over `region`
    /// and never composited: a live stroke's finished part, kept as it grows. Joints with the
    /// neighbours come out as when the whole path is drawn.
    func add(_ path: [PathElement], elements: Range<Int>, style: InkStyle, scale: Double, within region: PixelRect,
             to settled: InkCoverage) {
        collectPieces(of: path, tail: nil, elements: [elements], scale: scale)
        addPieces(only: elements, reach: style.width * scale / 2 + 1, within: region, to: settled)
    }

    /// Paints a live stroke within `clip`: what `settled` holds of its first elements, and
    /// `elements`, the rest of it (the tail is `path.count`), added as when the whole path is drawn.
    func drawLive(_ path: [PathElement], tail: PathElement?, elements: Range<Int>, over settled: InkCoverage, style: InkStyle,
                  into target: Bitmap, scale: Double, clip: PixelRect) {
        let radius = style.width * scale / 2
        let area = clip.intersection(target.bounds)
        guard radius > 0, radius.isFinite, scale.isFinite, !area.isEmpty else { return }
        collectPieces(of: path, tail: tail, elements: [elements], scale: scale)
        coverage.begin(region: area, radius: radius, over: settled)
        addPieces(only: elements, reach: radius + 1, within: area, to: coverage)
        coverage.composite(color: style.color, onto: target)
    }

    /// Adds the collected pieces of elements `only` (all when nil) to `coverage`, begun over
    /// `region`; the others are there for the joints.
    private func addPieces(only: Range<Int>?, reach: Double, within region: PixelRect, to coverage: InkCoverage) {
        for index in pieces.indices {
            let piece = pieces[index]
            if let only, !only.contains(piece.element) { continue }
            guard !piece.bounds(reach: reach, within: region).isEmpty else {
                coverage.endRun()
                continue
            }
            flatten(piece, into: &polyline)
            // The points just before and after, so joints with neighbours come out as they do
            // when the neighbours are drawn (perhaps through another clip).
            var before: Point?, after: Point?
            if piece.continuesPrevious, index > 0 {
                flatten(pieces[index - 1], into: &neighbour)
                if neighbour.count >= 2 { before = neighbour[neighbour.count - 2] }
            }
            if index + 1 < pieces.count, pieces[index + 1].continuesPrevious {
                flatten(pieces[index + 1], into: &neighbour)
                if neighbour.count >= 2 { after = neighbour[1] }
            }
            coverage.addPolyline(polyline, before: before, after: after)
        }
    }

    /// Paints a pressure stroke: the filled outline `PressureOutline` builds around `path`
    /// (and `tail`), its width from `pressures` (`Stroke.pressurePath`, and `pressureTail`)
    /// along `curve`. The pixels depend only on the stroke, never on the clip.
    public func drawPressure(_ path: [PathElement], pressures: [PathElement], tail: PathElement? = nil,
                             pressureTail: PathElement? = nil, curve: PressureCurve,
                             color: UInt32, into target: Bitmap, scale: Double, clip: PixelRect) {
        let area = clip.intersection(target.bounds)
        guard scale > 0, scale.isFinite, !area.isEmpty else { return }
        let count = path.count + (tail == nil ? 0 : 1)
        func element(_ index: Int) -> PathElement { index < path.count ? path[index] : tail ?? path[path.count - 1] }
        func pressure(_ index: Int) -> PathElement? { index < pressures.count ? pressures[index] : pressureTail }
        let reach = curve.maximum * scale / 2 + 1
        // The mask spans the part of `area` the elements can touch.
        var region = PixelRect.empty
        for index in 0..<count {
            let start = index > 0 ? element(index - 1).endPoint : element(index).endPoint
            let box = element(index).controlBounds.union(Rect(origin: start, size: .zero))
            region = region.union(Self.pixels(of: box, scale: scale, reach: reach, within: area))
        }
        guard !region.isEmpty else { return }
        coverage.begin(region: region, radius: 0)
        // A piece's box holds all its ink, so only pieces whose box meets the region (grown by
        // a pixel against rounding) are rasterised: no work on ink the mask will not take.
        let limit = Self.limit(of: region)
        PressureOutline.pieces(count: count, element: element, pressure: pressure, curve: curve) { piece in
            Self.add(piece, scale: scale, limit: limit, to: coverage)
        }
        coverage.composite(color: color, onto: target)
    }

    /// Paints a live pressure stroke within `clip`: what `settled` holds of it, and the pieces
    /// `outline` (its walk over the elements before `start`, which `settled` took) makes of the
    /// rest of `path` (with its `pressures`), of `tail` and of the end.
    func drawLivePressure(_ path: [PathElement], pressures: [PathElement], from start: Int, tail: PathElement?,
                          pressureTail: PathElement?, outline: PressureOutline.Walker, over settled: InkCoverage,
                          color: UInt32, into target: Bitmap, scale: Double, clip: PixelRect) {
        let area = clip.intersection(target.bounds)
        guard scale > 0, scale.isFinite, !area.isEmpty else { return }
        coverage.begin(region: area, radius: 0, over: settled)
        let limit = Self.limit(of: area)
        var outline = outline
        let visit = { (piece: OutlinePiece) in Self.add(piece, scale: scale, limit: limit, to: self.coverage) }
        for index in start..<path.count {
            outline.add(path[index], pressure: index < pressures.count ? pressures[index] : nil, visit: visit)
        }
        if let tail { outline.add(tail, pressure: pressureTail, visit: visit) }
        outline.finish(visit: visit)
        coverage.composite(color: color, onto: target)
    }

    /// The box of buffer pixels whose pieces are rasterised for `region`: grown by a pixel against
    /// rounding (a piece's box holds all its ink).
    static func limit(of region: PixelRect) -> Rect {
        Rect(x: Double(region.x) - 1, y: Double(region.y) - 1, width: Double(region.width) + 2, height: Double(region.height) + 2)
    }

    /// Adds a pressure outline's `piece` (logical px) to `coverage` when its box meets `limit`.
    static func add(_ piece: OutlinePiece, scale: Double, limit: Rect, to coverage: InkCoverage) {
        switch piece {
        case let .quad(a, b, c, d, continuesRun):
            let (a, b, c, d) = (a * scale, b * scale, c * scale, d * scale)
            guard meets(box(a, b, c, d), limit) else {
                if !continuesRun { coverage.endRun() }
                return
            }
            coverage.addQuad(a, b, c, d, continuesRun: continuesRun)
        case let .disc(centre, radius):
            let c = centre * scale, r = radius * scale
            guard meets(Rect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r), limit) else { return }
            coverage.addDisc(centre: c, radius: r)
        }
    }

    /// Whether two boxes overlap or touch (a zero-size box counts).
    private static func meets(_ a: Rect, _ b: Rect) -> Bool {
        a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY
    }

    private static func box(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Rect {
        let minX = min(a.x, b.x, c.x, d.x), minY = min(a.y, b.y, c.y, d.y)
        return Rect(x: minX, y: minY, width: max(a.x, b.x, c.x, d.x) - minX, height: max(a.y, b.y, c.y, d.y) - minY)
    }

    /// The pixels of `limit` a logical box may paint at `scale`, grown by `reach` buffer pixels.
    private static func pixels(of box: Rect, scale: Double, reach: Double, within limit: PixelRect) -> PixelRect {
        let x0 = max((box.minX * scale - reach).rounded(.down), Double(limit.x))
        let y0 = max((box.minY * scale - reach).rounded(.down), Double(limit.y))
        let x1 = min((box.maxX * scale + reach).rounded(.up), Double(limit.maxX))
        let y1 = min((box.maxY * scale + reach).rounded(.up), Double(limit.maxY))
        guard x1 > x0, y1 > y0 else { return PixelRect.empty }
        return PixelRect(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0))
    }

    // MARK: - The path in buffer pixels

    /// One drawable piece of a path in buffer pixels.
    private struct Piece {
        enum Shape {
            case dot(Point)
            case line(Point, Point)
            case quad(Point, Point, Point)
            case cubic(Point, Point, Point, Point)
        }

        var shape: Shape
        /// Whether it starts where the previous piece ended, in the same stroke.
        var continuesPrevious: Bool
        /// The index of the path element it comes from (the tail's is the path's count).
        var element: Int

        /// The pixels of `limit` this piece may paint: its control hull grown by `reach`.
        func bounds(reach: Double, within limit: PixelRect) -> PixelRect {
            var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
            switch shape {
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
            guard x1 > x0, y1 > y0 else { return PixelRect.empty }
            return PixelRect(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0))
        }
    }

    /// The path's pieces in buffer pixels, of `elements` and their neighbours (all when nil), in
    /// path order. A sub-path that is only a move is a dot (a tap).
    private func collectPieces(of path: [PathElement], tail: PathElement?, elements: [Range<Int>]?, scale: Double) {
        pieces.removeAll(keepingCapacity: true)
        let count = path.count + (tail == nil ? 0 : 1)
        func element(_ index: Int) -> PathElement? { index < path.count ? path[index] : tail }
        for span in PathElement.spans(around: elements ?? [0..<count], count: count) {
            // A span starts where the element before it ended, continuing it unless that was a move.
            var current = Point.zero
            var drawing = false
            if span.lowerBound > 0, let before = element(span.lowerBound - 1) {
                current = before.endPoint * scale
                if case .move = before {} else { drawing = true }
            }
            var lonelyMove: Point?
            for index in span {
                guard let element = element(index) else { break }
                let shape: Piece.Shape
                switch element {
                case let .move(p):
                    if let dot = lonelyMove { pieces.append(Piece(shape: .dot(dot), continuesPrevious: false, element: index - 1)) }
                    current = p * scale
                    lonelyMove = current
                    drawing = false
                    continue
                case let .line(p):
                    shape = .line(current, p * scale)
                case let .quad(c, p):
                    shape = .quad(current, c * scale, p * scale)
                case let .curve(c1, c2, p):
                    shape = .cubic(current, c1 * scale, c2 * scale, p * scale)
                }
                pieces.append(Piece(shape: shape, continuesPrevious: drawing, element: index))
                current = element.endPoint * scale
                lonelyMove = nil
                drawing = true
            }
            // A move at a span's end is lonely only at the path's end (a move inside a span
            // followed by another move was made a dot above).
            if let dot = lonelyMove, span.upperBound == count {
                pieces.append(Piece(shape: .dot(dot), continuesPrevious: false, element: span.upperBound - 1))
            }
        }
    }

    /// The piece as a polyline from its exact start to its exact end, without segments shorter
    /// than `shortestSegment`; a single point when it does not move.
    private func flatten(_ piece: Piece, into points: inout [Point]) {
        points.removeAll(keepingCapacity: true)
        let end: Point
        switch piece.shape {
        case let .dot(p):
            points.append(p)
            return
        case let .line(a, b):
            points.append(a)
            Self.append(b, to: &points)
            end = b
        case let .quad(p0, p1, p2):
            points.append(p0)
            PathFlattening.flattenQuad(p0, p1, p2, tolerance: Self.flatteningTolerance) { Self.append($0, to: &points) }
            end = p2
        case let .cubic(p0, p1, p2, p3):
            points.append(p0)
            PathFlattening.flattenCubic(p0, p1, p2, p3, tolerance: Self.flatteningTolerance) { Self.append($0, to: &points) }
            end = p3
        }
        // The end was dropped for being too near the point before: it takes that point's place.
        if points.count > 1 && points[points.count - 1] != end { points[points.count - 1] = end }
    }

    /// Extends a polyline unless `p` is too near its last point.
    private static func append(_ p: Point, to points: inout [Point]) {
        guard let last = points.last else { return points.append(p) }
        let d = p - last
        if d.x * d.x + d.y * d.y > shortestSegment * shortestSegment { points.append(p) }
    }
}
