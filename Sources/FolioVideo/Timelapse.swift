import FolioFiles
import FolioRender
import FolioSketchbook

/// A sheet's time-lapse as an MP4: the sheet's playback (`SheetPlayback`, as the app plays it)
/// fitted to the video's length, each frame drawn by the canvas renderer the app draws with, at
/// one pixel per logical pixel from the sheet's origin, as `folio export --png --size` draws it.
/// The video goes to a temporary beside the target, renamed over it only when whole.
public struct Timelapse: Sendable {
    /// Frame sides: even (4:2:0 halves them), and within what players and phones decode.
    public static let sides: ClosedRange<Int> = 16...4096
    public static let seconds: ClosedRange<Double> = 1...600
    public static let rates: ClosedRange<Int> = 1...60

    public var width: Int
    public var height: Int
    public var seconds: Double
    public var fps: Int

    public init(width: Int, height: Int, seconds: Double = 30, fps: Int = 30) {
        self.width = width
        self.height = height
        self.seconds = seconds
        self.fps = fps
    }

    /// What is wrong with these settings, in the words of the command's options; nil when valid.
    public var problem: String? {
        for (name, side) in [("width", width), ("height", height)] where !Self.sides.contains(side) || side % 2 != 0 {
            return "--size \(width)x\(height): the \(name) must be an even number from \(Self.sides.lowerBound) to \(Self.sides.upperBound)"
        }
        guard seconds.isFinite, Self.seconds.contains(seconds) else {
            return "--seconds \(seconds): give a number from \(Int(Self.seconds.lowerBound)) to \(Int(Self.seconds.upperBound))"
        }
        guard Self.rates.contains(fps) else { return "--fps \(fps): give a whole number from \(Self.rates.lowerBound) to \(Self.rates.upperBound)" }
        return nil
    }

    /// The video's frames: its length at its rate, at least one.
    public var frames: TimelapseFrames {
        TimelapseFrames(count: max(Int((seconds * Double(fps)).rounded()), 1), fps: fps)
    }

    /// Writes the time-lapse of `strokes` on `paper` to `path`, telling `progress` each frame done
    /// (and the count). On any failure nothing is left at `path` but what was there before.
    public func write(_ strokes: [Stroke], on paper: Paper = .plain, to path: String, progress: (Int, Int) -> Void = { _, _ in }) throws(VideoError) {
        if let problem { throw VideoError(problem) }
        let file: StreamedFile
        do {
            file = try StreamedFile(path, mode: nil)
        } catch {
            throw VideoError(error.description)
        }
        do {
            let encoder = try VideoEncoder(descriptor: file.descriptor, name: file.temporaryPath, width: width, height: height, fps: fps)
            let canvas = CanvasRenderer(width: width, height: height, scale: 1)
            canvas.rebuild(strokes: [], paper: paper)
            let playback = SheetPlayback(strokes: strokes)
            var drawing = PlaybackDrawing()
            drawing.begin(on: canvas)
            let frames = self.frames
            for index in 0..<frames.count {
                drawing.draw(playback.progress(atFraction: frames.fraction(ofFrame: index)), of: strokes, on: canvas)
                try encoder.append(canvas.frame)
                progress(index + 1, frames.count)
            }
            try encoder.finish()
        } catch {
            file.discard()
            throw VideoError("\(path): \(error.description) (nothing was written)")
        }
        do {
            try file.commit()
        } catch {
            throw VideoError(error.description)
        }
    }
}
