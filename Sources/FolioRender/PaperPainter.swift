import CPixman
import FolioPixels
import FolioSketchbook

/// Paints a sheet's paper into a bitmap, in any area of it: white, then the paper's lines or
/// dots, snapped to whole buffer pixels so they stay crisp at every scale. A line is
/// `max(1, ⌊scale⌋)` buffer pixels wide from `⌊position × scale⌋` (one logical px at whole
/// scales, one buffer pixel at 1.5 rather than a blurred 1.5); a dot is a square
/// `max(2, ⌊2 × scale⌋)` pixels across, centred on the nearest pixel corner. Painting an area
/// gives the same pixels as painting the whole bitmap, so damage-limited redraws match.
public enum PaperPainter {
    /// The paper's white (premultiplied, opaque).
    public static let white: UInt32 = 0xFFFF_FFFF

    public static func paint(_ paper: Paper, into bitmap: Bitmap, in area: PixelRect, scale: Double) {
        let area = area.intersection(bitmap.bounds)
        guard !area.isEmpty else { return }
        bitmap.fill(white, in: area)
        guard paper.kind != .plain, scale.isFinite, scale > 0 else { return }
        let color = 0xFF00_0000 | paper.color
        let line = max(1, Int(scale.rounded(.down)))
        let dot = max(2, Int((2 * scale).rounded(.down)))
        let width = Double(bitmap.width) / scale, height = Double(bitmap.height) / scale
        if paper.hasRows {
            for y in starts(paper, lineWidth: line, along: height, within: area.y..<area.maxY, scale: scale) {
                bitmap.fill(color, in: PixelRect(x: area.x, y: y, width: area.width, height: line).intersection(area))
            }
        }
        if paper.hasColumns {
            for x in starts(paper, lineWidth: line, along: width, within: area.x..<area.maxX, scale: scale) {
                bitmap.fill(color, in: PixelRect(x: x, y: area.y, width: line, height: area.height).intersection(area))
            }
        }
        if paper.hasDots {
            let columns = dotStarts(paper, size: dot, along: width, within: area.x..<area.maxX, scale: scale)
            var fill = pixman_color_t(color)
            for y in dotStarts(paper, size: dot, along: height, within: area.y..<area.maxY, scale: scale) {
                // One fill call per row of dots: a fine grid over a large canvas stays cheap.
                var boxes = columns.compactMap { x -> pixman_rectangle16_t? in
                    let r = PixelRect(x: x, y: y, width: dot, height: dot).intersection(area)
                    return r.isEmpty ? nil : pixman_rectangle16_t(x: Int16(r.x), y: Int16(r.y), width: UInt16(r.width), height: UInt16(r.height))
                }
                pixman_image_fill_rectangles(PIXMAN_OP_SRC, bitmap.image, &fill, Int32(boxes.count), &boxes)
            }
        }
    }

    /// The first buffer pixel of each line within `pixels`: lines at whole multiples of the
    /// spacing, inside a sheet `length` logical px long.
    private static func starts(_ paper: Paper, lineWidth: Int, along length: Double, within pixels: Range<Int>,
                               scale: Double) -> [Int] {
        multiples(of: paper.spacing, below: length, near: pixels, margin: lineWidth, scale: scale)
            .map { Int(($0 * scale).rounded(.down)) }
            .filter { $0 + lineWidth > pixels.lowerBound && $0 < pixels.upperBound }
    }

    /// The first buffer pixel of each dot within `pixels`.
    private static func dotStarts(_ paper: Paper, size: Int, along length: Double, within pixels: Range<Int>,
                                  scale: Double) -> [Int] {
        multiples(of: paper.spacing, below: length, near: pixels, margin: size, scale: scale)
            .map { Int(($0 * scale).rounded()) - size / 2 }
            .filter { $0 + size > pixels.lowerBound && $0 < pixels.upperBound }
    }

    /// The multiples k × spacing (k ≥ 1, below `length`) that may touch `pixels`, `margin`
    /// buffer pixels taken either side: as many as the area spans, whatever the sheet's size.
    private static func multiples(of spacing: Double, below length: Double, near pixels: Range<Int>, margin: Int,
                                  scale: Double) -> [Double] {
        let low = Double(pixels.lowerBound - margin) / scale, high = Double(pixels.upperBound + margin) / scale
        let first = max(1, Int((low / spacing).rounded(.down)))
        let last = Int((min(high, length) / spacing).rounded(.up))
        guard first <= last else { return [] }
        return (first...last).map { Double($0) * spacing }.filter { $0 < length }
    }
}
