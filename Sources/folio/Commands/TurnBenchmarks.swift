import FolioBench
import FolioCore
import FolioGeometry
import FolioPixels
import FolioRender

/// `flip.frame`: whole page-turn frames (backdrop, the flat halves, the turning leaf with its
/// gradient shadows, and past 90° its see-through back) at the fold's sizes, for progress
/// q = 0.25 and 0.75, on one render thread and on two, after one untimed frame per case; like the
/// fold's, each timed frame follows an untimed one a gesture step away.
enum TurnBenchmarks {
    static let progress = [0.25, 0.75]

    /// `sizes` are logical; at a buffer `scale` other than 1 frames are that many times larger
    /// (rounded as the app rounds its buffers), the scene sized as the app sizes it, and the
    /// figures carry `buffer_scale`.
    static func run(sizes: [(Int, Int)], scale: BufferScale = 1, kernels: PageKernels = .best, threads: [Int] = [1, 2],
                    progress: [Double] = TurnBenchmarks.progress, frames: Int = 40) -> [BenchResult] {
        var results: [BenchResult] = []
        let bufferScale = scale == 1 ? nil : scale.factor
        for (lw, lh) in sizes {
            let (w, h) = (scale.pixels(lw), scale.pixels(lh))
            let renderer = PageRenderer(pixelWidth: w, pixelHeight: h, scale: scale.factor, kernels: kernels)
            let turn = TurnController(width: Double(w) / scale.factor, height: Double(h) / scale.factor)
            turn.begin(earlier: FoldBenchmarks.sketch(width: w, height: h), later: Bitmap(width: w, height: h, color: 0xFFFF_FFFF),
                       angle: 0)
            let target = Bitmap(width: w, height: h)
            for q in progress {
                turn.track(-q * Double.pi)
                for t in threads {
                    let options = PageRenderOptions(background: .texture, shadows: true, threads: t)
                    renderer.render(turn.scene, into: target, options: options)
                    let samples = FoldBenchmarks.gestureFrames(at: q, in: 0...1, count: frames, move: { turn.track(-$0 * Double.pi) }) {
                        renderer.render(turn.scene, into: target, options: options)
                    }
                    results.append(BenchResult(name: "flip.frame", width: lw, height: lh, progress: q, threads: t,
                                               kernels: kernels.name, bufferScale: bufferScale, samples: samples))
                }
            }
        }
        return results
    }
}
