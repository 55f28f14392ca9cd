/// The sizes Folio renders, whatever a compositor, a trace or a command line asks: a buffer side
/// of at most 8192 pixels (an 8K screen; each frame-sized bitmap is then at most 256 MiB, and a
/// session keeps a few) and a buffer scale of 1 to 8 in steps of 1/120 (wp_fractional_scale_v1's
/// unit). Larger requests are fitted, never trusted: a compositor that configures 100000×100000
/// gets a window Folio can draw.
public enum SurfaceLimits {
    public static let maximumBufferSide = 8192
    public static let scales = BufferScale(1)...BufferScale(8)
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
    /// window beats a cropped one) to the largest that fits, then the size. A whole scale stays
    /// whole (it may be a wl_surface buffer scale, which takes integers only); a fractional one
    /// goes down in 1/120 steps. `adjusted` says whether anything changed.
    public static func fit(width: Int, height: Int, scale: BufferScale)
        -> (width: Int, height: Int, scale: BufferScale, adjusted: Bool) {
        let side = minimumSide...maximumBufferSide
        let w = min(max(width, side.lowerBound), side.upperBound)
        let h = min(max(height, side.lowerBound), side.upperBound)
        var s = min(max(scale, scales.lowerBound), scales.upperBound)
        // At scale 1 any side within the limits fits, so this ends there at the latest.
        let step = s.isInteger ? BufferScale.denominator : 1
        while s > scales.lowerBound && s.pixels(max(w, h)) > maximumBufferSide {
            s = BufferScale(numerator: s.numerator - step)
        }
        return (w, h, s, (w, h, s) != (width, height, scale))
    }

    /// The log's words for a request `fit` changed: what was asked, and what is drawn instead.
    public static func explain(width: Int, height: Int, scale: BufferScale,
                               fittedTo fit: (width: Int, height: Int, scale: BufferScale)) -> String {
        "a \(width)x\(height) window at scale \(scale) is beyond what Folio draws (buffers up to \(maximumBufferSide) px a side); "
            + "drawing \(fit.width)x\(fit.height) at scale \(fit.scale)"
    }
}
