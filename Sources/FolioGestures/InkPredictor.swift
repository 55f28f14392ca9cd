import Foundation
import FolioGeometry

/// Where the pen will be a little ahead of its newest sample, extrapolated from it: from five
/// samples of the last `window` ms, a least-squares quadratic; from three or four (a touch screen
/// every 10–16 ms), the newest step turning at a steady rate, slowing or quickening as the last
/// steps show (`SteadyTurn`). A fit is chosen over a Kalman filter because it has no state to
/// tune or to settle at a stroke's start, and its error on a smooth path is bounded by the window
/// (docs/prediction.md). Pressure is held, not predicted.
public struct InkPredictor: Sendable, Equatable {
    /// How far back (ms) samples are fitted.
    public static let window = 32.0
    /// A newest sample older than this (ms) at the time asked for: the pen rests; nothing is predicted.
    public static let staleAfter = 50.0
    /// Fewer samples than this in the window predict nothing.
    public static let fewestSamples = 3
    /// The path's turn across the window (radians) from which the horizon shrinks, and at which none is left.
    public static let turnDamping = (Double.pi / 2)...(5 * Double.pi / 6)
    /// How much faster than its fastest step sparse motion may be predicted: each step is a chord
    /// averaging the speed half a step back, and a speed-up seen twice carries on past it.
    static let sparseSpeedUp = 1.5

    private struct Sample: Sendable, Equatable {
        let time: Double
        let point: Point
    }

    private var samples: [Sample] = []
    /// The newest sample older than the window: with sparse samples, the fourth that tells a
    /// steady turn from a single one.
    private var older: Sample?
    /// The pen or finger is up: nothing more is predicted.
    public private(set) var isLifted = false

    public init() {}

    /// A sample at `time` (ms); older ones than the window are dropped. Times going back are ignored.
    public mutating func add(_ point: Point, at time: Double) {
        guard !isLifted, time.isFinite, point.x.isFinite, point.y.isFinite else { return }
        if let last = samples.last, time < last.time { return }
        samples.append(Sample(time: time, point: point))
        let oldest = time - Self.window
        if let keep = samples.firstIndex(where: { $0.time >= oldest }), keep > 0 {
            older = samples[keep - 1]
            samples.removeFirst(keep)
        }
    }

    /// The stroke ended: no prediction from now on.
    public mutating func lift() {
        isLifted = true
        samples.removeAll()
        older = nil
    }

    /// The predicted point at `time` (ms), looking no further than `horizonCap` ms past the newest
    /// sample; nil when nothing is predicted (lifted, too few or too old samples, a sharp turn, a
    /// pen slowing to a stop).
    public func predict(at time: Double, horizonCap: Double) -> Point? {
        guard !isLifted, let newest = samples.last, samples.count >= Self.fewestSamples, time.isFinite, horizonCap.isFinite
        else { return nil }
        let ahead = time - newest.time
        guard ahead > 0, ahead <= Self.staleAfter, horizonCap > 0 else { return nil }
        guard let first = samples.first, newest.time - first.time > 1 else { return nil }
        if samples.count < 5 { return predictSparse(ahead: min(ahead, horizonCap)) }
        let (velocity, acceleration) = fit()
        let speed = (velocity.x * velocity.x + velocity.y * velocity.y).squareRoot()
        guard speed > 0, speed.isFinite else { return nil }
        // The turn across the window: the fitted direction at its start against at its end.
        let early = velocity + acceleration * (first.time - newest.time)
        let horizon = min(ahead, horizonCap) * Self.damping(turn: SteadyTurn.angle(between: early, and: velocity))
        guard horizon > 0 else { return nil }
        return bounded(velocity * horizon + acceleration * (horizon * horizon / 2), along: velocity, horizon: horizon)
    }

