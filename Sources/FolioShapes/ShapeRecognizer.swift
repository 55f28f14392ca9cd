import Foundation
import FolioGeometry

/// Tells which clean shape a stroke was meant to be: a line, an ellipse or circle, a rectangle
/// or square, a triangle, or none. Pure geometry on the stroke's points; the thresholds are
/// explained in docs/shapes.md. The stroke is resampled to `samples` points by arc length
/// first, so every fit after that costs the same for any stroke: recognition costs the
/// stroke's points once.
public enum ShapeRecognizer {
    /// A stroke whose bounding box is smaller than this across (diagonal, logical px) is left
    /// alone: a dot, a tick, a full stop.
    public static let minimumSize = 20.0
    /// A line: no point farther from the chord (start to end) than this fraction of it...
    public static let lineDeviation = 0.05
    /// ...and a path at most this many times the chord (a zigzag along a line is no line),
    /// measured over `coarse` points so a tremor does not lengthen it.
    public static let lineStraightness = 1.06
    static let coarse = 24
    /// A closed shape: its end comes back within this fraction of its length of its start
    /// (what passes the start, an overshoot, is dropped).
    public static let closureGap = 0.15
    /// At most this fraction of a stroke is taken for an overshoot past its start (more, and
    /// where it came back was the middle of a figure eight, not the end of a loop).
    public static let maximumOvershoot = 0.25
    /// A closed shape goes round once: its outline turns through 360° (give or take this), so
    /// a figure eight (0°) or a loop drawn twice (720°) is none.
    public static let turningTolerance = 90.0 * Double.pi / 180
    /// A closed fit holds when the stroke's mean distance from the shape is at most this
    /// fraction of the square root of the area it encloses...
    public static let meanDeviation = 0.035
    /// ...and no point is farther than this fraction.
    public static let maximumDeviation = 0.12
    /// A quadrilateral is a rectangle when every corner is within this of a right angle.
    public static let rightAngleTolerance = 20.0 * Double.pi / 180
    /// A triangle has no corner sharper than this.
    public static let triangleMinimumAngle = 15.0 * Double.pi / 180
    /// An ellipse whose radii are this close (smaller over larger) is a circle; a rectangle whose
    /// sides are, a square.
    public static let circleRatio = 0.85
    public static let squareRatio = 0.88
    /// A rectangle or ellipse this close to the window's axes is set square to them.
    public static let axisSnap = 4.0 * Double.pi / 180

    /// Points the stroke is resampled to before fitting.
    static let samples = 96

    /// The shape `points` (a stroke, in drawing order) fits best within the thresholds; nil when
    /// none does.
    public static func recognize(_ points: [Point]) -> Shape? {
        guard points.count >= 2, points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        let box = Rect(bounding: points)
        guard (box.width * box.width + box.height * box.height).squareRoot() >= minimumSize else { return nil }
        let path = Contour.resample(points[...], count: samples)
        if let line = line(path) { return line }
        guard let contour = closedContour(path) else { return nil }
        var best: (shape: Shape, error: Double)?
        for fit in [ellipse(contour), polygon(contour, corners: 3), polygon(contour, corners: 4)] {
            if let fit, fit.error < best?.error ?? .infinity { best = fit }
        }
        return best?.shape
    }

    private static func line(_ path: [Point]) -> Shape? {
        guard let a = path.first, let b = path.last else { return nil }
        let chord = a.distance(to: b)
        guard chord >= minimumSize, Contour.length(Contour.resample(path[...], count: coarse)[...]) <= lineStraightness * chord
        else { return nil }
        let farthest = path.reduce(0) { max($0, Contour.distance($1, toSegment: a, b)) }
        return farthest <= lineDeviation * chord ? .line(from: a, to: b) : nil
    }

    /// The stroke as a closed outline, overshoot dropped, resampled: nil when its end does not
    /// come back to its start.
    private static func closedContour(_ path: [Point]) -> [Point]? {
        guard let start = path.first else { return nil }
        var end = path.count - 1
        let earliest = Int((Double(path.count - 1) * (1 - maximumOvershoot)).rounded(.up))
        for index in earliest..<path.count where path[index].distance(to: start) < path[end].distance(to: start) {
            end = index
        }
        let length = Contour.length(path[...end])
        guard length > 0, path[end].distance(to: start) <= closureGap * length else { return nil }
        let contour = Contour.resample(path[...end], count: samples)
        return abs(abs(Contour.turning(contour)) - 2 * Double.pi) <= turningTolerance ? contour : nil
    }

