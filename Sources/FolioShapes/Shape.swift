import Foundation
import FolioGeometry

/// A clean shape a held stroke snaps to (logical px), with where its outline starts and which
/// way it runs: the way the stroke ran, so a pen's pressure lies along the outline as it lay
/// along the stroke.
public enum Shape: Hashable, Sendable {
    /// From the stroke's start to its end.
    case line(from: Point, to: Point)
    case ellipse(Ellipse)
    /// Corners in drawing order, the first the corner nearest the stroke's start: three for a
    /// triangle, four for a rectangle.
    case polygon([Point])

    /// What a person would call it (a circle is an ellipse of equal radii, a square a rectangle
    /// of equal sides).
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case line, circle, ellipse, triangle, rectangle, square
    }

    public var kind: Kind {
        switch self {
        case .line: return .line
        case let .ellipse(e): return e.radiusX == e.radiusY ? .circle : .ellipse
        case let .polygon(corners):
            guard corners.count == 4 else { return .triangle }
            let sides = corners.indices.map { corners[$0].distance(to: corners[($0 + 1) % 4]) }
            let longest = sides.max() ?? 0
            return longest > 0 && (sides.min() ?? 0) / longest > 1 - 1e-9 ? .square : .rectangle
        }
    }

    /// Outline points are about this far apart (logical px), more closely by a polygon's corners.
    static let spacing = 4.0
    /// And an outline has at most this many, whatever its size: a shape costs the same to draw
    /// and to keep at any size.
    static let maximumPoints = 1024

    /// The points a stroke of this shape is made of, in drawing order (a closed shape ends where
    /// it began), each within `SurfaceLimits.farthestCoordinate`. Corners get points half a pixel
    /// to 2 px on either side, so the ink smoother keeps them sharp.
    public func outline() -> [Point] {
        let points: [Point]
        switch self {
        case let .line(a, b):
            let count = Self.segments(a.distance(to: b), budget: Self.maximumPoints)
            points = (0...count).map { a + (b - a) * (Double($0) / Double(count)) }
        case let .ellipse(e):
            points = e.outline(count: max(24, Self.segments(e.perimeter, budget: Self.maximumPoints)))
        case let .polygon(corners):
            points = Self.polygonOutline(corners)
        }
        return points.map(SurfaceLimits.clamp)
    }

    /// Pieces of about `spacing` over `length`, at least one, at most `budget`.
    private static func segments(_ length: Double, budget: Int) -> Int {
        guard length.isFinite else { return 1 }
        return min(max(Int((length / spacing).rounded(.up)), 1), budget)
    }

    private static func polygonOutline(_ corners: [Point]) -> [Point] {
        let near = [0.5, 1.0, 2.0]
        var points: [Point] = []
        let budget = (maximumPoints - corners.count * 7) / max(corners.count, 1)
        for (index, a) in corners.enumerated() {
            let b = corners[(index + 1) % corners.count]
            let length = a.distance(to: b)
            points.append(a)
            guard length > 8 else { continue }
            let direction = (b - a) * (1 / length)
            for d in near { points.append(a + direction * d) }
            let count = segments(length - 8, budget: budget)
            for step in 0...count { points.append(a + direction * (4 + (length - 8) * Double(step) / Double(count))) }
            for d in near.reversed() { points.append(b - direction * d) }
        }
        if let first = corners.first { points.append(first) }
        return points
    }

    /// The shape while its held end, gripped at `grip` when it snapped, is dragged to `p`: a
    /// line's end follows the finger; any other shape scales about its centre, keeping its
    /// proportions, by how much farther from the centre `p` is than `grip` was (1/20 to 20 times).
    public func dragged(from grip: Point, to p: Point) -> Shape {
        switch self {
        case let .line(a, b):
            return .line(from: a, to: SurfaceLimits.clamp(b + (p - grip)))
        case var .ellipse(e):
            let s = Self.factor(centre: e.center, grip: grip, to: p)
            e.radiusX *= s
            e.radiusY *= s
            return .ellipse(e)
        case let .polygon(corners):
            let c = corners.reduce(Point.zero, +) * (1 / Double(max(corners.count, 1)))
            let s = Self.factor(centre: c, grip: grip, to: p)
            return .polygon(corners.map { c + ($0 - c) * s })
        }
    }

    /// How many times larger a shape about `centre` grows as a grip moves from `grip` to `p`.
    static let scales = 0.05...20.0
    private static func factor(centre: Point, grip: Point, to p: Point) -> Double {
        let s = centre.distance(to: p) / max(centre.distance(to: grip), 1)
        return s.isFinite ? min(max(s, scales.lowerBound), scales.upperBound) : 1
    }
}

/// An ellipse, and where and which way its outline runs.
public struct Ellipse: Hashable, Sendable {
    public var center: Point
    public var radiusX: Double
    public var radiusY: Double
    /// The angle (radians) of its x radius from the window's x axis.
    public var rotation: Double
    /// The parameter angle its outline starts at, and whether it runs toward larger angles.
    public var start: Double
    public var forward: Bool

    public init(center: Point, radiusX: Double, radiusY: Double, rotation: Double, start: Double = 0, forward: Bool = true) {
        self.center = center
        self.radiusX = radiusX
        self.radiusY = radiusY
        self.rotation = rotation
        self.start = start
        self.forward = forward
    }

    /// Ramanujan's approximation of the perimeter.
    var perimeter: Double {
        let a = radiusX, b = radiusY
        return Double.pi * (3 * (a + b) - ((3 * a + b) * (a + 3 * b)).squareRoot())
    }

    /// The point at parameter angle `phi`.
    func point(at phi: Double) -> Point {
        let x = radiusX * cos(phi), y = radiusY * sin(phi)
        return center + Point(x: x * cos(rotation) - y * sin(rotation), y: x * sin(rotation) + y * cos(rotation))
    }

    func outline(count: Int) -> [Point] {
        let step = (forward ? 2 : -2) * Double.pi / Double(count)
        return (0...count).map { point(at: start + step * Double($0)) }
    }
}
