import FolioGeometry
import FolioPixels

/// The lasso's loop as it is drawn: dashes over the canvas's frame (never the baked canvas), each
/// new point adding the dashes of its segment, so a point costs its segment.
public final class LassoTrail {
    private let canvas: CanvasRenderer
    private let ink = InkRasterizer()
    private var dashes = Dashes()
    /// The loop's points as drawn.
    public private(set) var points: [Point]
    /// Where the loop painted in the frame (buffer px): what `clear` puts the canvas back over.
    private var area = PixelRect.empty

    public init(canvas: CanvasRenderer, start: Point) {
        self.canvas = canvas
        points = [start]
    }

    /// Extends the loop to `p`; returns the damage.
    public func add(_ p: Point) -> PixelRect {
        let painted = Dashes.draw(dashes.segments(from: points[points.count - 1], to: p, within: Dashes.visible(on: canvas)), with: ink, into: canvas.frame,
                                  scale: canvas.scale, clip: canvas.frame.bounds)
        points.append(p)
        area = area.union(painted)
        return painted
    }

    /// Takes the loop off the frame; returns the damage.
    public func clear() -> PixelRect {
        canvas.frame.copy(area, from: canvas.baked)
        defer { area = .empty }
        return area
    }
}
