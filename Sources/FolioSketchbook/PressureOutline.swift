import Foundation
import FolioGeometry

/// One convex piece of a pressure stroke's filled outline, in logical pixels.
public enum OutlinePiece: Hashable, Sendable {
    /// A slice of the ribbon around the centre line: `a`, `b` on one side, `c`, `d` on the other
    /// (`d` across from `a`). When `continuesRun`, it shares its `a`–`d` edge exactly with the
    /// previous quad, so the two tile the ribbon without overlap.
    case quad(Point, Point, Point, Point, continuesRun: Bool)
    /// A round end or joint: where the stroke begins and ends, and where it bends too sharply
    /// for the ribbon to go on.
    case disc(centre: Point, radius: Double)
}

/// The filled outline of a variable-width stroke, built around `InkSmoother`'s centre line:
/// the path is sampled as finely as the tolerances need, each sample gets the radius its
/// smoothed pressure gives, and the samples are joined by a ribbon of quads whose shared edges
/// lie along the bisectors of their joints, so slow strokes show no seams or beads; discs round
/// the ends and the sharp bends. The union of the pieces is the ink. The renderer fills exactly
/// these pieces and the SVG export writes them as paths, so screen, PNG and SVG agree.
public enum PressureOutline {
    /// Largest distance between the sampled centre line and the smoothed curve (logical px).
    static let flatteningTolerance = 0.02
    /// Longest step between samples (logical px) where nothing else bounds the width's error,
    /// and of the step into every element's end: that step is all of an element that changes
    /// when what follows it does, so a live stroke's damage stays near its end.
    static let longestStep = 2.0
    /// Largest distance between the half-width the ribbon gives between two samples and the one
    /// the smoothed pressure gives there (logical px), where the curve lets it be bounded.
    static let widthTolerance = 0.02
    /// Most samples one path element may become.
    static let maximumSamples = 4096
    /// Largest distance a bisector cut may stand out of the round joint it replaces (logical px).
    static let mitreTolerance = 0.02

    struct Sample {
        var point: Point
        var radius: Double
    }

    /// Calls `visit` with the pieces of the stroke's outline.
    public static func pieces(path: [PathElement], pressures: [PathElement], curve: PressureCurve, visit: (OutlinePiece) -> Void) {
        pieces(count: path.count, element: { path[$0] }, pressure: { $0 < pressures.count ? pressures[$0] : nil },
               curve: curve, visit: visit)
    }

    /// The same, reading elements by index (`pressure` nil where it has none): a stroke with a
    /// provisional tail is read where it is, without copying the path.
    public static func pieces(count: Int, element: (Int) -> PathElement, pressure: (Int) -> PathElement?, curve: PressureCurve,
                              visit: (OutlinePiece) -> Void) {
        var walker = Walker(curve: curve, pressure: pressureEnd(pressure, 0))
        for index in 0..<count { walker.add(element(index), pressure: pressure(index), visit: visit) }
        walker.finish(visit: visit)
    }

    /// The outline made element by element: each piece is visited once what follows it is known,
    /// so what a walker has visited never changes as the path grows. A live stroke keeps one
    /// over its finished elements and finishes a copy of it over its provisional end.
    public struct Walker: Sendable {
        private let curve: PressureCurve
        private var ribbon = Ribbon()
        /// Where the last element ended, and its pressure there.
        private var point = Point.zero
        private var pressure: Double

        /// A walk from the start of a path whose first element (a move) has `pressure`.
        public init(curve: PressureCurve, pressure: Double) {
            self.curve = curve
            self.pressure = pressure
        }

        /// The next element of the path, with its pressure element (nil: the pressure stays).
        public mutating func add(_ current: PathElement, pressure pressureElement: PathElement?, visit: (OutlinePiece) -> Void) {
            let pressureElement = pressureElement ?? .line(to: Point(x: pressure, y: 0))
            if case let .move(p) = current {
                ribbon.finish(visit: visit)
                point = p
                pressure = pressureElement.endPoint.x
                ribbon.add(Sample(point: p, radius: radius(curve, pressure)), visit: visit)
                return
            }
            sample(current, from: point, pressure: pressureElement, from: pressure, curve: curve) { p, q in
                let last = ribbon.last?.point ?? point
                let d = p - last
                if ribbon.last == nil || d.x * d.x + d.y * d.y > 1e-6 {
                    ribbon.add(Sample(point: p, radius: radius(curve, q)), visit: visit)
                } else {
                    // A repeated point: the later pressure stands.
                    ribbon.last?.radius = radius(curve, q)
                }
            }
            point = current.endPoint
            pressure = pressureElement.endPoint.x
        }

