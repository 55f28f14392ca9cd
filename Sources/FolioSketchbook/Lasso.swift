import FolioGeometry

/// A selection loop: the points a finger or the pen drew, closed by a straight line from the
/// last back to the first. A stroke is selected when more than `share` of its length (along its
/// input points, as drawn) lies inside the loop, by the even-odd rule; a stroke of one point (a
/// dot), or of no length, is selected when that point is inside.
public struct Lasso: Sendable {
    /// The share of a stroke's length that must lie inside the loop: more than half.
    public static let share = 0.5

    public let points: [Point]
    public let bounds: Rect
    /// The loop's edges (edge i runs from point i to the next, the last back to the first) by
    /// horizontal band of `bounds`: band k holds every edge whose y-range meets it, so a point or
    /// a segment is tested against the few edges at its height, not the whole loop.
    private let bands: [[Int]]
    private let bandHeight: Double

    public init(points: [Point]) {
        self.points = points
        bounds = Rect(bounding: points)
        let count = max(1, min(points.count, 4096))
        bandHeight = bounds.isNull ? 1 : max(bounds.height / Double(count), 1e-9)
        var bands = [[Int]](repeating: [], count: count)
        if !bounds.isNull {
            for i in points.indices {
                let a = points[i], b = points[(i + 1) % points.count]
                for k in Self.band(min(a.y, b.y), bounds.minY, bandHeight, count)...Self.band(max(a.y, b.y), bounds.minY, bandHeight, count) {
                    bands[k].append(i)
                }
            }
        }
        self.bands = bands
    }

    /// The band holding height `y`, within 0..<`count`.
    private static func band(_ y: Double, _ top: Double, _ height: Double, _ count: Int) -> Int {
        let k = ((y - top) / height).rounded(.down)
        return k.isFinite ? min(max(Int(k), 0), count - 1) : 0
    }

    /// The edges whose y-range may meet heights `y0`…`y1` (an edge may come more than once).
    private func edges(from y0: Double, to y1: Double) -> [Int] {
        guard y1 >= bounds.minY, y0 <= bounds.maxY else { return [] }
        let first = Self.band(y0, bounds.minY, bandHeight, bands.count), last = Self.band(y1, bounds.minY, bandHeight, bands.count)
        return first == last ? bands[first] : (first...last).flatMap { bands[$0] }
    }

    /// The indices of `strokes` the loop selects, ascending.
    public func selection(of strokes: [Stroke]) -> [Int] {
        strokes.indices.filter { selects(strokes[$0]) }
    }

    /// Whether more than `share` of `stroke`'s length lies inside the loop.
    public func selects(_ stroke: Stroke) -> Bool {
        guard points.count >= 3, let first = stroke.points.first else { return false }
        let box = Rect(bounding: stroke.points)
        // A stroke wholly outside the loop's box has nothing inside.
        guard box.minX <= bounds.maxX, bounds.minX <= box.maxX, box.minY <= bounds.maxY, bounds.minY <= box.maxY else { return false }
        var total = 0.0, inside = 0.0
        for i in stroke.points.indices.dropFirst() {
            let a = stroke.points[i - 1], b = stroke.points[i]
            let length = a.distance(to: b)
            total += length
            inside += length * insideFraction(from: a, to: b)
        }
        guard total > 0 else { return contains(first) }
        return inside > Self.share * total
    }

    /// Whether `p` is inside the loop (even-odd rule).
    public func contains(_ p: Point) -> Bool {
        guard points.count >= 3, p.y >= bounds.minY, p.y <= bounds.maxY else { return false }
        var inside = false
        // Only edges at p's height can cross the ray from p; each is counted once.
        for i in bands[Self.band(p.y, bounds.minY, bandHeight, bands.count)] {
            let a = points[i], b = points[(i + 1) % points.count]
            if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
        }
        return inside
    }

    /// The part of the segment `a`–`b` inside the loop, 0 to 1: the segment is cut where it
    /// crosses the loop's edges, and each piece is inside or out as its midpoint is.
    private func insideFraction(from a: Point, to b: Point) -> Double {
        var cuts = [0.0, 1.0]
        let d = b - a
        for i in edges(from: min(a.y, b.y), to: max(a.y, b.y)) {
            let p = points[i], e = points[(i + 1) % points.count] - p
            let denominator = d.x * e.y - d.y * e.x
            guard denominator != 0 else { continue }
            let w = p - a
            let t = (w.x * e.y - w.y * e.x) / denominator, u = (w.x * d.y - w.y * d.x) / denominator
            if t > 0, t < 1, u >= 0, u <= 1 { cuts.append(t) }
        }
        cuts.sort()
        var fraction = 0.0
        for k in cuts.indices.dropFirst() where cuts[k] > cuts[k - 1] {
            let mid = (cuts[k] + cuts[k - 1]) / 2
            if contains(a + d * mid) { fraction += cuts[k] - cuts[k - 1] }
        }
        return fraction
    }
}
