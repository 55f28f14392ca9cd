import FolioGeometry
import FolioSketchbook
import FolioShapes

/// A live stroke snapped to a shape while its end is still held: the shape as recognised, where
/// the finger (or pen, or mouse) held it, and the stroke it makes with the finger where it is now.
struct SnappedStroke {
    let shape: Shape
    /// Where the held end was when the stroke snapped: dragging from here resizes the shape.
    let grip: Point
    /// The stroke as drawn, whose ink, width and pressures the shape keeps.
    let freehand: Stroke
    /// The shape's stroke for the end where it is now.
    private(set) var stroke: Stroke
    /// Where the held end is now.
    private var end: Point

    /// `freehand` snapped, if it fits a shape; nil when it fits none.
    init?(_ freehand: Stroke) {
        guard let grip = freehand.points.last, let shape = ShapeRecognizer.recognize(freehand.points) else { return nil }
        self.shape = shape
        self.grip = grip
        self.freehand = freehand
        end = grip
        stroke = Self.stroke(shape, like: freehand)
    }

    /// The held end moved to `p`: the shape follows. False when it is where it was (a resting
    /// pen still sends its pressure): nothing changed.
    mutating func drag(to p: Point) -> Bool {
        guard p != end else { return false }
        end = p
        stroke = Self.stroke(shape.dragged(from: grip, to: p), like: freehand)
        return true
    }

    /// `shape`'s outline as a stroke in `freehand`'s ink. A pen's pressure (and tilt) keeps its
    /// course along the stroke: a point a fraction f of the way along the outline takes the
    /// pressure the stroke had a fraction f of the way along its length.
    static func stroke(_ shape: Shape, like freehand: Stroke) -> Stroke {
        let points = shape.outline()
        var stroke = Stroke(points: points, style: freehand.style, pressureCurve: freehand.pressureCurve,
                            times: freehand.times?.spread(over: points.count))
        guard freehand.hasPressure, let pressures = freehand.pressures else { return stroke }
        let from = fractions(freehand.points), to = fractions(points)
        var j = 0
        var kept: [Double] = [], tilts: [PenTilt] = []
        for f in to {
            while j + 1 < from.count - 1, from[j + 1] < f { j += 1 }
            let k = min(j + 1, from.count - 1)
            let span = from[k] - from[j]
            let t = span > 0 ? min(max((f - from[j]) / span, 0), 1) : 0
            kept.append(Stroke.kept(pressure: pressures[j] + (pressures[k] - pressures[j]) * t))
            if let freehandTilts = freehand.tilts, freehandTilts.count == freehand.points.count {
                tilts.append(freehandTilts[t < 0.5 ? j : k])
            }
        }
        stroke.pressures = kept
        stroke.tilts = tilts.isEmpty ? nil : tilts
        return stroke
    }

    /// How far along `points` each point lies, as a fraction of the whole length (0 to 1).
    private static func fractions(_ points: [Point]) -> [Double] {
        var walked = [0.0]
        walked.reserveCapacity(points.count)
        for (a, b) in zip(points, points.dropFirst()) { walked.append((walked.last ?? 0) + a.distance(to: b)) }
        let total = walked.last ?? 0
        return total > 0 ? walked.map { $0 / total } : walked.indices.map { Double($0) / Double(max(points.count - 1, 1)) }
    }
}