    /// Three or four samples in the window: a steady turn from them (and the one before the
    /// window, when it is no older than two windows), damped by the turn between the window's
    /// first step and its newest as a fit's is.
    private func predictSparse(ahead: Double) -> Point? {
        guard let newest = samples.last, samples.count >= 3 else { return nil }
        var recent = samples.map { (time: $0.time, point: $0.point) }
        if let older, samples.count == 3, newest.time - older.time <= 2 * Self.window {
            recent.insert((older.time, older.point), at: 0)
        }
        guard let motion = SteadyTurn(recent) else { return nil }
        let turn = SteadyTurn.angle(between: samples[1].point - samples[0].point, and: newest.point - samples[samples.count - 2].point)
        let horizon = ahead * Self.damping(turn: turn)
        guard horizon > 0 else { return nil }
        return bounded(motion.move(over: horizon), along: Point(x: cos(motion.heading), y: sin(motion.heading)), horizon: horizon,
                       speedUp: Self.sparseSpeedUp)
    }

    /// The share of the horizon kept after the path turned `turn` radians across the window.
    private static func damping(turn: Double) -> Double {
        turn <= turnDamping.lowerBound ? 1
            : max(0, (turnDamping.upperBound - turn) / (turnDamping.upperBound - turnDamping.lowerBound))
    }

    /// The newest sample moved by `move`: never backwards against `direction` (a pen slowing
    /// down), never faster than the fastest step in the window times `speedUp`.
    private func bounded(_ move: Point, along direction: Point, horizon: Double, speedUp: Double = 1) -> Point? {
        guard let newest = samples.last, move.x.isFinite, move.y.isFinite, move.x * direction.x + move.y * direction.y > 0
        else { return nil }
        let length = (move.x * move.x + move.y * move.y).squareRoot()
        let reach = fastestStep() * speedUp * horizon
        return newest.point + (length > reach ? move * (reach / length) : move)
    }

    /// Velocity (px/ms) and acceleration (px/ms²) at the newest sample, by least squares over the
    /// window's five or more samples.
    private func fit() -> (Point, Point) {
        guard let newest = samples.last else { return (.zero, .zero) }
        let columns = 3
        // Normal equations of x(τ) = a + bτ (+ cτ²), τ = t − newest.
        var m = [Double](repeating: 0, count: 9)
        var rx = [Double](repeating: 0, count: 3), ry = [Double](repeating: 0, count: 3)
        for sample in samples {
            let t = sample.time - newest.time
            let powers = [1, t, t * t]
            for i in 0..<columns {
                for j in 0..<columns { m[i * 3 + j] += powers[i] * powers[j] }
                rx[i] += powers[i] * sample.point.x
                ry[i] += powers[i] * sample.point.y
            }
        }
        guard let cx = Self.solve(m, rx, columns), let cy = Self.solve(m, ry, columns) else { return (.zero, .zero) }
        return (Point(x: cx[1], y: cy[1]), Point(x: 2 * cx[2], y: 2 * cy[2]))
    }

    /// The largest speed (px/ms) between consecutive samples in the window.
    private func fastestStep() -> Double {
        var fastest = 0.0
        for (a, b) in zip(samples, samples.dropFirst()) where b.time > a.time {
            fastest = max(fastest, a.point.distance(to: b.point) / (b.time - a.time))
        }
        return fastest
    }

    /// Solves the `n`×`n` system (row-major in a 3×3 array) by Gaussian elimination; nil when singular.
    private static func solve(_ matrix: [Double], _ rhs: [Double], _ n: Int) -> [Double]? {
        var a = matrix, b = rhs
        for col in 0..<n {
            guard let pivot = (col..<n).max(by: { abs(a[$0 * 3 + col]) < abs(a[$1 * 3 + col]) }), abs(a[pivot * 3 + col]) > 1e-12
            else { return nil }
            if pivot != col {
                for k in 0..<n { a.swapAt(col * 3 + k, pivot * 3 + k) }
                b.swapAt(col, pivot)
            }
            for row in (col + 1)..<n {
                let f = a[row * 3 + col] / a[col * 3 + col]
                for k in col..<n { a[row * 3 + k] -= f * a[col * 3 + k] }
                b[row] -= f * b[col]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            var sum = b[row]
            for k in (row + 1)..<n { sum -= a[row * 3 + k] * x[k] }
            x[row] = sum / a[row * 3 + row]
        }
        return x
    }
}
