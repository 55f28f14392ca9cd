import Foundation
import FolioGeometry

/// Where the pen will be a little ahead of its newest sample: a least-squares fit of the samples
/// of the last `window` ms (quadratic from five samples; from three or four, the line through the
/// newest two), extrapolated from the newest sample. A fit is chosen over a Kalman filter because it has no state to tune or to
/// settle at a stroke's start, and its error on a smooth path is bounded by the window
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

    private struct Sample: Sendable, Equatable {
        let time: Double
        let point: Point
    }

    private var samples: [Sample] = []
    /// The pen or finger is up: nothing more is predicted.
    public private(set) var isLifted = false

    public init() {}

    /// A sample at `time` (ms); older ones than the window are dropped. Times going back are ignored.
    public mutating func add(_ point: Point, at time: Double) {
        guard !isLifted, time.isFinite, point.x.isFinite, point.y.isFinite else { return }
        if let last = samples.last, time < last.time { return }
        samples.append(Sample(time: time, point: point))
        let oldest = time - Self.window
        if let keep = samples.firstIndex(where: { $0.time >= oldest }), keep > 0 { samples.removeFirst(keep) }
    }

    /// The stroke ended: no prediction from now on.
    public mutating func lift() {
        isLifted = true
        samples.removeAll()
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
        let (velocity, acceleration) = fit()
        let speed = (velocity.x * velocity.x + velocity.y * velocity.y).squareRoot()
        guard speed > 0, speed.isFinite else { return nil }
        // The turn across the window: the fitted direction at its start against at its end.
        let span = first.time - newest.time
        let early = velocity + acceleration * span
        let earlySpeed = (early.x * early.x + early.y * early.y).squareRoot()
        let cosTurn = earlySpeed > 0 ? (early.x * velocity.x + early.y * velocity.y) / (earlySpeed * speed) : 1
        let turn = acos(min(max(cosTurn, -1), 1))
        let damping = turn <= Self.turnDamping.lowerBound ? 1
            : max(0, (Self.turnDamping.upperBound - turn) / (Self.turnDamping.upperBound - Self.turnDamping.lowerBound))
        let horizon = min(ahead, horizonCap) * damping
        guard horizon > 0 else { return nil }
        var move = velocity * horizon + acceleration * (horizon * horizon / 2)
        // Never backwards (a pen slowing down), never faster than the fastest step in the window.
        guard move.x.isFinite, move.y.isFinite, move.x * velocity.x + move.y * velocity.y > 0 else { return nil }
        let length = (move.x * move.x + move.y * move.y).squareRoot()
        let reach = fastestStep() * horizon
        if length > reach { move = move * (reach / length) }
        return newest.point + move
    }

    /// Velocity (px/ms) and acceleration (px/ms²) at the newest sample: by least squares from five
    /// samples; from fewer (a 60 Hz touch screen), the line through the newest two. A line fitted
    /// over the whole window points where the finger went half a window ago, and on a curve,
    /// extrapolating it goes wider than not predicting at all.
    private func fit() -> (Point, Point) {
        guard let newest = samples.last else { return (.zero, .zero) }
        let quadratic = samples.count >= 5
        if !quadratic, samples.count >= 2 {
            let previous = samples[samples.count - 2]
            let step = newest.time - previous.time
            if step > 0 { return ((newest.point - previous.point) * (1 / step), .zero) }
        }
        let columns = quadratic ? 3 : 2
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
        return (Point(x: cx[1], y: cy[1]), quadratic ? Point(x: 2 * cx[2], y: 2 * cy[2]) : .zero)
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
