import Foundation
import FolioBench
import FolioGeometry
import FolioGestures
import FolioInput
import FolioReplay
import FolioTestSupport

/// What a person sees of ink, through `folio replay`'s simulated display (render costs on its
/// clock as measured in this process): `ink.latency`, a sample's time to the presentation of the
/// first frame drawing it, with late commits off and on; `ink.lag`, the distance (logical px)
/// from the pen's true place at a frame's vblank to the end of the ink that frame shows, with
/// prediction off and on. Mirrors `InkLagTests`, which checks the same figures' goals.
enum InkBenchmarks {
    static let width = 1000, height = 480

    /// The replay of `samples` on `display`, each frame costing `cost` ms of the display's time
    /// (nil: what it took here), and every frame presented.
    static func play(_ samples: [(t: Double, p: Point)], pen: Bool, display: DisplayClock, late: Bool, prediction: Bool = true,
                     cost: Double? = nil) throws -> (Replay, [SimulatedCompositor.Presentation]) {
        let replay = Replay(trace: try Trace(parsing: handwritingTrace(samples, pen: pen)),
                            options: .init(width: width, height: height, display: display, lateCommits: late))
        replay.session.predictsInk = prediction
        replay.compositor.renderCost = { measured in cost ?? measured }
        var shown: [SimulatedCompositor.Presentation] = []
        try replay.run { frame, _ in shown.append(frame) }
        return (replay, shown)
    }

    /// `ink.latency` for finger (a sample every 8 ms) and pen (every 4 ms) at 60 and 120 Hz
    /// (7 and 3 ms windows), over 5 s of slow handwriting each: late commits off, on with the
    /// render costs measured here (a machine's hiccups widen the margin), and on with every frame
    /// costing 0.5 ms (an ink frame costs 0.02–0.1 ms in process: the pipeline itself).
    static func latency() throws -> [BenchResult] {
        var results: [BenchResult] = []
        for (hz, window) in [(60.0, 7.0), (120, 3)] {
            let display = try DisplayClock(refreshRate: hz, repaintWindow: window)
            for (device, step) in [("finger", 8.0), ("pen", 4.0)] {
                let samples = cursiveLoops(period: 600, step: step, duration: 5000)
                for (mode, late, cost) in [("late_off", false, nil), ("late_on", true, nil), ("late_on.cost_0.5ms", true, 0.5)] as [(String, Bool, Double?)] {
                    let (replay, shown) = try play(samples, pen: device == "pen", display: display, late: late, cost: cost)
                    let latencies = samples.compactMap { sample in
                        shown.first { ($0.input ?? -.infinity) >= sample.t }.map { $0.presented - sample.t }
                    }
                    var result = BenchResult(name: "ink.latency.\(device).\(Int(hz))hz.\(mode)",
                                             width: width, height: height, samples: latencies)
                    result.missedVblanks = replay.scheduler.missedFrames
                    results.append(result)
                }
            }
        }
        return results
    }

    /// `ink.lag` on handwriting (`HandwritingShape`: loops, a zigzag, a line with stops), fast and
    /// slow, prediction off and on: a pen sampled every 4 ms and a finger every 16 ms, at 60 and
    /// 120 Hz, with late commits on and frames costing 0.5 ms. p50 and p95, in logical px; and
    /// `.offpath`, how far the predicted end is from the path the pen took.
    static func lag() throws -> [BenchResult] {
        var results: [BenchResult] = []
        let cases: [(device: String, step: Double, hz: Double, window: Double)] = [
            ("pen", 4, 60, 7), ("pen", 4, 120, 3), ("finger16ms", 16, 60, 7), ("finger16ms", 16, 120, 3),
        ]
        for c in cases {
            let display = try DisplayClock(refreshRate: c.hz, repaintWindow: c.window)
            for shape in HandwritingShape.allCases {
                for fast in [true, false] {
                    let samples = shape.samples(fast: fast, step: c.step, duration: 1500)
                    let name = "\(c.device).\(Int(c.hz))hz.\(shape.rawValue).\(fast ? "fast" : "slow")"
                    for prediction in [false, true] {
                        let (_, shown) = try play(samples, pen: c.device == "pen", display: display, late: true, prediction: prediction, cost: 0.5)
                        let figures = lags(samples, shown, prediction: prediction, display: display)
                        results.append(pixels("ink.lag.\(name).prediction_\(prediction ? "on" : "off")", figures.lag))
                        if prediction { results.append(pixels("ink.lag.\(name).offpath", figures.offPath)) }
                    }
                }
            }
        }
        return results
    }

    private static func pixels(_ name: String, _ samples: [Double]) -> BenchResult {
        var result = BenchResult(name: name, width: width, height: height, samples: samples)
        result.unit = "px"
        result.upperPercentile = 95
        return result
    }

    /// Per frame mid-stroke: the pen's true place at the vblank against the end of the ink drawn,
    /// the newest sample the frame drew or, with prediction, where the predictor put it; and the
    /// predicted end's distance from the path the pen took over the next three refreshes.
    private static func lags(_ samples: [(t: Double, p: Point)], _ shown: [SimulatedCompositor.Presentation],
                             prediction: Bool, display: DisplayClock) -> (lag: [Double], offPath: [Double]) {
        let last = samples[samples.count - 1].t
        var lag: [Double] = [], offPath: [Double] = []
        for frame in shown {
            guard let input = frame.input, input >= samples[0].t + 12, frame.presented <= last,
                  let newest = samples.lastIndex(where: { $0.t <= input }), let truth = truePlace(samples, at: frame.presented)
            else { continue }
            var end = samples[newest].p
            if prediction {
                var predictor = InkPredictor()
                for sample in samples[...newest] { predictor.add(sample.p, at: sample.t) }
                if let predicted = predictor.predict(at: frame.presented, horizonCap: display.interval + display.repaintWindow) {
                    offPath.append(distance(predicted, toPathOf: samples, from: samples[newest].t, to: samples[newest].t + display.interval * 3))
                    end = predicted
                }
            }
            lag.append(end.distance(to: truth))
        }
        return (lag, offPath)
    }
}
