import FolioGeometry
import Foundation

/// Cursive handwriting as samples, for the ink-lag tests and benchmarks alike: loops (a prolate
/// cycloid) of 20 px circles, one every `period` ms, drifting right a loop's width each, sampled
/// every `step` ms from t = 10.
public func cursiveLoops(period: Double, step: Double, duration: Double) -> [(t: Double, p: Point)] {
    let radius = 20.0, angular = 2 * Double.pi / period
    // Typed parts: Swift 6.2 gives up type-checking the one-expression form.
    return stride(from: 0, through: duration, by: step).map { (s: Double) -> (t: Double, p: Point) in
        let x: Double = 60 + 30 * s / period + radius * sin(angular * s)
        let y: Double = 240 - radius * cos(angular * s)
        return (t: 10 + s, p: Point(x: x, y: y))
    }
}

/// A zigzag: straight strokes 60 px long, each `period` ms, turning 90° at each corner (up and
/// down at 45° while drifting right), sampled every `step` ms from t = 10. Each stroke is a hand's
/// point-to-point movement (minimum jerk: speed 0 at both ends, peaking at 1.9 times the mean
/// midway): a hand turning a sharp corner stops there, as a corner taken at speed would need an
/// unbounded acceleration.
public func zigzagStrokes(period: Double, step: Double, duration: Double) -> [(t: Double, p: Point)] {
    let leg = 60 / 2.0.squareRoot()
    return stride(from: 0, through: duration, by: step).map { (s: Double) -> (t: Double, p: Point) in
        let stroke = (s / period).rounded(.down)
        let along = minimumJerk(s / period - stroke)
        let up = Int(stroke) % 2 == 0
        let y: Double = up ? 240 - leg * along : 240 - leg + leg * along
        return (t: 10 + s, p: Point(x: 60 + leg * (stroke + along), y: y))
    }
}

/// A straight line drawn in 60 px strokes to the right, each `period` ms, with a rest of a
/// quarter of that after each (the pen held still, still sampled), sampled every `step` ms from
/// t = 10. Strokes move as `zigzagStrokes`' do.
public func lineWithStops(period: Double, step: Double, duration: Double) -> [(t: Double, p: Point)] {
    let cycle = period * 1.25
    return stride(from: 0, through: duration, by: step).map { (s: Double) -> (t: Double, p: Point) in
        let stroke = (s / cycle).rounded(.down)
        let along = minimumJerk(min((s - stroke * cycle) / period, 1))
        return (t: 10 + s, p: Point(x: 60 + 60 * (stroke + along), y: 240))
    }
}

/// The share of a point-to-point movement done at `f` (0…1) of its time, with minimum jerk.
private func minimumJerk(_ f: Double) -> Double {
    f * f * f * (10 - 15 * f + 6 * f * f)
}

/// The pen's place at `time` on sampled handwriting: the samples joined by straight lines.
public func truePlace(_ samples: [(t: Double, p: Point)], at time: Double) -> Point? {
    guard let after = samples.firstIndex(where: { $0.t >= time }) else { return nil }
    guard after > 0 else { return samples[0].p }
    let a = samples[after - 1], b = samples[after]
    return a.p + (b.p - a.p) * ((time - a.t) / (b.t - a.t))
}

/// Distance from `q` to the pen's path (the samples joined by straight lines) between `from`
/// and `to` (ms).
public func distance(_ q: Point, toPathOf samples: [(t: Double, p: Point)], from: Double, to: Double) -> Double {
    let near = samples.filter { $0.t >= from - 1e-9 && $0.t <= to + 1e-9 }.map(\.p)
    var best = Double.infinity
    for (a, b) in zip(near, near.dropFirst()) {
        let ab = b - a, aq = q - a
        let length2 = ab.x * ab.x + ab.y * ab.y
        let f = length2 > 0 ? min(max((aq.x * ab.x + aq.y * ab.y) / length2, 0), 1) : 0
        best = min(best, q.distance(to: a + ab * f))
    }
    return near.count == 1 ? q.distance(to: near[0]) : best
}

/// The handwriting the ink-lag tests and benchmarks replay: each shape at a fast and a slow pace.
public enum HandwritingShape: String, CaseIterable, Sendable {
    case loops, zigzag, stops

    /// The shape at `fast` or slow pace, sampled every `step` ms for `duration` ms.
    public func samples(fast: Bool, step: Double, duration: Double) -> [(t: Double, p: Point)] {
        switch self {
        case .loops: cursiveLoops(period: fast ? 200 : 600, step: step, duration: duration)
        case .zigzag: zigzagStrokes(period: fast ? 150 : 450, step: step, duration: duration)
        case .stops: lineWithStops(period: fast ? 200 : 600, step: step, duration: duration)
        }
    }
}

/// The samples as one stroke of a pen (tablet events) or a finger (touch events).
public func handwritingTrace(_ samples: [(t: Double, p: Point)], pen: Bool) -> String {
    var lines: [String] = pen ? ["{\"t\": \(samples[0].t), \"kind\": \"tablet.proximity_in\", \"tool\": \"pen\"}"] : []
    for (index, (t, p)) in samples.enumerated() {
        if pen {
            lines.append("{\"t\": \(t), \"kind\": \"tablet.motion\", \"x\": \(p.x), \"y\": \(p.y), \"pressure\": 0.5}")
            if index == 0 { lines.append("{\"t\": \(t), \"kind\": \"tablet.down\"}") }
            lines.append("{\"t\": \(t), \"kind\": \"tablet.frame\"}")
        } else {
            let kind = index == 0 ? "touch.down" : "touch.motion"
            lines.append("{\"t\": \(t), \"kind\": \"\(kind)\", \"id\": 1, \"x\": \(p.x), \"y\": \(p.y)}")
            lines.append("{\"t\": \(t), \"kind\": \"touch.frame\"}")
        }
    }
    let end = (samples.last?.t ?? 0) + 4
    lines += pen ? ["{\"t\": \(end), \"kind\": \"tablet.up\"}", "{\"t\": \(end), \"kind\": \"tablet.frame\"}"]
        : ["{\"t\": \(end), \"kind\": \"touch.up\", \"id\": 1}", "{\"t\": \(end), \"kind\": \"touch.frame\"}"]
    return lines.joined(separator: "\n")
}