    /// How far the contour strays from a fitted outline: its mean and largest distance over the
    /// square root of the area it encloses; nil when they are beyond the thresholds.
    private static func error(_ distances: [Double], scale: Double) -> Double? {
        guard scale > 0, let largest = distances.max() else { return nil }
        let mean = distances.reduce(0, +) / Double(distances.count) / scale
        return mean <= meanDeviation && largest / scale <= maximumDeviation ? mean : nil
    }

    // MARK: - Ellipses

    /// The ellipse with the contour's area moments (a filled ellipse of radii a, b has variances
    /// a²/4 and b²/4 along its axes), judged by the contour's radial distance from it.
    private static func ellipse(_ contour: [Point]) -> (shape: Shape, error: Double)? {
        guard let m = Contour.moments(contour) else { return nil }
        let mean = (m.xx + m.yy) / 2, spread = (((m.xx - m.yy) / 2) * ((m.xx - m.yy) / 2) + m.xy * m.xy).squareRoot()
        let major = mean + spread, minor = mean - spread
        guard minor > 0 else { return nil }
        var e = Ellipse(center: m.centroid, radiusX: 2 * major.squareRoot(), radiusY: 2 * minor.squareRoot(),
                        rotation: atan2(2 * m.xy, m.xx - m.yy) / 2)
        let distances = contour.map { p -> Double in
            let q = rotate(p - e.center, by: -e.rotation)
            let r = ((q.x / e.radiusX) * (q.x / e.radiusX) + (q.y / e.radiusY) * (q.y / e.radiusY)).squareRoot()
            let d = (q.x * q.x + q.y * q.y).squareRoot()
            return r > 0 ? abs(d - d / r) : min(e.radiusX, e.radiusY)
        }
        guard let fit = error(distances, scale: abs(m.area).squareRoot()) else { return nil }
        if e.radiusY / e.radiusX >= circleRatio {
            let r = (e.radiusX + e.radiusY) / 2
            (e.radiusX, e.radiusY, e.rotation) = (r, r, 0)
        } else {
            e.rotation = snapToAxes(e.rotation)
        }
        let q = rotate(contour[0] - e.center, by: -e.rotation)
        e.start = atan2(q.y / e.radiusY, q.x / e.radiusX)
        e.forward = m.area > 0
        return (.ellipse(e), fit)
    }

    // MARK: - Triangles and rectangles

    /// The polygon of `corners` corners nearest the contour: corners first where the contour
    /// strays farthest from the polygon so far, then each side a line fitted through the middle
    /// of its stretch of the contour, and the corners where those lines cross.
    private static func polygon(_ contour: [Point], corners count: Int) -> (shape: Shape, error: Double)? {
        let n = contour.count
        guard n >= 3 * count, let m = Contour.moments(contour) else { return nil }
        let centre = contour.reduce(Point.zero, +) * (1 / Double(n))
        guard let first = contour.indices.max(by: { contour[$0].distance(to: centre) < contour[$1].distance(to: centre) }),
              let second = contour.indices.max(by: { contour[$0].distance(to: contour[first]) < contour[$1].distance(to: contour[first]) })
        else { return nil }
        var chosen = [first, second].sorted()
        while chosen.count < count {
            var best: (index: Int, distance: Double)?
            for (k, from) in chosen.enumerated() {
                let to = chosen[(k + 1) % chosen.count]
                var i = (from + 1) % n
                while i != to {
                    let d = Contour.distance(contour[i], toSegment: contour[from], contour[to])
                    if d > best?.distance ?? -1 { best = (i, d) }
                    i = (i + 1) % n
                }
            }
            guard let best else { return nil }
            chosen = (chosen + [best.index]).sorted()
        }
        // A line through the middle 70% of each side's stretch (its ends are the rounded corners).
        var sides: [(point: Point, direction: Point)] = []
        for (k, from) in chosen.enumerated() {
            let to = chosen[(k + 1) % count]
            let span = (to - from + n) % n
            let skip = Int((Double(span) * 0.15).rounded())
            let middle = (skip...(span - skip)).map { contour[(from + $0) % n] }
            guard span >= 3, let side = Contour.fitLine(middle[...]) else { return nil }
            sides.append(side)
        }
        var corners: [Point] = []
        for k in 0..<count {
            guard let corner = Contour.intersect(sides[(k + count - 1) % count], sides[k], minimumSine: sin(triangleMinimumAngle))
            else { return nil }
            corners.append(corner)
        }
        let distances = contour.map { p in
            corners.indices.map { Contour.distance(p, toSegment: corners[$0], corners[($0 + 1) % count]) }.min() ?? .infinity
        }
        guard let fit = error(distances, scale: abs(m.area).squareRoot()) else { return nil }
        let angles = corners.indices.map { angle(at: corners[$0], from: corners[($0 + count - 1) % count], to: corners[($0 + 1) % count]) }
        let shape: [Point]
        if count == 3 {
            guard angles.allSatisfy({ $0 >= triangleMinimumAngle }) else { return nil }
            shape = corners
        } else {
            guard angles.allSatisfy({ abs($0 - Double.pi / 2) <= rightAngleTolerance }) else { return nil }
            shape = rectangle(corners, counterclockwise: m.area > 0)
        }
        return (.polygon(startingNearest(contour[0], shape)), fit)
    }

