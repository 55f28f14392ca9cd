import FolioBench
import FolioGeometry
import FolioLayers
import FolioPixels
import FolioRender

/// `fold.frame`: whole fold frames (backdrop, both shadows, both pages) at tablet sizes and
/// scales, on one render thread and on two, after one untimed frame per case (lazy back faces and
/// the backdrop texture are once per gesture, not per frame). As in a moving pinch, which never
/// draws the same frame twice, each timed frame follows an untimed one at a scale one `gestureStep`
/// away, so nothing the renderer keeps from frame to frame helps more than it would in a gesture.
/// `fold.prepare`: what a pinch pays once when it begins and first shows the backs (prepare, then a
/// frame at s = 0.48).
enum FoldBenchmarks {
    static let sizes = [(1280, 800), (1920, 1200), (2560, 1600)]
    static let scales = [1.0, 0.9, 0.75, 0.6, 0.48]
    /// How far a gesture moves between two frames in these benchmarks (fold scale or turn progress).
    static let gestureStep = 0.001

    /// Times `count` frames of a gesture at `value` (in `range`), set by `move`: each after an
    /// untimed frame one `gestureStep` away, so none repeats the frame before it. The fold's and
    /// the page turn's figures are taken alike.
    static func gestureFrames(at value: Double, in range: ClosedRange<Double>, count: Int, move: (Double) -> Void,
                              render: () -> Void) -> [Double] {
        let away = value - gestureStep >= range.lowerBound ? value - gestureStep : value + gestureStep
        var samples: [Double] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            move(away)
            render()
            move(value)
            let start = ContinuousClock.now
            render()
            samples.append((ContinuousClock.now - start).milliseconds)
        }
        return samples
    }

    /// `sizes` are logical; at a buffer `scale` other than 1 frames are that many times larger
    /// (rounded as the app rounds its buffers) and the figures carry `buffer_scale`.
    static func run(sizes: [(Int, Int)] = sizes, scale: BufferScale = 1, kernels: PageKernels = .best, threads: [Int] = [1, 2],
                    foldScales: [Double] = scales, frames: Int = 40) -> [BenchResult] {
        var results: [BenchResult] = []
        let bufferScale = scale == 1 ? nil : scale.factor
        for (lw, lh) in sizes {
            let (w, h) = (scale.pixels(lw), scale.pixels(lh))
            let renderer = PageRenderer(pixelWidth: w, pixelHeight: h, scale: scale.factor, kernels: kernels)
            let scene = FoldScene(width: Double(w) / scale.factor, height: Double(h) / scale.factor)
            scene.setContents(sketch(width: w, height: h))
            let target = Bitmap(width: w, height: h)
            renderer.prepare(scene.root)
            renderer.render(scene.root, into: target)  // the backdrop texture: once per renderer
            var gestures: [Double] = []
            for _ in 0..<5 {
                let start = ContinuousClock.now
                renderer.prepare(scene.root)
                scene.setScale(0.48)
                renderer.render(scene.root, into: target)
                gestures.append((ContinuousClock.now - start).milliseconds)
            }
            results.append(BenchResult(name: "fold.prepare", width: lw, height: lh, kernels: kernels.name, bufferScale: bufferScale,
                                       samples: gestures))
            for s in foldScales {
                for t in threads {
                    let options = PageRenderOptions(background: .texture, shadows: true, threads: t)
                    scene.setScale(s)
                    renderer.render(scene.root, into: target, options: options)
                    let samples = gestureFrames(at: s, in: FoldScene.minimumScale...1, count: frames, move: scene.setScale) {
                        renderer.render(scene.root, into: target, options: options)
                    }
                    results.append(BenchResult(name: "fold.frame", width: lw, height: lh, scale: s, threads: t,
                                               kernels: kernels.name, bufferScale: bufferScale, samples: samples))
                }
            }
        }
        return results
    }

    /// A page worth folding: paper with ruled lines and a few blocks of colour.
    static func sketch(width: Int, height: Int) -> Bitmap {
        let canvas = Bitmap(width: width, height: height, color: 0xFFFF_FFFF)
        var y = height / 20
        while y < height {
            canvas.fill(0xFF00_00FF, in: PixelRect(x: 0, y: y, width: width, height: 3))
            y += height / 20
        }
        canvas.fill(0xFFCC_2200, in: PixelRect(x: width / 8, y: height / 6, width: width / 5, height: height / 4))
        canvas.fill(0xFF11_8833, in: PixelRect(x: width * 5 / 8, y: height / 2, width: width / 4, height: height / 4))
        return canvas
    }
}
