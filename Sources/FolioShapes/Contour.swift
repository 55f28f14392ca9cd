import Foundation
import FolioGeometry

/// The geometry the shape fits share: arc length, resampling, a closed outline's area and
/// moments, distances to segments and lines fitted through points.
enum Contour {
    /// The length of the polyline through `points`.
    static func length(_ points: ArraySlice<Point>) -> Double {
        zip(points, points.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) }
    }

    /// `count` points evenly spaced by arc length along the polyline through `points` (its ends
    /// included), in one pass.
    static func resample(_ points: ArraySlice<Point>, count: Int) -> [Point] {
        guard let first = points.first, let last = points.last, count >= 2 else { return Array(points) }
        let total = length(points)
        guard total > 0 else { return Array(repeating: first, count: count) }
        let step = total / Double(count - 1)
        var out = [first]
        out.reserveCapacity(count)
        var walked = 0.0, next = step
        var previous = first
        for p in points.dropFirst() {
            let piece = previous.distance(to: p)
            while piece > 0, next <= walked + piece, out.count < count - 1 {
                out.append(previous + (p - previous) * ((next - walked) / piece))
                next += step
            }
            walked += piece
            previous = p
        }
        out.append(last)
        return out
    }

    /// The signed area of the closed polygon through `points` (positive when it turns from +x
    /// toward +y), its centroid and its covariance (xx, yy, xy) as a filled region: Green's theorem.
    static func moments(_ points: [Point]) -> (area: Double, centroid: Point, xx: Double, yy: Double, xy: Double)? {
        guard points.count >= 3 else { return nil }
        // About the first point, so far-off coordinates keep their precision.
        let o = points[0]
        var a = 0.0, cx = 0.0, cy = 0.0, ixx = 0.0, iyy = 0.0, ixy = 0.0
        for i in points.indices {
            let p = points[i] - o, q = points[(i + 1) % points.count] - o
            let cross = p.x * q.y - q.x * p.y
            a += cross
            cx += (p.x + q.x) * cross
            cy += (p.y + q.y) * cross
            ixx += (p.x * p.x + p.x * q.x + q.x * q.x) * cross
            iyy += (p.y * p.y + p.y * q.y + q.y * q.y) * cross
            ixy += (p.x * q.y + 2 * p.x * p.y + 2 * q.x * q.y + q.x * p.y) * cross
        }
        a /= 2
        guard abs(a) > 1e-9 else { return nil }
        let gx = cx / (6 * a), gy = cy / (6 * a)
        return (a, o + Point(x: gx, y: gy), ixx / (12 * a) - gx * gx, iyy / (12 * a) - gy * gy, ixy / (24 * a) - gx * gy)
    }

    /// The angle (radians) an outline drawn through `points` and back to its start turns
    /// through in all, signed: ±2π for one that goes round once. The step back from its end to
    /// its start is left out (after an overshoot is cut off it may point anywhere): the turn
    /// from the last step's direction to the first one's closes the count.
    static func turning(_ points: [Point]) -> Double {
        var total = 0.0
        var first: Point?, previous: Point?
        for (p, q) in zip(points, points.dropFirst()) {
            let d = q - p
            guard d.x != 0 || d.y != 0 else { continue }
            if let previous { total += angle(from: previous, to: d) }
            if first == nil { first = d }
            previous = d
        }
        if let first, let previous { total += angle(from: previous, to: first) }
        return total
    }

    /// The signed angle from direction `a` to direction `b` (−π to π).
    private static func angle(from a: Point, to b: Point) -> Double {
        atan2(a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y)
    }

    /// The distance from `p` to the segment `a`–`b`.
    static func distance(_ p: Point, toSegment a: Point, _ b: Point) -> Double {
        let d = b - a, lengthSquared = d.x * d.x + d.y * d.y
        guard lengthSquared > 0 else { return p.distance(to: a) }
        let t = min(max(((p.x - a.x) * d.x + (p.y - a.y) * d.y) / lengthSquared, 0), 1)
        return p.distance(to: a + d * t)
    }

    /// The line nearest `points` in the least-squares sense: a point on it and its unit direction.
    static func fitLine(_ points: ArraySlice<Point>) -> (point: Point, direction: Point)? {
        guard points.count >= 2 else { return nil }
        let n = Double(points.count)
        let c = points.reduce(Point.zero, +) * (1 / n)
        var xx = 0.0, yy = 0.0, xy = 0.0
        for p in points {
            let d = p - c
            xx += d.x * d.x
            yy += d.y * d.y
            xy += d.x * d.y
        }
        guard xx + yy > 0 else { return nil }
        let angle = atan2(2 * xy, xx - yy) / 2
        return (c, Point(x: cos(angle), y: sin(angle)))
    }

    /// Where two lines (point and direction) cross; nil when they meet at less than `minimumSine`.
    static func intersect(_ l: (point: Point, direction: Point), _ m: (point: Point, direction: Point),
                          minimumSine: Double) -> Point? {
        let cross = l.direction.x * m.direction.y - l.direction.y * m.direction.x
        guard abs(cross) >= minimumSine else { return nil }
        let d = m.point - l.point
        let t = (d.x * m.direction.y - d.y * m.direction.x) / cross
        return l.point + l.direction * t
    }
}
