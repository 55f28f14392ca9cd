import CCairo
import CPixman
import FolioGeometry
import FolioPixels

/// The shelf's bar as an image at buffer resolution: a rounded button per control with its
/// label, the one waiting for a cover (`chosen`) lit, the disabled ones faded. A button too
/// narrow for its label shows a shorter one, then an icon: one style for the whole bar, the
/// longest every button fits, so nothing ever reaches past its button.
public enum ShelfBarArt {
    /// What a button can show, longest first.
    public struct Face: Equatable, Sendable {
        public var label: String
        public var short: String
        public var icon: Icon

        public init(label: String, short: String, icon: Icon) {
            self.label = label
            self.short = short
            self.icon = icon
        }
    }

    /// The drawn icons, for buttons too narrow for any label.
    public enum Icon: CaseIterable, Sendable {
        case plus, palette, bin, pencil, undo
    }

    /// What every button of the bar shows.
    public enum Style: Equatable, Sendable {
        case labels, shortLabels, icons
    }

    static let fontSize = 15.0
    /// Room kept between a label or icon and its button's edge, logical px.
    public static let padding = 6.0
    /// An icon's side where the button has room for it; smaller in a smaller button.
    public static let iconSize = 24.0

    /// The longest style every button fits: labels, else short labels, else icons.
    static func style(for faces: [Face], in rects: [Rect], scale: Double) -> Style {
        measuring(scale: scale, fallback: .icons) { cr in style(for: faces, in: rects, cr) }
    }

    /// The style, measured with `cr` (scaled and with the bar's font).
    private static func style(for faces: [Face], in rects: [Rect], _ cr: OpaquePointer) -> Style {
        if fits(faces.map(\.label), rects, cr) { return .labels }
        return fits(faces.map(\.short), rects, cr) ? .shortLabels : .icons
    }

    /// Where each button's label or icon is drawn, logical px: inside its button by `padding`
    /// (empty for a button too small to show anything).
    static func contentBoxes(faces: [Face], rects: [Rect], scale: Double) -> [Rect] {
        measuring(scale: scale, fallback: rects.map(iconBox)) { cr in
            let style = style(for: faces, in: rects, cr)
            return zip(faces, rects).map { face, r in
                switch style {
                case .labels: textBox(face.label, in: r, cr).ink
                case .shortLabels: textBox(face.short, in: r, cr).ink
                case .icons: iconBox(in: r)
                }
            }
        }
    }

    /// Draws buttons `rects` (logical px, relative to `origin`) showing `faces` into an image of
    /// `size` logical px at `scale`.
    public static func draw(faces: [Face], rects: [Rect], chosen: Int?, disabled: Set<Int>, origin: Point, size: Size,
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
        setFont(cr)
        let style = style(for: faces, in: rects, cr)
        for (index, (face, r)) in zip(faces, rects).enumerated() {
            let lit = index == chosen, faded = disabled.contains(index)
            cairo_save(cr)
            roundedRect(cr, r, radius: min(12, r.width / 2, r.height / 2))
            cairo_set_source_rgba(cr, lit ? 0.95 : 0.16, lit ? 0.78 : 0.16, lit ? 0.35 : 0.18, 0.92)
            // Whatever the label's shape, its ink stays on its own button.
            cairo_fill_preserve(cr)
            cairo_clip(cr)
            let alpha = faded ? 0.35 : 1
            if lit { cairo_set_source_rgba(cr, 0.1, 0.1, 0.1, alpha) } else { cairo_set_source_rgba(cr, 1, 1, 1, alpha) }
            switch style {
            case .labels: drawText(face.label, in: r, cr)
            case .shortLabels: drawText(face.short, in: r, cr)
            case .icons: ShelfBarIcons.draw(face.icon, in: iconBox(in: r), cr)
            }
            cairo_restore(cr)
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

    // MARK: - Labels and icons

    /// A label centred on its button: where the pen starts and the box its ink covers.
    private static func textBox(_ text: String, in r: Rect, _ cr: OpaquePointer) -> (pen: Point, ink: Rect) {
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, text, &extents)
        let pen = Point(x: r.minX + (r.width - extents.x_advance) / 2, y: r.minY + r.height / 2 - (extents.y_bearing + extents.height / 2))
        return (pen, Rect(x: pen.x + extents.x_bearing, y: pen.y + extents.y_bearing, width: extents.width, height: extents.height))
    }

    private static func fits(_ texts: [String], _ rects: [Rect], _ cr: OpaquePointer) -> Bool {
        zip(texts, rects).allSatisfy { text, r in
            let ink = textBox(text, in: r, cr).ink, room = r.insetBy(dx: padding, dy: padding)
            return ink.minX >= room.minX && ink.maxX <= room.maxX && ink.minY >= room.minY && ink.maxY <= room.maxY
        }
    }

    private static func drawText(_ text: String, in r: Rect, _ cr: OpaquePointer) {
        let pen = textBox(text, in: r, cr).pen
        cairo_move_to(cr, pen.x, pen.y)
        cairo_show_text(cr, text)
    }

    /// The square an icon is drawn in: `iconSize`, or what the button has inside its padding.
    static func iconBox(in r: Rect) -> Rect {
        let side = max(0, min(iconSize, r.width - 2 * padding, r.height - 2 * padding))
        return Rect(x: (r.minX + r.width / 2) - side / 2, y: (r.minY + r.height / 2) - side / 2, width: side, height: side)
    }

    private static func setFont(_ cr: OpaquePointer) {
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cairo_set_font_size(cr, fontSize)
    }

    /// Runs `body` with a context set up as drawing sets one up at `scale` (text measures as
    /// drawn); `fallback` when cairo cannot make one.
    private static func measuring<T>(scale: Double, fallback: T, _ body: (OpaquePointer) -> T) -> T {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1) else { return fallback }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return fallback }
        defer { cairo_destroy(cr) }
        cairo_scale(cr, scale, scale)
        setFont(cr)
        return body(cr)
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
