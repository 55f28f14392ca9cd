import FolioGeometry
import FolioSketchbook

/// Turns Béziers into line segments no farther than `tolerance` from the curve.
/// The number of segments follows Wang's formula, so it depends only on the curve itself:
/// a piece of a stroke flattens the same way whichever clip it is drawn through.
enum PathFlattening {
    /// Most segments one curve may become (a curve with absurd control points stays bounded).
    static let maximumSegments = 4096

    /// Calls `visit` with the consecutive points of the quadratic `p0, p1, p2`, `p0` excluded.
    static func flattenQuad(_ p0: Point, _ p1: Point, _ p2: Point, tolerance: Double, visit: (Point) -> Void) {
        let dd = magnitude(p0 - p1 * 2 + p2)
        let n = segmentCount(sqrt: dd / (4 * tolerance))
        for i in 1..<n {
            let t = Double(i) / Double(n), mt = 1 - t
            visit(p0 * (mt * mt) + p1 * (2 * mt * t) + p2 * (t * t))
        }
        visit(p2)
    }

    /// Calls `visit` with the consecutive points of the cubic `p0…p3`, `p0` excluded.
    static func flattenCubic(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, tolerance: Double,
                             visit: (Point) -> Void) {
        let dd = max(magnitude(p0 - p1 * 2 + p2), magnitude(p1 - p2 * 2 + p3))
        let n = segmentCount(sqrt: 0.75 * dd / tolerance)
        for i in 1..<n {
            let t = Double(i) / Double(n), mt = 1 - t
            let a = mt * mt * mt, b = 3 * mt * mt * t, c = 3 * mt * t * t, d = t * t * t
            visit(p0 * a + p1 * b + p2 * c + p3 * d)
        }
        visit(p3)
    }

    private static func segmentCount(sqrt value: Double) -> Int {
        let n = value.squareRoot().rounded(.up)
        guard n.isFinite, n >= 1 else { return 1 }
        return n >= Double(maximumSegments) ? maximumSegments : Int(n)
    }

    private static func magnitude(_ v: Point) -> Double { (v.x * v.x + v.y * v.y).squareRoot() }
}
