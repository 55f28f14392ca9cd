import Foundation
import FolioGeometry
import FolioRandom

/// Strokes as a hand draws them, from a seed: shapes drawn wobbly (a slow drift off the ideal
/// outline, a tremor on every sample, an uneven pace, rounded corners, a closed shape's end
/// short of its start or past it), and freehand that is no shape (handwriting, scribbles,
/// spirals, waves, curves, zigzags, letters).
struct SyntheticStrokes {
    var random: SeededRandom

    init(seed: UInt64) {
        random = SeededRandom(state: seed)
    }

    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * random.unit()
    }

    // MARK: - Shapes drawn wobbly

    /// A straight line of 60–500 px at any angle.
    mutating func line() -> [Point] {
        let length = uniform(60...500), angle = uniform(0...(2 * Double.pi))
        let a = Point(x: uniform(100...1500), y: uniform(100...900))
        let b = a + Point(x: cos(angle), y: sin(angle)) * length
        return drawn(open: true, length: length) { a + (b - a) * $0 }
    }

    /// An ellipse (or, with `ratio` 1, a circle) of radii 30–250 px.
    mutating func ellipse(ratio: ClosedRange<Double>) -> [Point] {
        let rx = uniform(40...250), ry = rx * uniform(ratio), rotation = uniform(0...Double.pi)
        let c = Point(x: uniform(300...1300), y: uniform(300...800))
        let start = uniform(0...(2 * Double.pi)), direction = random.next(2) == 0 ? 1.0 : -1.0
        let perimeter = Double.pi * (rx + ry)
        return drawn(open: false, length: perimeter) { t in
            let phi = start + direction * 2 * Double.pi * t
            let x = rx * cos(phi), y = ry * sin(phi)
            return c + Point(x: x * cos(rotation) - y * sin(rotation), y: x * sin(rotation) + y * cos(rotation))
        }
    }

    /// A rectangle of sides 50–400 px in `aspect` (shorter over longer), tilted up to `tilt`.
    mutating func rectangle(aspect: ClosedRange<Double>, tilt: Double) -> [Point] {
        let w = uniform(60...400), h = w * uniform(aspect), angle = uniform(-tilt...tilt)
        let c = Point(x: uniform(300...1300), y: uniform(300...800))
        let u = Point(x: cos(angle), y: sin(angle)), v = Point(x: -sin(angle), y: cos(angle))
        let corners = [c - u * (w / 2) - v * (h / 2), c + u * (w / 2) - v * (h / 2), c + u * (w / 2) + v * (h / 2), c - u * (w / 2) + v * (h / 2)]
        return polygon(corners)
    }

    /// A triangle of 80–400 px with no corner under 30°.
    mutating func triangle() -> [Point] {
        while true {
            let c = Point(x: uniform(300...1300), y: uniform(300...800)), size = uniform(80...400)
            let corners = (0..<3).map { k in
                c + Point(x: cos(Double(k) * 2.1 + uniform(-0.4...0.4)), y: sin(Double(k) * 2.1 + uniform(-0.4...0.4))) * (size * uniform(0.7...1))
            }
            let angles = (0..<3).map { k -> Double in
                let a = corners[(k + 2) % 3] - corners[k], b = corners[(k + 1) % 3] - corners[k]
                return abs(atan2(a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y))
            }
            if angles.allSatisfy({ $0 >= 30 * Double.pi / 180 }) { return polygon(corners) }
        }
    }

    /// A closed polygon from a random corner, either way round, corners rounded a little.
    private mutating func polygon(_ corners: [Point]) -> [Point] {
        var ordered = random.next(2) == 0 ? corners : corners.reversed()
        let first = random.next(ordered.count)
        ordered = Array(ordered[first...] + ordered[..<first])
        let sides = ordered.indices.map { ordered[$0].distance(to: ordered[($0 + 1) % ordered.count]) }
        let perimeter = sides.reduce(0, +)
        let rounding = uniform(0.02...0.06) * (sides.min() ?? 0)
        return drawn(open: false, length: perimeter) { t in
            var along = (t - (t / 1).rounded(.down)) * perimeter
            var k = 0
            while k < sides.count - 1, along > sides[k] { along -= sides[k]; k += 1 }
            let a = ordered[k], b = ordered[(k + 1) % ordered.count], c = ordered[(k + 2) % ordered.count]
            let p = a + (b - a) * min(along / sides[k], 1)
            // Within `rounding` of the next corner the pen cuts toward the side after it.
            let left = sides[k] - along
            guard left < rounding else { return p }
            let cut = (rounding - left) / 2
            let next = (c - b) * (1 / max(b.distance(to: c), 1))
            return p + next * cut
        }
    }

    /// Samples along `ideal` (t from 0 to 1) as a hand draws it: an uneven pace, a slow drift of
    /// up to 3% of `length`'s scale across the path, a tremor of ±0.8 px; a closed shape ends
    /// from 8% short of its start to 12% past it.
    private mutating func drawn(open: Bool, length: Double, _ ideal: (Double) -> Point) -> [Point] {
        let end = open ? 1 : uniform(0.92...1.12)
        let scale = open ? length : length / Double.pi
        let waves = (0..<3).map { _ in (uniform(0.5...4), uniform(0...(2 * Double.pi)), uniform(0...0.01) * scale) }
        let count = Int(uniform(40...200))
        var points: [Point] = []
        var t = 0.0
        let mean = end / Double(count)
        while t <= end {
            let p = ideal(t), q = ideal(min(t + 0.001, end + 0.001))
            let d = q - p, norm = max((d.x * d.x + d.y * d.y).squareRoot(), 1e-9)
            let normal = Point(x: -d.y / norm, y: d.x / norm)
            let drift = waves.reduce(0) { $0 + $1.2 * sin(2 * Double.pi * $1.0 * t + $1.1) }
            points.append(p + normal * drift + Point(x: uniform(-0.8...0.8), y: uniform(-0.8...0.8)))
            t += mean * uniform(0.4...1.6)
        }
        return points
    }

    // MARK: - Freehand that is no shape

    enum Freehand: CaseIterable {
        case handwriting, scribble, spiral, wave, curve, zigzag, letter
    }

    mutating func freehand(_ kind: Freehand) -> [Point] {
        let origin = Point(x: uniform(200...1200), y: uniform(200...800))
        switch kind {
        case .handwriting:
            // Cursive: the pen runs right while each letter loops up and down, letter by letter.
            var points: [Point] = []
            var x = 0.0
            for _ in 0..<(3 + random.next(6)) {
                let height = uniform(15...45), width = uniform(10...25), loop = uniform(-8...12), steps = 12 + random.next(10)
                for s in 0..<steps {
                    let phase = 2 * Double.pi * Double(s) / Double(steps)
                    points.append(origin + Point(x: x + width * Double(s) / Double(steps) + loop * sin(phase), y: -height * (1 - cos(phase)) / 2 + uniform(-0.8...0.8)))
                }
                x += width
            }
            return points
        case .scribble:
            // A random walk that keeps turning: shading, a tangle.
            var p = origin, heading = uniform(0...(2 * Double.pi)), turn = 0.0
            return (0..<(80 + random.next(200))).map { _ in
                turn = turn * 0.8 + uniform(-0.7...0.7)
                heading += turn
                p = p + Point(x: cos(heading), y: sin(heading)) * uniform(3...9)
                return p
            }
        case .spiral:
            let turns = uniform(1.5...3.5), grow = uniform(8...25), start = uniform(0...6.28)
            let steps = Int(turns * 40)
            return (0..<steps).map { s in
                let phi = start + 2 * Double.pi * turns * Double(s) / Double(steps)
                return origin + Point(x: cos(phi), y: sin(phi)) * (5 + grow * phi / (2 * Double.pi))
            }
        case .wave:
            let length = uniform(150...600), amplitude = length * uniform(0.06...0.25), cycles = uniform(1...5)
            return (0..<120).map { s in
                let t = Double(s) / 119
                return origin + Point(x: length * t, y: amplitude * sin(2 * Double.pi * cycles * t))
            }
        case .curve:
            // A smooth curve through 4–8 random points.
            let knots = (0..<(4 + random.next(5))).map { _ in origin + Point(x: uniform(-200...200), y: uniform(-200...200)) }
            return catmullRom(knots)
        case .zigzag:
            let teeth = 3 + random.next(6), width = uniform(15...50), height = uniform(20...80)
            return catmullRom((0...teeth).map { origin + Point(x: Double($0) * width, y: $0 % 2 == 0 ? 0 : height) }, sharp: true)
        case .letter:
            let s = uniform(30...90)
            let templates: [[Point]] = [
                [(0, 0), (1, 0), (0, 1.4), (1, 1.4)],  // Z
                [(0, 1.4), (0, 0), (0.5, 0.8), (1, 0), (1, 1.4)],  // M
                [(0, 0), (0.25, 1.4), (0.5, 0.5), (0.75, 1.4), (1, 0)],  // W
                [(0, 1.4), (0, 0), (1, 1.4), (1, 0)],  // N
                [(1, 0.2), (0.5, 0), (0, 0.3), (0.5, 0.7), (1, 1.1), (0.5, 1.4), (0, 1.2)],  // S
                [(0, 0.3), (0.5, 0), (1, 0.3), (0, 1.4), (1, 1.4)],  // 2
                [(0, 0), (1, 0.3), (0.3, 0.7), (1, 1.1), (0, 1.4)],  // 3
                [(0.5, 0.7), (1, 0.3), (0.5, 0), (0, 0.3), (0.5, 0.7), (1, 1.1), (0.5, 1.4), (0, 1.1), (0.5, 0.7)],  // 8
                [(0, 1.4), (0.5, 0), (1, 1.4), (0.2, 0.9), (0.8, 0.9)],  // A
                [(0.9, 0.1), (0.5, 0), (0, 0.6), (0.5, 1.4), (1, 1), (0.6, 0.8)],  // G
            ].map { $0.map { Point(x: $0.0, y: $0.1) } }
            let template = templates[random.next(templates.count)]
            return catmullRom(template.map { origin + $0 * s + Point(x: uniform(-0.05...0.05) * s, y: uniform(-0.05...0.05) * s) },
                              sharp: random.next(2) == 0)
        }
    }

    /// Samples through `knots`: a Catmull-Rom curve, or straight between them when `sharp`.
    private mutating func catmullRom(_ knots: [Point], sharp: Bool = false) -> [Point] {
        var points: [Point] = []
        for k in 0..<(knots.count - 1) {
            let p0 = knots[max(k - 1, 0)], p1 = knots[k], p2 = knots[k + 1], p3 = knots[min(k + 2, knots.count - 1)]
            let steps = max(4, Int(p1.distance(to: p2) / 6))
            for s in 0..<steps {
                let t = Double(s) / Double(steps)
                if sharp {
                    points.append(p1 + (p2 - p1) * t + Point(x: uniform(-0.8...0.8), y: uniform(-0.8...0.8)))
                    continue
                }
                let t2 = t * t, t3 = t2 * t
                let a = p1 * 2, b = (p2 - p0) * t, c = (p0 * 2 - p1 * 5 + p2 * 4 - p3) * t2, d = (p1 * 3 - p0 - p2 * 3 + p3) * t3
                points.append((a + b + c + d) * 0.5)
            }
        }
        if let last = knots.last { points.append(last) }
        return points
    }
}
