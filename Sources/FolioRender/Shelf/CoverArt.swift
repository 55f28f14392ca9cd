import CCairo
import FolioPixels

/// A closed book's cover, flat, at buffer resolution: the cover colour with a darker spine, the
/// book's first sheet framed on it as a paper label (plain paper when it has no picture yet), and
/// its name below. The shelf draws these in perspective; they are made once per look and kept.
public enum CoverArt {
    /// Logical pixels: the spine band, the frame around the picture, the name's band and size.
    static let spineWidth = 14.0
    static let frame = 14.0
    static let nameBand = 40.0
    static let nameSize = 14.0
    static let paper: UInt32 = 0xFFFC_FAF4

    /// The cover of a book named `name` in `color` (0x00RRGGBB), `width`×`height` logical pixels at
    /// `scale`, showing `picture` (premultiplied, any size: fitted inside the frame) if given. A
    /// name too long for the cover is shortened at its end, or at its start when `keepingEnd` (a
    /// name being typed, whose end is where the typing goes).
    public static func draw(name: String, color: UInt32, picture: Bitmap?, width: Double, height: Double, scale: Double,
                            keepingEnd: Bool = false) -> Bitmap {
        let bitmap = Bitmap(width: max(1, Int((width * scale).rounded())), height: max(1, Int((height * scale).rounded())))
        guard let surface = cairo_image_surface_create_for_data(
            bitmap.pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.stride))
        else { return bitmap }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return bitmap }
        defer { cairo_destroy(cr) }
        cairo_scale(cr, Double(bitmap.width) / width, Double(bitmap.height) / height)
        fillCover(cr, color: color, width: width, height: height)
        let window = (x: spineWidth + frame, y: frame, width: width - spineWidth - 2 * frame, height: height - 2 * frame - nameBand)
        if window.width > 0 && window.height > 0 {
            drawPaper(cr, picture: picture, window: window)
        }
        drawName(cr, name: name, color: color, width: width, height: height, keepingEnd: keepingEnd)
        cairo_surface_flush(surface)
        return bitmap
    }

    private static func setColor(_ cr: OpaquePointer, _ rgb: UInt32, alpha: Double = 1) {
        cairo_set_source_rgba(cr, Double((rgb >> 16) & 0xFF) / 255, Double((rgb >> 8) & 0xFF) / 255, Double(rgb & 0xFF) / 255, alpha)
    }

    /// The cover board and its spine, a band along the left edge a little darker.
    private static func fillCover(_ cr: OpaquePointer, color: UInt32, width: Double, height: Double) {
        setColor(cr, color)
        cairo_rectangle(cr, 0, 0, width, height)
        cairo_fill(cr)
        cairo_set_source_rgba(cr, 0, 0, 0, 0.22)
        cairo_rectangle(cr, 0, 0, spineWidth, height)
        cairo_fill(cr)
        cairo_set_source_rgba(cr, 1, 1, 1, 0.18)
        cairo_rectangle(cr, spineWidth, 0, 1, height)
        cairo_fill(cr)
    }

    /// The paper label in its window, the picture fitted in it, with a thin dark edge.
    private static func drawPaper(_ cr: OpaquePointer, picture: Bitmap?, window w: (x: Double, y: Double, width: Double, height: Double)) {
        setColor(cr, paper)
        cairo_rectangle(cr, w.x, w.y, w.width, w.height)
        cairo_fill(cr)
        if let picture, let source = cairo_image_surface_create_for_data(
            picture.pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(picture.width), Int32(picture.height), Int32(picture.stride)) {
            defer { cairo_surface_destroy(source) }
            // Fitted whole, centred: the sheet as it is, smaller.
            let k = min(w.width / Double(picture.width), w.height / Double(picture.height))
            let shown = (width: Double(picture.width) * k, height: Double(picture.height) * k)
            cairo_save(cr)
            cairo_rectangle(cr, w.x, w.y, w.width, w.height)
            cairo_clip(cr)
            cairo_translate(cr, w.x + (w.width - shown.width) / 2, w.y + (w.height - shown.height) / 2)
            cairo_scale(cr, k, k)
            cairo_set_source_surface(cr, source, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
            cairo_paint(cr)
            cairo_restore(cr)
        }
        cairo_set_source_rgba(cr, 0, 0, 0, 0.35)
        cairo_set_line_width(cr, 1)
        cairo_rectangle(cr, w.x + 0.5, w.y + 0.5, w.width - 1, w.height - 1)
        cairo_stroke(cr)
    }

    /// The name, centred in the band at the foot of the cover, in white on dark covers and
    /// near-black on light ones, shortened with an ellipsis to fit.
    private static func drawName(_ cr: OpaquePointer, name: String, color: UInt32, width: Double, height: Double, keepingEnd: Bool) {
        let r = Double((color >> 16) & 0xFF), g = Double((color >> 8) & 0xFF), b = Double(color & 0xFF)
        let light = (0.299 * r + 0.587 * g + 0.114 * b) / 255 > 0.6
        setColor(cr, light ? 0x20_2020 : 0xFF_FFFF)
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cairo_set_font_size(cr, nameSize)
        let room = width - spineWidth - 2 * frame
        var shown = name
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, shown, &extents)
        while extents.x_advance > room, !shown.isEmpty {
            shown = keepingEnd ? "…" + String(shown.dropFirst(2)) : String(shown.dropLast(2)) + "…"
            if shown == "…" { break }
            cairo_text_extents(cr, shown, &extents)
        }
        let x = spineWidth + frame + max(0, (room - extents.x_advance) / 2)
        let y = height - nameBand / 2 - (extents.y_bearing + extents.height / 2)
        cairo_move_to(cr, x, y)
        cairo_show_text(cr, shown)
    }
}