    /// The rectangle nearest a quadrilateral: its sides' mean direction, its corners' mean
    /// distances from the centre along it; a square when its sides are close, square to the
    /// window when near it; corners turning as the stroke turned.
    private static func rectangle(_ quad: [Point], counterclockwise: Bool) -> [Point] {
        // Side directions averaged at four times their angle, where directions 90° apart agree.
        var sx = 0.0, sy = 0.0
        for k in 0..<4 {
            let d = quad[(k + 1) % 4] - quad[k]
            let length = (d.x * d.x + d.y * d.y).squareRoot()
            let phi = atan2(d.y, d.x)
            sx += length * cos(4 * phi)
            sy += length * sin(4 * phi)
        }
        let theta = snapToAxes(atan2(sy, sx) / 4)
        let c = quad.reduce(Point.zero, +) * 0.25
        let u = Point(x: cos(theta), y: sin(theta)), v = Point(x: -sin(theta), y: cos(theta))
        var hx = quad.reduce(0) { $0 + abs(dot($1 - c, u)) } / 4
        var hy = quad.reduce(0) { $0 + abs(dot($1 - c, v)) } / 4
        if min(hx, hy) / max(hx, hy) >= squareRatio { (hx, hy) = ((hx + hy) / 2, (hx + hy) / 2) }
        let corners = [c + u * hx + v * hy, c - u * hx + v * hy, c - u * hx - v * hy, c + u * hx - v * hy]
        return counterclockwise ? corners : corners.reversed()
    }

    /// `corners` in the same cyclic order, from the one nearest `p`.
    private static func startingNearest(_ p: Point, _ corners: [Point]) -> [Point] {
        guard let k = corners.indices.min(by: { corners[$0].distance(to: p) < corners[$1].distance(to: p) }) else { return corners }
        return Array(corners[k...] + corners[..<k])
    }

    /// `angle` moved onto the nearest multiple of 90° when within `axisSnap` of it.
    private static func snapToAxes(_ angle: Double) -> Double {
        let quarter = Double.pi / 2
        let nearest = (angle / quarter).rounded() * quarter
        return abs(angle - nearest) <= axisSnap ? nearest : angle
    }

    /// The angle at `corner` between its sides to `a` and `b` (0 to π).
    private static func angle(at corner: Point, from a: Point, to b: Point) -> Double {
        let u = a - corner, v = b - corner
        return abs(atan2(u.x * v.y - u.y * v.x, dot(u, v)))
    }

    private static func dot(_ a: Point, _ b: Point) -> Double { a.x * b.x + a.y * b.y }

    private static func rotate(_ p: Point, by angle: Double) -> Point {
        Point(x: p.x * cos(angle) - p.y * sin(angle), y: p.x * sin(angle) + p.y * cos(angle))
    }
}
