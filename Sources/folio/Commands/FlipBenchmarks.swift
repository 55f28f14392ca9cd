import FolioBench
import FolioCore
import FolioPixels
import FolioRender

/// `flip.frame`: whole page-turn frames (backdrop, the flat halves, the turning leaf with its
/// gradient shadows, and past 90° its see-through back) at the fold's sizes, for progress
/// q = 0.25 and 0.75, on one render thread and on two, after one untimed frame per case.
enum FlipBenchmarks {
    static let progress = [0.25, 0.75]

    static func run(sizes: [(Int, Int)], kernels: FoldKernels = .best, threads: [Int] = [1, 2], progress: [Double] = FlipBenchmarks.progress,
                    frames: Int = 40) -> [BenchResult] {
        var results: [BenchResult] = []
        for (w, h) in sizes {
            let renderer = PageRenderer(pixelWidth: w, pixelHeight: h, kernels: kernels)
            let turn = TurnController(width: Double(w), height: Double(h))
            turn.begin(earlier: FoldBenchmarks.sketch(width: w, height: h), later: Bitmap(width: w, height: h, color: 0xFFFF_FFFF),
                       angle: 0, scale: 1)
            let target = Bitmap(width: w, height: h)
            for q in progress {
                turn.track(-q * Double.pi)
                for t in threads {
                    let options = PageRenderOptions(background: .texture, shadows: true, threads: t)
                    renderer.render(turn.scene.root, into: target, options: options)
                    var samples: [Double] = []
                    samples.reserveCapacity(frames)
                    for _ in 0..<frames {
                        let start = ContinuousClock.now
                        renderer.render(turn.scene.root, into: target, options: options)
                        samples.append((ContinuousClock.now - start).milliseconds)
                    }
                    results.append(BenchResult(name: "flip.frame", width: w, height: h, progress: q, threads: t,
                                               kernels: kernels.name, samples: samples))
                }
            }
        }
        return results
    }
}
