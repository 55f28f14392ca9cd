/// The sizes Folio renders, whatever a compositor, a trace or a command line asks: a buffer side
/// of at most 8192 pixels (an 8K screen; each frame-sized bitmap is then at most 256 MiB, and a
/// session keeps a few) and an integer buffer scale of 1 to 8. Larger requests are fitted, never
/// trusted: a compositor that configures 100000×100000 gets a window Folio can draw.
public enum SurfaceLimits {
    public static let maximumBufferSide = 8192
    public static let scales = 1...8
    /// The smallest logical size drawn (a page needs a column on each side of the spine).
    public static let minimumSide = 2

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
}
