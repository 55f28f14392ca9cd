import FolioBench
import FolioCore
import FolioGeometry
import FolioInput
import FolioRender
import FolioReplay
import FolioSketchbook

/// `frame.fold` and `frame.flip`: fold and page-turn frames end to end, as the app makes them:
/// input goes into a session, the frame loop draws the frame and commits it to a compositor with
/// a pool of buffers in memory (the replay's), timed from the start of the draw to the commit.
/// Each frame follows input a gesture step away from the last, at a vblank's pace, so every
/// frame is new; the figures include handing the frame over, which the `fold.frame` and
/// `flip.frame` renders alone do not.
enum FrameBenchmarks {
    static func run(sizes: [(Int, Int)], scale: BufferScale = 1, threads: [Int] = [1, 2], frames: Int = 40) throws -> [BenchResult] {
        var results: [BenchResult] = []
        let bufferScale = scale == 1 ? nil : scale.factor
        for (lw, lh) in sizes {
            for t in threads {
                let fold = try measure(width: lw, height: lh, scale: scale, threads: t, frames: frames) { loop, i, time in
                    if i == 0 { try loop.inputArrived(.pinchBegin(fingers: 2), at: time) }
                    let s = 0.75 + (i.isMultiple(of: 2) ? 0 : FoldBenchmarks.gestureStep)
                    try loop.inputArrived(.pinchUpdate(scale: s, dx: 0, dy: 0, rotation: 0), at: time)
                }
                results.append(BenchResult(name: "frame.fold", width: lw, height: lh, scale: 0.75, threads: t,
                                           bufferScale: bufferScale, samples: fold))
                // A finger landing 8 px from the right edge turns the page forward.
                let right = Double(lw) - 8, middle = Double(lh) / 2
                let flip = try measure(width: lw, height: lh, scale: scale, threads: t, frames: frames) { loop, i, time in
                    if i == 0 {
                        try loop.inputArrived(.touchDown(id: 1, at: Point(x: right, y: middle)), at: time)
                        try loop.inputArrived(.touchFrame, at: time)
                    }
                    // Past the middle and back a little, as a finger hesitating over the turn.
                    let x = Double(lw) * (0.45 + (i.isMultiple(of: 2) ? 0 : 0.002))
                    try loop.inputArrived(.touchMotion(id: 1, to: Point(x: x, y: middle)), at: time)
                    try loop.inputArrived(.touchFrame, at: time)
                }
                results.append(BenchResult(name: "frame.flip", width: lw, height: lh, threads: t,
                                           bufferScale: bufferScale, samples: flip))
            }
        }
        return results
    }

    /// Times `frames` frames of a gesture that `input` drives (its step number and the time),
    /// after a few untimed ones (the gesture's first frame takes the pages in).
    private static func measure(width: Int, height: Int, scale: BufferScale, threads: Int, frames: Int,
                                input: (FrameLoop, Int, Double) throws -> Void) throws -> [Double] {
        // A sheet worth folding and turning (a blank last sheet does not turn): ruled lines.
        let lines = stride(from: 40.0, to: Double(height), by: 40).map { y in
            Stroke(points: [Point(x: 20, y: y), Point(x: Double(width) / 2, y: y + 6), Point(x: Double(width) - 20, y: y)])
        }
        let session = Session(book: Sketchbook(sheets: [Sheet(strokes: lines)]), width: width, height: height, scale: scale)
        session.pageOptions = PageRenderOptions(background: .texture, shadows: true, threads: threads)
        let compositor = SimulatedCompositor()
        let loop = FrameLoop(session: session, surface: compositor)
        compositor.configure()
        try loop.configured(width: width, height: height, scale: scale)
        try compositor.refresh(loop)
        var samples: [Double] = []
        loop.onFramePresented = { samples.append($0.milliseconds) }
        let warmUp = 4
        for i in 0..<(frames + warmUp) {
            // Each step's input comes early in a refresh; its frame is presented at the vblank.
            let time = compositor.nextRefresh - compositor.clock.interval + 1
            compositor.advance(to: time)
            try input(loop, i, time)
            while compositor.isFrameInFlight { try compositor.refresh(loop) }
            if i < warmUp { samples.removeAll() }
        }
        precondition(session.mode.showsCurtain || session.mode.isTurning, "the gesture shows pages: the benchmark measures page frames")
        return samples
    }
}
