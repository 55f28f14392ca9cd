import CPixman
import FolioGeometry
import FolioSketchbook

/// Paints strokes with pixman: antialiased, seam-free, round caps and joins; a path that
/// never moves paints a dot of the ink's width.
public struct InkRasterizer {
    public init() {}

    /// Paints `path` over `target`, touching only pixels inside `clip`.
    /// Coordinates are logical; `scale` is buffer pixels per logical pixel.
    public func draw(_ path: [PathElement], style: InkStyle, into target: Bitmap, scale: Double, clip: PixelRect) {
        // Implemented by the renderer work: see the README of FolioRender.
    }
}
