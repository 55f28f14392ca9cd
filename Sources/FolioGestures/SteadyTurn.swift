import Foundation
import FolioGeometry

/// Motion from sparse samples (a touch screen every 10–16 ms, three or four to a prediction
/// window): the newest step's speed and its trend, turning at a steady rate. On a curve a straight
/// line drawn along the newest step leaves the path at once (a 200 ms loop turns 29° between two
/// samples 16 ms apart); a steady turn follows it. The turn rate is the smaller of the last two
/// steps' rates, and none when they turn opposite ways or only one is known: a corner, a wiggle or
/// noise turns once, a curve keeps turning, and a rate seen only once is not trusted. Slowing down
/// is trusted at once (a hand slows into a corner or a stop), speeding up only when seen twice.
struct SteadyTurn {
    /// The newest sample's velocity direction (radians), speed (px/ms), turn rate (radians/ms)
    /// and speed's rate of change (px/ms²).
    let heading: Double
    let speed: Double
    let rate: Double
    let acceleration: Double

    /// From samples oldest first (three or four; more are not needed); nil with fewer than three
    /// or a step of no time or no length.
    init?(_ samples: [(time: Double, point: Point)]) {
        guard samples.count >= 3 else { return nil }
        var steps: [(direction: Double, time: Double, length: Double)] = []
        for (a, b) in zip(samples, samples.dropFirst()) {
            let d = b.point - a.point
            let length = (d.x * d.x + d.y * d.y).squareRoot()
            guard b.time > a.time, length > 0, length.isFinite else { return nil }
            steps.append((atan2(d.y, d.x), b.time - a.time, length))
        }
        let pairs = Array(zip(steps, steps.dropFirst()))
        let rates = pairs.map { (a, b) in Self.wrapped(b.direction - a.direction) / ((a.time + b.time) / 2) }
        let accelerations = pairs.map { (a, b) in (b.length / b.time - a.length / a.time) / ((a.time + b.time) / 2) }
        let rate = Self.seenTwice(rates)
        guard let newest = steps.last, let trend = accelerations.last else { return nil }
        let acceleration = trend < 0 ? trend : Self.seenTwice(accelerations)
        // A chord of a steady turn points half its turn behind the end's direction; its speed is
        // the speed half a step before the end.
        heading = newest.direction + rate * newest.time / 2
        speed = max(0, newest.length / newest.time + acceleration * newest.time / 2)
        self.rate = rate
        self.acceleration = acceleration
    }

    /// The move (px) over `horizon` ms along the arc, the speed changing steadily until it stops.
    func move(over horizon: Double) -> Point {
        let stops = acceleration < 0 ? speed / -acceleration : Double.infinity
        let moving = min(horizon, stops)
        // Midpoint steps: the arc with a changing speed has no closed form worth its terms.
        let steps = 16
        let dt = moving / Double(steps)
        var x = 0.0, y = 0.0
        for i in 0..<steps {
            let t = (Double(i) + 0.5) * dt
            let distance = (speed + acceleration * t) * dt
            x += cos(heading + rate * t) * distance
            y += sin(heading + rate * t) * distance
        }
        return Point(x: x, y: y)
    }

    /// The smaller of the last two values when both have one sign, else none.
    private static func seenTwice(_ values: [Double]) -> Double {
        guard values.count >= 2, let newest = values.last else { return 0 }
        let before = values[values.count - 2]
        guard newest * before > 0 else { return 0 }
        return newest > 0 ? min(newest, before) : max(newest, before)
    }

    /// The angle (radians, 0…π) between two directions; 0 when either has no length.
    static func angle(between a: Point, and b: Point) -> Double {
        let lengths = (a.x * a.x + a.y * a.y).squareRoot() * (b.x * b.x + b.y * b.y).squareRoot()
        guard lengths > 0, lengths.isFinite else { return 0 }
        return acos(min(max((a.x * b.x + a.y * b.y) / lengths, -1), 1))
    }

    /// An angle brought into −π…π.
    private static func wrapped(_ angle: Double) -> Double {
        let turned = angle.truncatingRemainder(dividingBy: 2 * Double.pi)
        if turned > Double.pi { return turned - 2 * Double.pi }
        if turned < -Double.pi { return turned + 2 * Double.pi }
        return turned
    }
}
