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
