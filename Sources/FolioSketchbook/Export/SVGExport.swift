import FolioGeometry

/// A sheet's ink as SVG: each stroke is its smoothed path, with the same width, colour, round
/// caps and joins as on screen, so the export is resolution-free and matches the canvas.
public enum SVGExport {
    /// The logical area a sheet's drawing occupies, from the canvas origin: what exports default to.
    public static func extent(of sheet: Sheet) -> Size {
        let bounds = sheet.strokes.reduce(Rect.null) { $0.union($1.bounds) }
        guard !bounds.isNull else { return Size(width: 1, height: 1) }
        return Size(width: max(1, bounds.maxX.rounded(.up)), height: max(1, bounds.maxY.rounded(.up)))
    }

    public static func document(for sheet: Sheet, size: Size) -> String {
        var svg = """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(number(size.width))" height="\(number(size.height))" \
        viewBox="0 0 \(number(size.width)) \(number(size.height))">
        <rect width="100%" height="100%" fill="#FFFFFF"/>

        """
        svg += paperElements(sheet.paper, size: size)
        for stroke in sheet.strokes {
            if stroke.hasPressure {
                svg += "<path d=\"\(outlineData(stroke))\" fill=\"\(HexColor.format(stroke.style.color))\" fill-rule=\"nonzero\"/>\n"
                continue
            }
            svg += "<path d=\"\(pathData(stroke.path))\" fill=\"none\" stroke=\"\(HexColor.format(stroke.style.color))\" "
            svg += "stroke-width=\"\(number(stroke.style.width))\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n"
        }
        return svg + "</svg>\n"
    }

    /// The paper under the ink: one path of lines, or one of dots (zero-length segments whose
    /// round caps are the dots).
    static func paperElements(_ paper: Paper, size: Size) -> String {
        let color = HexColor.format(paper.color)
        let lines = paper.lines(on: size), dots = paper.dots(on: size)
        var svg = ""
        if !lines.isEmpty {
            svg += "<path d=\"" + lines.map { "M\(pair($0.from))L\(pair($0.to))" }.joined() + "\" fill=\"none\" stroke=\"\(color)\" "
            svg += "stroke-width=\"\(number(Paper.lineWidth))\"/>\n"
        }
        if !dots.isEmpty {
            svg += "<path d=\"" + dots.map { "M\(pair($0))h0" }.joined() + "\" fill=\"none\" stroke=\"\(color)\" "
            svg += "stroke-width=\"\(number(Paper.dotDiameter))\" stroke-linecap=\"round\"/>\n"
        }
        return svg
    }

    static func pathData(_ path: [PathElement]) -> String {
        var parts: [String] = []
        for element in path {
            switch element {
            case let .move(p): parts.append("M\(pair(p))")
            case let .line(p): parts.append("L\(pair(p))")
            case let .quad(c, p): parts.append("Q\(pair(c)) \(pair(p))")
            case let .curve(c1, c2, p): parts.append("C\(pair(c1)) \(pair(c2)) \(pair(p))")
            }
        }
        // A lone move is a tap: a zero-length line with round caps draws the dot.
        if path.count == 1 { parts.append("l0 0") }
        return parts.joined(separator: " ")
    }

    /// A pressure stroke's filled outline: every piece `PressureOutline` makes, as one subpath
    /// each, all turning the same way so the nonzero rule fills their union. A run of quads that
    /// share edges becomes one polygon (its first side forward, its other side back).
    static func outlineData(_ stroke: Stroke) -> String {
        var parts: [String] = []
        var left: [Point] = [], right: [Point] = []
        func closeRun() {
            guard !left.isEmpty else { return }
            var ring = left + right.reversed()
            if signedArea(ring) < 0 { ring.reverse() }
            parts.append("M" + ring.map(pair).joined(separator: " L") + " Z")
            left.removeAll()
            right.removeAll()
        }
        PressureOutline.pieces(path: stroke.path, pressures: stroke.pressurePath, curve: stroke.pressureCurve) { piece in
            switch piece {
            case let .quad(a, b, c, d, continuesRun):
                if !continuesRun {
                    closeRun()
                    left = [a]
                    right = [d]
                }
                left.append(b)
                right.append(c)
            case let .disc(centre, radius):
                closeRun()
                // Two half-circle arcs, clockwise on screen like the rings above.
                let r = number(radius)
                parts.append("M\(pair(Point(x: centre.x - radius, y: centre.y))) A\(r) \(r) 0 1 1 \(pair(Point(x: centre.x + radius, y: centre.y)))"
                             + " A\(r) \(r) 0 1 1 \(pair(Point(x: centre.x - radius, y: centre.y))) Z")
            }
        }
        closeRun()
        return parts.joined(separator: " ")
    }

    /// Twice the signed area of a ring, positive when it turns clockwise on screen (y down).
    private static func signedArea(_ ring: [Point]) -> Double {
        var sum = 0.0
        for i in ring.indices {
            let p = ring[i], q = ring[(i + 1) % ring.count]
            sum += p.x * q.y - q.x * p.y
        }
        return sum
    }

    private static func pair(_ p: Point) -> String { "\(number(p.x)) \(number(p.y))" }

    /// Up to three decimals, no trailing zeros: compact and exact enough for 1/1000 px.
    static func number(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        // Whole numbers print without ".0"; only those Int holds go through Int (no trap).
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        var text = String(rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
