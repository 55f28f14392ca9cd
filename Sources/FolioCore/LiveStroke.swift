import FolioGeometry
import FolioGestures
import FolioShapes
import FolioSketchbook

/// The stroke under the finger or pen, with its smoothers, so each new point reports what it
/// changed. A pen's pressures are smoothed exactly as its points are.
struct LiveStroke {
    private(set) var stroke: Stroke
    private var smoother: InkSmoother
    private var pressureSmoother: InkSmoother?
    /// The curve widths follow, for a pen that reports pressure; nil for the fixed width.
    let pressureCurve: PressureCurve?
    /// Where the pen is heading, from the raw samples and their times: for predicted ink only.
    private(set) var predictor = InkPredictor()
    /// When the stroke's end has been held still long enough to be recognised as a shape.
    private(set) var hold: HoldTimer
    /// The shape the stroke snapped to while its end is held; nil while it is freehand.
    private(set) var snapped: SnappedStroke?

    /// The session time (ms) of the first point, which the stroke's times count from.
    private let startTime: Double

    /// A stroke begun at `time` (ms on the session's clock); `epoch` is that clock's 0 in Unix
    /// seconds, so the stroke keeps when it was drawn.
    init(start: PenSample, at time: Double, epoch: Double, style: InkStyle, pressureCurve: PressureCurve?) {
        stroke = Stroke(points: [start.point], style: style, times: StrokeTimes(startingAt: epoch + time / 1000))
        startTime = time
        hold = HoldTimer(at: start.point, time: time)
        predictor.add(start.point, at: time)
        smoother = InkSmoother(start: start.point)
        if let pressureCurve, let pressure = start.pressure.map(Stroke.kept(pressure:)) {
            self.pressureCurve = pressureCurve
            stroke.pressureCurve = pressureCurve
            stroke.pressures = [pressure]
            stroke.tilts = start.tilt.map { [Stroke.kept(tilt: $0)] }
            pressureSmoother = InkSmoother(start: Point(x: pressure, y: 0))
        } else {
            self.pressureCurve = nil
        }
    }

    /// The smoothed path so far, kept as points arrive (never recomputed from all the points).
    var path: [PathElement] { smoother.path }
    var tail: PathElement? { smoother.tail }
    var pressurePath: [PathElement] { pressureSmoother?.path ?? [] }
    var pressureTail: PathElement? { pressureSmoother?.tail }

    /// The width the ink has at its end now: a pen's held pressure, or the fixed width.
    var endWidth: Double {
        guard let pressureCurve else { return stroke.style.width }
        return pressureCurve.width(at: stroke.pressures?.last ?? 0)
    }

    /// The stroke as it is kept when it ends: its shape if it snapped to one.
    var kept: Stroke { snapped?.stroke ?? stroke }

    /// The hold is up: the stroke snaps to the shape it fits, if any (true then), and the hold is
    /// spent either way.
    mutating func snap() -> Bool {
        hold.spend()
        guard snapped == nil, let shape = SnappedStroke(stroke) else { return false }
        snapped = shape
        return true
    }

    /// The held end of a snapped stroke moved to `p`: the shape follows. False when nothing changed.
    mutating func drag(to p: Point) -> Bool {
        snapped?.drag(to: p) ?? false
    }

    /// Adds a point that came at `time` (ms); returns the logical area whose ink may differ (old
    /// tail, new segment, new tail).
    mutating func add(_ sample: PenSample, at time: Double) -> Rect {
        let p = sample.point
        predictor.add(p, at: time)
        hold.moved(to: p, at: time)
        // Every changed piece starts at the end of the finished path; a pen's outline, at the
        // start of its last step into that end (the joint at the end moves with what follows).
        var changed = smoother.path.last.map { Rect(origin: $0.endPoint, size: .zero) } ?? .null
        if pressureCurve != nil, let last = smoother.path.last, smoother.path.count >= 2 {
            let start = smoother.path[smoother.path.count - 2].endPoint
            changed = changed.union(Rect(origin: PressureOutline.lastStepStart(of: last, from: start), size: .zero))
        }
        if let oldTail = smoother.tail { changed = changed.union(oldTail.controlBounds) }
        if let segment = smoother.add(p) { changed = changed.union(segment.controlBounds) }
        if let newTail = smoother.tail { changed = changed.union(newTail.controlBounds) }
        stroke.points.append(p)
        stroke.times?.add(after: (time - startTime) / 1000)
        // The firmest pressure of the ink that changed: the last element's (its last step's
        // joint moves), the old tail's, the new segment's and the new tail's. Each is a Bézier,
        // so it stays within its control values; the x of a pressure element is the pressure.
        var firmest = -Double.infinity
        if pressureSmoother != nil {
            // The last element and its start, read by index: a copy of the path held across
            // `add` would copy it on write, and `suffix(2)` of the optional path resolves to
            // Sequence's, which walks all of it (a long stroke's segments grew slower).
            if let last = pressureSmoother?.path.last { firmest = max(firmest, last.controlBounds.maxX) }
            if let count = pressureSmoother?.path.count, count >= 2, let before = pressureSmoother?.path[count - 2] {
                firmest = max(firmest, before.endPoint.x)
            }
            if let oldTail = pressureSmoother?.tail { firmest = max(firmest, oldTail.controlBounds.maxX) }
            // A frame without a pressure keeps the last one (tablet-v2 sends only changes).
            // Pressure and tilt are kept in the book's steps, so a reopened stroke is this one.
            let pressure = sample.pressure.map(Stroke.kept(pressure:)) ?? stroke.pressures?.last ?? 0
            if let segment = pressureSmoother?.add(Point(x: pressure, y: 0)) { firmest = max(firmest, segment.controlBounds.maxX) }
            if let newTail = pressureSmoother?.tail { firmest = max(firmest, newTail.controlBounds.maxX) }
            stroke.pressures?.append(pressure)
            if let last = stroke.tilts?.last { stroke.tilts?.append(sample.tilt.map(Stroke.kept(tilt:)) ?? last) }
        }
        // Ink reaches half its width (and a pixel of antialiasing) past what changed: for a pen,
        // the width its firmest pressure there gives, so a light stroke damages no more than it needs.
        let margin = pressureCurve.map { $0.width(at: firmest) / 2 + 1 } ?? stroke.style.width / 2 + 1
        return changed.insetBy(dx: -margin, dy: -margin)
    }
}
