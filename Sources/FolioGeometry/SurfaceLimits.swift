/// The sizes Folio renders, whatever a compositor, a trace or a command line asks: a buffer side
/// of at most 8192 pixels (an 8K screen; each frame-sized bitmap is then at most 256 MiB, and a
/// session keeps a few) and an integer buffer scale of 1 to 8. Larger requests are fitted, never
/// trusted: a compositor that configures 100000×100000 gets a window Folio can draw.
public enum SurfaceLimits {
    public static let maximumBufferSide = 8192
    public static let scales = 1...8
    /// The smallest logical size drawn (a page needs a column on each side of the spine).
    public static let minimumSide = 2
    /// The farthest a stroke point may lie from the surface origin on either axis, in logical
    /// pixels: traces and books beyond it are refused, and the live app clamps to it, so every
    /// saved book reads back. 120 widths of the largest buffer: nothing drawn there is visible.
    public static let farthestCoordinate = 1_000_000.0

    /// `p` moved onto the square of `farthestCoordinate` (a NaN axis becomes 0).
    public static func clamp(_ p: Point) -> Point {
        func axis(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, -farthestCoordinate), farthestCoordinate) }
        return Point(x: axis(p.x), y: axis(p.y))
    }

    public static func isWithinReach(_ p: Point) -> Bool {
        abs(p.x) <= farthestCoordinate && abs(p.y) <= farthestCoordinate
    }

    /// A logical size and buffer scale within the limits: the scale is lowered first (a sharp
    /// window beats a cropped one), then the size. `adjusted` says whether anything changed.
    public static func fit(width: Int, height: Int, scale: Int)
        -> (width: Int, height: Int, scale: Int, adjusted: Bool) {
        let side = minimumSide...maximumBufferSide
        var w = min(max(width, side.lowerBound), side.upperBound)
        var h = min(max(height, side.lowerBound), side.upperBound)
        var s = min(max(scale, scales.lowerBound), scales.upperBound)
        while s > 1 && max(w, h) * s > maximumBufferSide { s -= 1 }
        w = min(w, maximumBufferSide / s)
        h = min(h, maximumBufferSide / s)
        return (w, h, s, (w, h, s) != (width, height, scale))
    }

    /// The log's words for a request `fit` changed: what was asked, and what is drawn instead.
    public static func explain(width: Int, height: Int, scale: Int, fittedTo fit: (width: Int, height: Int, scale: Int)) -> String {
        "a \(width)x\(height) window at scale \(scale) is beyond what Folio draws (buffers up to \(maximumBufferSide) px a side); "
            + "drawing \(fit.width)x\(fit.height) at scale \(fit.scale)"
    }
}
