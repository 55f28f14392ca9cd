import FolioGeometry
import FolioPixels
import FolioSketchbook

/// Draws a sheet's playback on a canvas, frame after frame: whole strokes are baked as they
/// finish, and the stroke being drawn is the canvas's live stroke, grown point by point as the
/// app grows one under the finger. Going forward costs what appeared since the last frame; going
/// back draws the canvas again. The finished sheet is the pixels `rebuild(strokes:)` gives.
public struct PlaybackDrawing {
    /// What the canvas shows.
    public private(set) var shown = SheetPlayback.Progress(strokes: 0, points: 0)
    /// The smoothers of the stroke being drawn (its points so far), and its pressures'.
    private var smoother: InkSmoother?
    private var pressureSmoother: InkSmoother?

    public init() {}

    /// Starts from a blank canvas.
    @discardableResult
    public mutating func begin(on canvas: CanvasRenderer) -> PixelRect {
        shown = SheetPlayback.Progress(strokes: 0, points: 0)
        smoother = nil
        pressureSmoother = nil
        return canvas.rebuild(strokes: [])
    }

    /// Brings `canvas` to `progress` through `strokes`; returns the buffer pixels that changed.
    @discardableResult
    public mutating func draw(_ progress: SheetPlayback.Progress, of strokes: [Stroke], on canvas: CanvasRenderer) -> PixelRect {
        let target = SheetPlayback.Progress(strokes: min(progress.strokes, strokes.count),
                                            points: progress.strokes < strokes.count ? min(progress.points, strokes[progress.strokes].points.count) : 0)
        var damage = PixelRect.empty
        if target.strokes < shown.strokes || (target.strokes == shown.strokes && target.points < shown.points) {
            damage = canvas.rebuild(strokes: Array(strokes[..<target.strokes]))
            shown = SheetPlayback.Progress(strokes: target.strokes, points: 0)
            smoother = nil
            pressureSmoother = nil
        }
        while shown.strokes < target.strokes {
            damage = damage.union(canvas.bake(strokes[shown.strokes]))
            shown = SheetPlayback.Progress(strokes: shown.strokes + 1, points: 0)
            smoother = nil
            pressureSmoother = nil
        }
        if target.points > shown.points {
            damage = damage.union(grow(strokes[target.strokes], to: target.points, on: canvas))
        }
        return damage
    }

    /// Adds the stroke's points up to `count` to the live stroke and draws what changed.
    private mutating func grow(_ stroke: Stroke, to count: Int, on canvas: CanvasRenderer) -> PixelRect {
        let pressures = stroke.hasPressure ? stroke.pressures : nil
        var changed = Rect.null
        func note(_ element: PathElement?) { if let element { changed = changed.union(element.controlBounds) } }
        if smoother == nil {
            smoother = InkSmoother(start: stroke.points[0])
            pressureSmoother = pressures.map { InkSmoother(start: Point(x: $0[0], y: 0)) }
            note(.move(to: stroke.points[0]))
            shown.points = 1
        }
        guard var path = smoother else { return .empty }
        note(path.path.last)
        note(path.tail)
        for index in shown.points..<count {
            note(path.add(stroke.points[index]))
            if let pressures { pressureSmoother?.add(Point(x: pressures[index], y: 0)) }
        }
        note(path.tail)
        smoother = path
        shown.points = max(shown.points, count)
        let margin = stroke.maximumWidth / 2 + 1
        return canvas.drawLive(path.path, tail: path.tail, style: stroke.style, changed: changed.insetBy(dx: -margin, dy: -margin),
                               pressures: pressureSmoother?.path ?? [], pressureTail: pressureSmoother?.tail,
                               curve: pressures == nil ? nil : stroke.pressureCurve)
    }
}
