import Foundation
import FolioGeometry

/// Motion from sparse samples (a touch screen every 10–16 ms, three or four to a prediction
/// window): the newest step's speed, turning at a steady rate. On a curve a straight line drawn
/// along the newest step leaves the path at once (a 200 ms loop turns 29° between two samples
/// 16 ms apart); a steady turn follows it. The turn rate is the smaller of the last two steps'
/// rates, and none when they turn opposite ways or only one is known: a corner, a wiggle or
/// noise turns once, a curve keeps turning, and a rate seen only once is not trusted.
struct SteadyTurn {
    /// The newest sample's velocity direction (radians), speed (px/ms) and turn rate (radians/ms).
    let heading: Double
    let speed: Double
    let rate: Double

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
        let rates = zip(steps, steps.dropFirst()).map { (a, b) -> Double in
            Self.wrapped(b.direction - a.direction) / ((a.time + b.time) / 2)
        }
        var rate = 0.0
        if rates.count >= 2, let newest = rates.last {
            let before = rates[rates.count - 2]
            if newest * before > 0 { rate = newest > 0 ? min(newest, before) : max(newest, before) }
        }
        guard let newest = steps.last else { return nil }
        // A chord of a steady turn points half its turn behind the end's direction.
        heading = newest.direction + rate * newest.time / 2
        speed = newest.length / newest.time
        self.rate = rate
    }

    /// The move (px) over `horizon` ms along the arc.
    func move(over horizon: Double) -> Point {
        let swept = rate * horizon
        guard abs(swept) > 1e-9 else {
            let direction = Point(x: cos(heading), y: sin(heading))
            let distance: Double = speed * horizon
            return direction * distance
        }
        let radius = speed / rate
        let end: Double = heading + swept
        return Point(x: sin(end) - sin(heading), y: cos(heading) - cos(end)) * radius
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
