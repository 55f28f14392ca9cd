import FolioGeometry
import FolioPixels
import FolioSketchbook

/// The coverage of a live stroke's finished part, kept as the stroke grows: each element is
/// rasterised once, when what follows it is known, so a new point costs the ink near the end and
/// the damage, however often the stroke crossed that place before. The frame it draws is the one
/// drawing the whole stroke gives.
final class LiveInk {
    /// The coverage of the settled elements over the whole frame; never composited.
    private let settled = InkCoverage()
    /// How many elements of the path `settled` holds; the last of them (and its pressure) and,
    /// for a fixed width, the element after it, which decided its end: to tell the same stroke
    /// grown from another one.
    private var count = 0
    private var last: (element: PathElement, pressure: PathElement?, next: PathElement?)?
    private var style: InkStyle?
    private var curve: PressureCurve?
    /// A pressure stroke's outline walked over the settled elements.
    private var outline: PressureOutline.Walker?
    /// Polygons rasterised into the settled coverage (see `InkCoverage.rasterised`).
    var rasterised: Int { settled.rasterised }

    /// Forgets the stroke: the next one starts afresh.
    func reset() {
        settled.discard()
        count = 0
        last = nil
        style = nil
        curve = nil
        outline = nil
    }

    /// Paints the stroke (its smoothed `path` and provisional `tail`, for a pen its `pressures`
    /// and `curve`) over `target` within `clip`, taking first the elements that became settled.
    func draw(_ path: [PathElement], tail: PathElement?, style: InkStyle, pressures: [PathElement], pressureTail: PathElement?,
              curve: PressureCurve?, ink: InkRasterizer, into target: Bitmap, scale: Double, clip: PixelRect) {
        // The path's last element may be a provisional end (a caller may draw the tail as part of
        // the path): it is held back. A fixed-width element's end joint depends on the element
        // after it, so that one is held back too; a pressure outline holds back its last piece.
        let settle = max(path.count - (curve == nil ? 2 : 1), 0)
        if !continues(path, pressures: pressures, style: style, curve: curve, settle: settle) {
            reset()
            self.style = style
            self.curve = curve
            settled.begin(region: target.bounds, radius: curve == nil ? style.width * scale / 2 : 0)
            if let curve {
                outline = PressureOutline.Walker(curve: curve, pressure: pressures.first?.endPoint.x ?? 0)
            }
        }
        if settle > count {
            if curve != nil {
                let limit = InkRasterizer.limit(of: target.bounds)
                for index in count..<settle {
                    outline?.add(path[index], pressure: index < pressures.count ? pressures[index] : nil) {
                        InkRasterizer.add($0, scale: scale, limit: limit, to: settled)
                    }
                }
            } else {
                ink.add(path, elements: count..<settle, style: style, scale: scale, within: target.bounds, to: settled)
            }
            count = settle
            last = (path[settle - 1], settle - 1 < pressures.count ? pressures[settle - 1] : nil, curve == nil ? path[settle] : nil)
        }
        if curve != nil, let outline {
            ink.drawLivePressure(path, pressures: pressures, from: count, tail: tail, pressureTail: pressureTail, outline: outline,
                                 over: settled, color: style.color, into: target, scale: scale, clip: clip)
        } else {
            ink.drawLive(path, tail: tail, elements: count..<(path.count + (tail == nil ? 0 : 1)), over: settled, style: style,
                         into: target, scale: scale, clip: clip)
        }
    }

    /// Whether `path` is the stroke `settled` holds, grown: the same ink, its settled elements
    /// still there as they were.
    private func continues(_ path: [PathElement], pressures: [PathElement], style: InkStyle, curve: PressureCurve?,
                           settle: Int) -> Bool {
        guard self.style == style, self.curve == curve, settle >= count else { return false }
        guard let last else { return count == 0 }
        return path[count - 1] == last.element && (count - 1 < pressures.count ? pressures[count - 1] : nil) == last.pressure
            && (curve == nil ? path[count] : nil) == last.next
    }
}