        /// The pieces still held back: the path ends here.
        public mutating func finish(visit: (OutlinePiece) -> Void) {
            ribbon.finish(visit: visit)
        }
    }

    private static func radius(_ curve: PressureCurve, _ pressure: Double) -> Double { curve.width(at: pressure) / 2 }

    private static func pressureEnd(_ pressure: (Int) -> PathElement?, _ index: Int) -> Double {
        pressure(index)?.endPoint.x ?? 0
    }

    /// Where the samples of `element` (which starts at `start`) put the start of its last step:
    /// the outline changes from there to the element's end when whatever follows it changes
    /// (the joint at the end moves), and nowhere else along the element.
    public static func lastStepStart(of element: PathElement, from start: Point) -> Point {
        guard let (_, fine) = grid(element, from: start), fine > 1 else { return start }
        return element.point(at: Double(fine - 1) / Double(fine), from: start)
    }

    /// Wang's sample count for `element` within `flatteningTolerance`, and the count of the
    /// grid whose steps are no longer than `longestStep` (and that tolerance); nil for a move.
    private static func grid(_ element: PathElement, from start: Point) -> (wang: Double, fine: Int)? {
        let hull: Double, wang: Double
        switch element {
        case .move: return nil
        case let .line(p):
            hull = start.distance(to: p)
            wang = 0
        case let .quad(c, p):
            hull = start.distance(to: c) + c.distance(to: p)
            wang = (magnitude(start - c * 2 + p) / (4 * flatteningTolerance)).squareRoot()
        case let .curve(c1, c2, p):
            hull = start.distance(to: c1) + c1.distance(to: c2) + c2.distance(to: p)
            let bend = max(magnitude(start - c1 * 2 + c2), magnitude(c1 - c2 * 2 + p))
            wang = (0.75 * bend / flatteningTolerance).squareRoot()
        }
        return (wang, sampleCount(max(wang, hull / longestStep, 1)))
    }

    /// Calls `visit(point, pressure)` along `element` from `start`, `start` excluded, within
    /// `flatteningTolerance` of the curve and, for the linear pressure curve, with the width
    /// within `widthTolerance` of the pressure's; the last step is the `longestStep` grid's
    /// last. The pressure element (its x is the pressure) is evaluated at the same parameter:
    /// it comes from the same smoother, so it has the same shape of control points.
    ///
    /// Samples depend only on the element, its start and its pressure, never on what is drawn
    /// around it, so a live stroke's outline is the baked one's.
    private static func sample(_ element: PathElement, from start: Point, pressure: PathElement, from startPressure: Double,
                               curve: PressureCurve, visit: (Point, Double) -> Void) {
        guard let (wang, fine) = grid(element, from: start) else { return }
        let sameShape = switch (element, pressure) {
        case (.line, .line), (.quad, .quad), (.curve, .curve): true
        default: false
        }
        // Fewer samples where the tolerances allow, by Wang's formula for the centre line and
        // for the half-width. With the linear curve the half-width is the pressure's Bézier
        // scaled, so its bend bounds the error of the straight sides; with any other curve it
        // is not bounded that way, and the samples keep to the fine grid.
        var widthBend = 0.0
        let halfSpread = (curve.maximum - curve.minimum) / 2
        switch (pressure, sameShape) {
        case let (.quad(q1, q2), true):
            widthBend = (halfSpread * abs(startPressure - 2 * q1.x + q2.x) / (4 * widthTolerance)).squareRoot()
        case let (.curve(q1, q2, q3), true):
            let pressureBend = max(abs(startPressure - 2 * q1.x + q2.x), abs(q1.x - 2 * q2.x + q3.x))
            widthBend = (0.75 * halfSpread * pressureBend / widthTolerance).squareRoot()
        default:
            break
        }
        let n = curve.exponent == 1 ? min(sampleCount(max(wang, widthBend, 1)), fine) : fine
        let pressureStart = Point(x: startPressure, y: 0), pressureEnd = pressure.endPoint.x
        func pressureAt(_ t: Double) -> Double {
            sameShape ? pressure.point(at: t, from: pressureStart).x : startPressure + (pressureEnd - startPressure) * t
        }
        for i in 1..<n {
            let t = Double(i) / Double(n)
            visit(element.point(at: t, from: start), pressureAt(t))
        }
        // The step into the end is the fine grid's last (see `lastStepStart`).
        if n < fine {
            let t = Double(fine - 1) / Double(fine)
            visit(element.point(at: t, from: start), pressureAt(t))
        }
        visit(element.endPoint, pressureAt(1))
    }

