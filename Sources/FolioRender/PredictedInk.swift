import FolioGeometry

/// Provisional ink past a live stroke's newest sample, toward where the pen is predicted to be
/// when the frame is seen: a straight piece from the stroke's end, at the end's width. Drawn only
/// into the frame, never baked; the next frame erases it.
public struct PredictedInk: Equatable, Sendable {
    /// The stroke's drawn end and the predicted point (logical px).
    public var from: Point
    public var to: Point
    /// The ink's width there (logical px): the fixed width, or a pen's held pressure's.
    public var width: Double

    public init(from: Point, to: Point, width: Double) {
        self.from = from
        self.to = to
        self.width = width
    }

    /// The logical area it may paint: the segment grown by half its width and a pixel of antialiasing.
    var bounds: Rect {
        let margin = width / 2 + 1
        return Rect(x: min(from.x, to.x), y: min(from.y, to.y), width: abs(to.x - from.x), height: abs(to.y - from.y))
            .insetBy(dx: -margin, dy: -margin)
    }
}
