import Foundation
import FolioGeometry

/// The look of ink: 6 px blue unless the toolbar chose another; each stroke keeps its own, so
/// books and exports draw it as it was drawn.
public struct InkStyle: Hashable, Sendable, Codable {
    /// Width in logical pixels.
    public var width: Double
    /// 0xRRGGBB.
    public var color: UInt32

    public init(width: Double = 6.0, color: UInt32 = 0x0000FF) {
        self.width = width
        self.color = color
    }

    public static let standard = InkStyle()
}

/// How a pen's pressure (0–1) becomes ink width: `minimum` at the lightest touch, `maximum` at
/// the firmest, along pressure^`exponent` between them (widths in logical pixels).
public struct PressureCurve: Hashable, Sendable, Codable {
    public var minimum: Double
    public var maximum: Double
    public var exponent: Double

    /// Widths are clamped to this range (logical pixels), exponents to `exponents`.
    public static let widths: ClosedRange<Double> = 0.5...100
    public static let exponents: ClosedRange<Double> = 0.1...10

    public init(minimum: Double = 2, maximum: Double = 9, exponent: Double = 1) {
        func width(_ w: Double) -> Double { w.isNaN ? Self.widths.lowerBound : min(max(w, Self.widths.lowerBound), Self.widths.upperBound) }
        self.minimum = width(minimum)
        self.maximum = max(width(maximum), self.minimum)
        self.exponent = exponent.isNaN ? 1 : min(max(exponent, Self.exponents.lowerBound), Self.exponents.upperBound)
    }

    public static let standard = PressureCurve()

    /// The ink width at `pressure` (clamped to 0–1).
    public func width(at pressure: Double) -> Double {
        let p = pressure.isNaN ? 0 : min(max(pressure, 0), 1)
        // The default linear curve skips pow: p^1 is p exactly, and pow costs more than the rest.
        return minimum + (maximum - minimum) * (exponent == 1 ? p : pow(p, exponent))
    }
}

/// A stroke as data: the input points the finger gave, in logical pixels. The smoothed path
/// is derived from them, so the bitmap is always a cache that can be rebuilt.
///
/// A pen's stroke also carries a pressure (0–1) and perhaps a tilt per point; its width then
/// follows `pressureCurve` rather than `style.width`. Finger and mouse strokes have neither.
public struct Stroke: Hashable, Sendable, Codable {
    public var points: [Point]
    public var style: InkStyle
    /// One per point, when the stroke came from a pen that reports pressure.
    public var pressures: [Double]?
    /// One per point, when the pen reports tilt (kept for later inks; widths ignore it).
    public var tilts: [PenTilt]?
    public var pressureCurve: PressureCurve = .standard
    /// When it was drawn, for playing the sheet back; nil for strokes kept before Folio kept times.
    public var times: StrokeTimes?

    /// A pressureless stroke codes as it always did; the curve is the app's, not the stroke's.
    private enum CodingKeys: String, CodingKey {
        case points, style, pressures, tilts
    }

    public init(points: [Point], style: InkStyle = .standard, pressures: [Double]? = nil, tilts: [PenTilt]? = nil,
                pressureCurve: PressureCurve = .standard, times: StrokeTimes? = nil) {
        self.points = points
        self.style = style
        self.pressures = pressures
        self.tilts = tilts
        self.pressureCurve = pressureCurve
        self.times = times
    }

    /// Whether the width follows pressure (one pressure per point).
    public var hasPressure: Bool { pressures?.count == points.count && !points.isEmpty }

    /// Whether the stroke keeps when each of its points was drawn (valid times, one per point).
    public var hasTimes: Bool { times?.isValid(forPoints: points.count) ?? false }

    /// The widest the ink may be anywhere along the stroke, in logical pixels.
    public var maximumWidth: Double {
        guard hasPressure, let pressures else { return style.width }
        return pressureCurve.width(at: pressures.max() ?? 0)
    }

    /// Pressure smoothed exactly as the points are, as a path whose x is the pressure: element k
    /// gives the pressure along element k of `path`. Empty without pressure.
    public var pressurePath: [PathElement] {
        guard hasPressure, let pressures, let first = pressures.first else { return [] }
        var smoother = InkSmoother(start: Point(x: first, y: 0))
        for p in pressures.dropFirst() { smoother.add(Point(x: p, y: 0)) }
        return smoother.fullPath
    }

    /// The smoothed path, including the tail after the last whole segment.
    public var path: [PathElement] {
        guard let first = points.first else { return [] }
        var smoother = InkSmoother(start: first)
        for p in points.dropFirst() { smoother.add(p) }
        return smoother.fullPath
    }

