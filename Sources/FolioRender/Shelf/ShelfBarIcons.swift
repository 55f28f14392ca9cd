import CCairo
import FolioGeometry
import Foundation

/// The shelf bar's icons, drawn in the current source colour as strokes inside a square `box`:
/// a button too narrow for a word still says what it does.
enum ShelfBarIcons {
    static func draw(_ icon: ShelfBarArt.Icon, in box: Rect, _ cr: OpaquePointer) {
        let s = box.width
        guard s > 0 else { return }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_translate(cr, box.minX + s / 2, box.minY + s / 2)
        cairo_set_line_width(cr, s * 0.11)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        // Coordinates below are in sides of the box from its centre: each icon keeps within ±0.45.
        func move(_ x: Double, _ y: Double) { cairo_move_to(cr, x * s, y * s) }
        func line(_ x: Double, _ y: Double) { cairo_line_to(cr, x * s, y * s) }
        switch icon {
        case .plus:
            move(0, -0.38); line(0, 0.38)
            move(-0.38, 0); line(0.38, 0)
            cairo_stroke(cr)
        case .palette:
            cairo_arc(cr, 0, 0, 0.38 * s, 0, 2 * Double.pi)
            cairo_stroke(cr)
            for angle in [-2.4, -1.2, 0.0] {
                cairo_arc(cr, 0.18 * s * cos(angle), 0.18 * s * sin(angle), 0.07 * s, 0, 2 * Double.pi)
                cairo_fill(cr)
            }
        case .bin:
            move(-0.36, -0.24); line(0.36, -0.24)
            move(-0.1, -0.36); line(0.1, -0.36)
            move(-0.26, -0.14); line(-0.2, 0.38); line(0.2, 0.38); line(0.26, -0.14)
            cairo_stroke(cr)
        case .pencil:
            cairo_rotate(cr, -Double.pi / 4)
            move(-0.2, -0.09); line(0.42, -0.09); line(0.42, 0.09); line(-0.2, 0.09)
            cairo_close_path(cr)
            move(-0.2, -0.09); line(-0.42, 0); line(-0.2, 0.09)
            cairo_stroke(cr)
        case .undo:
            // A hook bending back to the left, its arrowhead pointing down at the left end.
            cairo_arc(cr, 0.02 * s, 0.04 * s, 0.28 * s, Double.pi, 2.3 * Double.pi)
            cairo_stroke(cr)
            move(-0.4, -0.06); line(-0.26, 0.14); line(-0.1, -0.04)
            cairo_stroke(cr)
        }
    }
}
