import CCairo
import CPixman
import FolioGeometry
import FolioPixels

/// The shelf's bar as an image at buffer resolution: a rounded button per control with its
/// label, the one waiting for a cover (`chosen`) lit, the disabled ones faded.
public enum ShelfBarArt {
    /// Draws buttons `rects` (logical px, relative to `origin`) labelled `labels` into an image of
    /// `size` logical px at `scale`.
    public static func draw(labels: [String], rects: [Rect], chosen: Int?, disabled: Set<Int>, origin: Point, size: Size,
                            scale: Double) -> Bitmap {
        let bitmap = Bitmap(width: max(1, Int((size.width * scale).rounded(.up))), height: max(1, Int((size.height * scale).rounded(.up))))
        guard let surface = cairo_image_surface_create_for_data(
            bitmap.pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.stride))
        else { return bitmap }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return bitmap }
        defer { cairo_destroy(cr) }
        cairo_scale(cr, scale, scale)
        cairo_translate(cr, -origin.x, -origin.y)
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cairo_set_font_size(cr, 15)
        for (index, (label, r)) in zip(labels, rects).enumerated() {
            let lit = index == chosen, faded = disabled.contains(index)
            roundedRect(cr, r, radius: 12)
            cairo_set_source_rgba(cr, lit ? 0.95 : 0.16, lit ? 0.78 : 0.16, lit ? 0.35 : 0.18, 0.92)
            cairo_fill(cr)
            var extents = cairo_text_extents_t()
            cairo_text_extents(cr, label, &extents)
            let alpha = faded ? 0.35 : 1
            if lit { cairo_set_source_rgba(cr, 0.1, 0.1, 0.1, alpha) } else { cairo_set_source_rgba(cr, 1, 1, 1, alpha) }
            cairo_move_to(cr, r.minX + (r.width - extents.x_advance) / 2, r.minY + r.height / 2 - (extents.y_bearing + extents.height / 2))
            cairo_show_text(cr, label)
        }
        cairo_surface_flush(surface)
        return bitmap
    }

    /// Draws `art` over `target` with its corner at (`x`, `y`), only inside `clip` (buffer px).
    public static func draw(_ art: Bitmap, over target: Bitmap, atX x: Int, y: Int, clip: PixelRect) {
        let r = PixelRect(x: x, y: y, width: art.width, height: art.height).intersection(clip).intersection(target.bounds)
        guard !r.isEmpty else { return }
        pixman_image_composite32(PIXMAN_OP_OVER, art.image, nil, target.image, Int32(r.x - x), Int32(r.y - y), 0, 0,
                                 Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height))
    }

    private static func roundedRect(_ cr: OpaquePointer, _ r: Rect, radius k: Double) {
        cairo_new_sub_path(cr)
        cairo_arc(cr, r.maxX - k, r.minY + k, k, -Double.pi / 2, 0)
        cairo_arc(cr, r.maxX - k, r.maxY - k, k, 0, Double.pi / 2)
        cairo_arc(cr, r.minX + k, r.maxY - k, k, Double.pi / 2, Double.pi)
        cairo_arc(cr, r.minX + k, r.minY + k, k, Double.pi, 1.5 * Double.pi)
        cairo_close_path(cr)
    }
}