    /// Bounds of everything this stroke may paint, in logical pixels (hull of the path,
    /// grown by half the ink width and a pixel of antialiasing).
    public var bounds: Rect {
        let margin = maximumWidth / 2 + 1
        return path.reduce(Rect.null) { $0.union($1.controlBounds) }.insetBy(dx: -margin, dy: -margin)
    }
}

extension Stroke {
    /// Pressure in the steps a book keeps it (tablet-v2's own: 1/65535), clamped to 0–1; a
    /// stroke whose pressures are already in those steps reads back from its book unchanged.
    public static func kept(pressure: Double) -> Double {
        Double(pressureStep(pressure)) / 65535
    }

    /// Tilt in the steps a book keeps it (tablet-v2's own: 1/256 degree), within ±90 degrees.
    public static func kept(tilt: PenTilt) -> PenTilt {
        PenTilt(x: Double(tiltStep(tilt.x)) / 256, y: Double(tiltStep(tilt.y)) / 256)
    }

    /// `pressure` (clamped to 0–1, not a number as 0) in 1/65535 steps.
    static func pressureStep(_ pressure: Double) -> UInt16 {
        let p = pressure.isNaN ? 0 : min(max(pressure, 0), 1)
        return UInt16((p * 65535).rounded())
    }

    /// A tilt angle (clamped to ±90 degrees, not a number as upright) in 1/256-degree steps.
    static func tiltStep(_ degrees: Double) -> Int16 {
        let d = degrees.isNaN ? 0 : min(max(degrees, PenTilt.range.lowerBound), PenTilt.range.upperBound)
        return Int16((d * 256).rounded())
    }
}

extension Point: Codable {
    public init(from decoder: Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init(x: try container.decode(Double.self), y: try container.decode(Double.self))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(x)
        try container.encode(y)
    }
}

extension Stroke {
    /// Whether the segment `a`–`b`, grown by `radius`, touches the ink of this stroke: it comes
    /// within `radius` plus half the ink's width of the smoothed centre line.
    public func isCrossed(from a: Point, to b: Point, radius: Double) -> Bool {
        let reach = radius + maximumWidth / 2
        let box = bounds.insetBy(dx: -radius, dy: -radius)
        let segmentBox = Rect(bounding: [a, b])
        guard box.minX <= segmentBox.maxX, segmentBox.minX <= box.maxX, box.minY <= segmentBox.maxY,
              segmentBox.minY <= box.maxY else { return false }
        var previous: Point?
        for element in path {
            let start = previous ?? element.endPoint
            let steps: Int
            switch element {
            case .move, .line: steps = 1
            case .quad, .curve: steps = 8
            }
            for i in 1...steps {
                let p = element.point(at: Double(i) / Double(steps), from: start)
                if Self.distance(between: (previous ?? p, p), and: (a, b)) <= reach { return true }
                previous = p
            }
        }
        return false
    }

    /// The shortest distance between two segments.
    static func distance(between s: (Point, Point), and t: (Point, Point)) -> Double {
        if segmentsCross(s, t) { return 0 }
        return min(distance(from: s.0, to: t), distance(from: s.1, to: t), distance(from: t.0, to: s), distance(from: t.1, to: s))
    }

    private static func distance(from p: Point, to s: (Point, Point)) -> Double {
        let d = s.1 - s.0, lengthSquared = d.x * d.x + d.y * d.y
        guard lengthSquared > 0 else { return p.distance(to: s.0) }
        let t = min(max(((p.x - s.0.x) * d.x + (p.y - s.0.y) * d.y) / lengthSquared, 0), 1)
        return p.distance(to: s.0 + d * t)
    }

    private static func segmentsCross(_ s: (Point, Point), _ t: (Point, Point)) -> Bool {
        func side(_ a: Point, _ b: Point, _ c: Point) -> Double { (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x) }
        let d1 = side(t.0, t.1, s.0), d2 = side(t.0, t.1, s.1), d3 = side(s.0, s.1, t.0), d4 = side(s.0, s.1, t.1)
        return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))
    }
}

extension PathElement {
    /// The point at parameter `t` (0–1) along this element, which starts at `start`.
    func point(at t: Double, from start: Point) -> Point {
        let mt = 1 - t
        switch self {
        case let .move(p): return p
        case let .line(p): return start * mt + p * t
        case let .quad(c, p): return start * (mt * mt) + c * (2 * mt * t) + p * (t * t)
        case let .curve(c1, c2, p):
            return start * (mt * mt * mt) + c1 * (3 * mt * mt * t) + c2 * (3 * mt * t * t) + p * (t * t * t)
        }
    }
}
