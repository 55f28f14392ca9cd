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

    /// Where dashes can show on `canvas`: the canvas and a margin past its edges (logical px).
    static func visible(on canvas: CanvasRenderer) -> Rect {
        Rect(x: -width, y: -width, width: canvas.size.width + 2 * width, height: canvas.size.height + 2 * width)
    }

    /// How far along the dash pattern the line has come (logical px).
    private(set) var phase = 0.0

    /// The dashes of the segment `a`–`b` that fall within `visible` (logical px), continuing the
    /// pattern where the last segment left it: a segment costs the dashes that can show, however
    /// far it reaches off the canvas.
    mutating func segments(from a: Point, to b: Point, within visible: Rect) -> [(Point, Point)] {
        let length = a.distance(to: b)
        guard length > 0 else { return [] }
        defer { phase = (phase + length).truncatingRemainder(dividingBy: Self.on + Self.off) }
        guard let (enter, leave) = Self.clip(a, b, to: visible) else { return [] }
        var result: [(Point, Point)] = []
        let period = Self.on + Self.off
        var along = enter * length
        let end = leave * length
        while along < end {
            let inPeriod = (phase + along).truncatingRemainder(dividingBy: period)
            let step = min(end - along, inPeriod < Self.on ? Self.on - inPeriod : period - inPeriod)
            if inPeriod < Self.on {
                result.append((a + (b - a) * (along / length), a + (b - a) * ((along + step) / length)))
            }
            along += max(step, 1e-9)
        }
        return result
    }

    /// The part of `a`–`b` inside `r`, as parameters 0–1 along it (Liang–Barsky); nil when none.
    private static func clip(_ a: Point, _ b: Point, to r: Rect) -> (Double, Double)? {
        var enter = 0.0, leave = 1.0
        let d = b - a
        for (p, q) in [(-d.x, a.x - r.minX), (d.x, r.maxX - a.x), (-d.y, a.y - r.minY), (d.y, r.maxY - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else if p < 0 {
                enter = max(enter, q / p)
            } else {
                leave = min(leave, q / p)
            }
        }
        return enter < leave ? (enter, leave) : nil
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
