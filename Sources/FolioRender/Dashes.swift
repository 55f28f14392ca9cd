import FolioGeometry
import FolioPixels
import FolioSketchbook

/// Dashed lines for the lasso's loop and a selection's box: `on` px of line, then `off` px of
/// gap, measured along the line in logical px, continuing across its corners.
struct Dashes {
    static let on = 8.0
    static let off = 6.0
    static let width = 2.0
    /// The loop's and the box's ink: dark enough on paper, and apart from any palette colour.
    static let color: UInt32 = 0x3A3A3A

    /// How far along the dash pattern the line has come (logical px).
    private(set) var phase = 0.0

    /// The dashes of the segment `a`–`b`, continuing the pattern where the last segment left it.
    mutating func segments(from a: Point, to b: Point) -> [(Point, Point)] {
        let length = a.distance(to: b)
        guard length > 0 else { return [] }
        var result: [(Point, Point)] = []
        var along = 0.0
        let period = Self.on + Self.off
        while along < length {
            let inPeriod = phase.truncatingRemainder(dividingBy: period)
            let step = min(length - along, inPeriod < Self.on ? Self.on - inPeriod : period - inPeriod)
            if inPeriod < Self.on {
                result.append((a + (b - a) * (along / length), a + (b - a) * ((along + step) / length)))
            }
            along += step
            phase += step
        }
        return result
    }

    /// Paints `dashes` into `target` within `clip` (buffer px) and returns the area they may cover.
    static func draw(_ dashes: [(Point, Point)], with ink: InkRasterizer, into target: Bitmap, scale: Double,
                     clip: PixelRect) -> PixelRect {
        var area = PixelRect.empty
        let margin = width / 2 + 1
        for (a, b) in dashes {
            ink.draw([.move(to: a), .line(to: b)], style: InkStyle(width: width, color: color), into: target, scale: scale, clip: clip)
            area = area.union(PixelRect(covering: Rect(bounding: [a, b]).insetBy(dx: -margin, dy: -margin), scale: scale))
        }
        return area.intersection(clip)
    }
}
