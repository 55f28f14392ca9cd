import CCairo
import Foundation
import FolioGeometry
import FolioSketchbook

/// The whole book as a PDF through cairo's PDF surface: one page per sheet, each stroke its
/// smoothed path stroked as vector art (width, colour, round caps and joins as on screen), on
/// pages of one size. A logical pixel is 0.75 pt (96 per inch), as CSS and SVG count.
public enum PDFExport {
    public struct Error: Swift.Error, CustomStringConvertible {
        public var description: String
    }

    public static let pointsPerPixel = 0.75

    /// `date` as cairo's metadata wants it: ISO 8601 in UTC, to the second.
    static func metadataDate(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                      Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    /// The page size that holds every sheet's drawing, in logical pixels (at least 1×1).
    public static func extent(of book: Sketchbook) -> Size {
        book.sheets.map(SVGExport.extent(of:)).reduce(Size(width: 1, height: 1)) {
            Size(width: max($0.width, $1.width), height: max($0.height, $1.height))
        }
    }

    /// The PDF's bytes: `book`'s sheets in order on pages of `size` logical pixels, created at
    /// `date` (the same book and date give the same bytes; cairo would write its own clock).
    public static func document(for book: Sketchbook, size: Size, date: Date = Date()) throws -> Data {
        let sink = Sink()
        let unmanaged = Unmanaged.passRetained(sink)
        defer { unmanaged.release() }
        let write: cairo_write_func_t = { closure, bytes, length in
            guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
            return CAIRO_STATUS_SUCCESS
        }
        guard let surface = cairo_pdf_surface_create_for_stream(write, unmanaged.toOpaque(),
                                                                size.width * pointsPerPixel, size.height * pointsPerPixel) else {
            throw Error(description: "cairo could not make a PDF surface")
        }
        defer { cairo_surface_destroy(surface) }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, Self.metadataDate(date))
        guard let cairo = cairo_create(surface) else { throw Error(description: "cairo could not draw on the PDF surface") }
        defer { cairo_destroy(cairo) }
        cairo_scale(cairo, pointsPerPixel, pointsPerPixel)
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
        for sheet in book.sheets {
            drawPaper(sheet.paper, size: size, in: cairo)
            for stroke in sheet.strokes {
                let rgb = stroke.style.color
                cairo_set_source_rgb(cairo, Double((rgb >> 16) & 0xFF) / 255, Double((rgb >> 8) & 0xFF) / 255, Double(rgb & 0xFF) / 255)
                if stroke.hasPressure {
                    fillOutline(of: stroke, in: cairo)
                    continue
                }
                trace(stroke.path, in: cairo)
                cairo_set_line_width(cairo, stroke.style.width)
                cairo_stroke(cairo)
            }
            cairo_show_page(cairo)
        }
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw Error(description: "cairo could not write the PDF: \(String(cString: cairo_status_to_string(status)))")
        }
        return sink.data
    }

    /// A pressure stroke's filled outline (`PressureOutline`), as the screen and SVG have it:
    /// each piece a subpath, filled together with the nonzero rule (pieces turn one way).
    private static func fillOutline(of stroke: Stroke, in cairo: OpaquePointer) {
        cairo_set_fill_rule(cairo, CAIRO_FILL_RULE_WINDING)
        PressureOutline.pieces(path: stroke.path, pressures: stroke.pressurePath, curve: stroke.pressureCurve) { piece in
            switch piece {
            case let .quad(a, b, c, d, _):
                // Each quad on its own, turned clockwise on the page (y down), so none cancels another.
                // In two typed parts: Swift 6.2 gives up type-checking the one-expression form.
                let along: Double = (b.x - a.x) * (c.y - a.y)
                let across: Double = (b.y - a.y) * (c.x - a.x)
                let clockwise = along - across >= 0
                let corners = clockwise ? [a, b, c, d] : [a, d, c, b]
                cairo_move_to(cairo, corners[0].x, corners[0].y)
                for p in corners.dropFirst() { cairo_line_to(cairo, p.x, p.y) }
                cairo_close_path(cairo)
            case let .disc(centre, radius):
                cairo_new_sub_path(cairo)
                cairo_arc(cairo, centre.x, centre.y, radius, 0, 2 * Double.pi)
                cairo_close_path(cairo)
            }
        }
        cairo_fill(cairo)
    }

    /// A sheet's paper under its ink: its lines stroked, its dots as zero-length round-capped lines.
    private static func drawPaper(_ paper: Paper, size: Size, in cairo: OpaquePointer) {
        let lines = paper.lines(on: size), dots = paper.dots(on: size)
        guard !lines.isEmpty || !dots.isEmpty else { return }
        let rgb = paper.color
        cairo_set_source_rgb(cairo, Double((rgb >> 16) & 0xFF) / 255, Double((rgb >> 8) & 0xFF) / 255, Double(rgb & 0xFF) / 255)
        if !lines.isEmpty {
            for line in lines {
                cairo_move_to(cairo, line.from.x, line.from.y)
                cairo_line_to(cairo, line.to.x, line.to.y)
            }
            cairo_set_line_cap(cairo, CAIRO_LINE_CAP_BUTT)
            cairo_set_line_width(cairo, Paper.lineWidth)
            cairo_stroke(cairo)
        }
        if !dots.isEmpty {
            for dot in dots {
                cairo_move_to(cairo, dot.x, dot.y)
                cairo_line_to(cairo, dot.x, dot.y)
            }
            cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
            cairo_set_line_width(cairo, Paper.dotDiameter)
            cairo_stroke(cairo)
        }
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
    }

    private static func trace(_ path: [PathElement], in cairo: OpaquePointer) {
        var current = Point(x: 0, y: 0)
        for element in path {
            switch element {
            case let .move(p):
                cairo_move_to(cairo, p.x, p.y)
            case let .line(p):
                cairo_line_to(cairo, p.x, p.y)
            case let .quad(c, p):
                // A quadratic Bézier as the cubic cairo draws: controls two thirds toward c.
                cairo_curve_to(cairo, current.x + 2 / 3 * (c.x - current.x), current.y + 2 / 3 * (c.y - current.y),
                               p.x + 2 / 3 * (c.x - p.x), p.y + 2 / 3 * (c.y - p.y), p.x, p.y)
            case let .curve(c1, c2, p):
                cairo_curve_to(cairo, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
            }
            current = element.endPoint
        }
        // A lone move is a tap: a zero-length line with round caps draws the dot.
        if path.count == 1 { cairo_line_to(cairo, current.x, current.y) }
    }

    /// Where cairo's stream of bytes goes.
    private final class Sink {
        var data = Data()
    }
}