    /// `wanted` samples rounded up: at least one, at most `maximumSamples` (also when not finite).
    private static func sampleCount(_ wanted: Double) -> Int {
        let n = wanted.rounded(.up)
        guard n.isFinite, n < Double(maximumSamples) else { return maximumSamples }
        return max(Int(n), 1)
    }

    private static func magnitude(_ v: Point) -> Double { (v.x * v.x + v.y * v.y).squareRoot() }

    /// The ribbon and discs around consecutive, distinct samples, made as the samples come: a
    /// piece is visited once the sample after its end is known (its joint depends on it), and
    /// the last sample's radius may still change until then. Nothing is allocated.
    private struct Ribbon {
        /// The newest sample, and the one before it.
        var last: Sample?
        private var previous: Sample?
        /// From `previous` to `last`.
        private var direction = (unit: Point.zero, length: 0.0)
        /// The edge the next quad starts from, and whether it goes on from the quad before.
        private var start = (Point.zero, Point.zero)
        private var continues = false

        mutating func add(_ sample: Sample, visit: (OutlinePiece) -> Void) {
            defer { last = sample }
            guard let b = last else { return }
            let d = sample.point - b.point
            let length = (d.x * d.x + d.y * d.y).squareRoot()
            let next = (unit: Point(x: d.x / length, y: d.y / length), length: length)
            if previous == nil {
                // `b` is the first sample: its radius is final now.
                visit(.disc(centre: b.point, radius: b.radius))
                start = PressureOutline.square(b, next.unit)
                continues = false
            } else {
                let joint = gentleJoint(b, direction, next)
                let end = joint ?? PressureOutline.square(b, direction.unit)
                visit(.quad(start.0, end.0, end.1, start.1, continuesRun: continues))
                if let joint {
                    start = joint
                    continues = true
                } else {
                    visit(.disc(centre: b.point, radius: b.radius))
                    start = PressureOutline.square(b, next.unit)
                    continues = false
                }
            }
            previous = b
            direction = next
        }

        /// The last piece, and a fresh start.
        mutating func finish(visit: (OutlinePiece) -> Void) {
            defer { self = Ribbon() }
            guard let b = last else { return }
            guard previous != nil else { return visit(.disc(centre: b.point, radius: b.radius)) }
            let end = PressureOutline.square(b, direction.unit)
            visit(.quad(start.0, end.0, end.1, start.1, continuesRun: continues))
            visit(.disc(centre: b.point, radius: b.radius))
        }
    }

    /// The ends of the ribbon's cut square across `u` at `s`.
    private static func square(_ s: Sample, _ u: Point) -> (Point, Point) {
        let n = Point(x: -u.y, y: u.x) * s.radius
        return (s.point + n, s.point - n)
    }

    /// The cut along the bisector at `s` between two directions, when the bend is gentle (see
    /// `Mitre`) and both head into the same quarter of the compass, so a run never comes back over
    /// itself and its quads never overlap.
    private static func gentleJoint(_ s: Sample, _ d1: (unit: Point, length: Double), _ d2: (unit: Point, length: Double))
        -> (Point, Point)? {
        guard Mitre.quarter(d1.unit) == Mitre.quarter(d2.unit) else { return nil }
        let n1 = Point(x: -d1.unit.y, y: d1.unit.x), n2 = Point(x: -d2.unit.y, y: d2.unit.x)
        guard let mitre = Mitre.offset(n1, n2, radius: s.radius, tolerance: mitreTolerance,
                                       shorterPiece: min(d1.length, d2.length)) else { return nil }
        return (s.point + mitre, s.point - mitre)
    }
}
