import Foundation
import FolioGeometry

/// The sketchbook's format version 1: one JSON document, `book.json`, holding every sheet's
/// strokes as their input points. Folio reads it and migrates it to `book.folio`; it no longer
/// writes it.
enum BookFile {
    static let format = "folio-sketchbook"
    static let version = 1

    struct Document {
        var format: String
        var version: Int
        var currentSheet: Int
        var sheets: [SheetRecord]
    }

    struct SheetRecord {
        var strokes: [StrokeRecord]
    }

    /// A stroke with its points flattened to `[x0, y0, x1, y1, …]`: compact and easy to read.
    struct StrokeRecord {
        var width: Double
        var color: String
        var points: [Double]
    }

    /// Decodes and checks a book; every problem is a `BookError.damaged` naming what is wrong.
    static func decode(_ data: Data, path: String) throws -> Sketchbook {
        let document: Document
        do {
            document = try data.withUnsafeBytes { try read($0) }
        } catch let failure as JSONScanner.Failure {
            throw BookError.damaged(path: path, reason: "not a Folio sketchbook (\(failure.reason))")
        }
        guard document.format == format else {
            throw BookError.damaged(path: path, reason: "format is \"\(document.format)\", not \"\(format)\"")
        }
        guard document.version <= version else {
            throw BookError.damaged(path: path, reason: "written by a newer Folio (version \(document.version))")
        }
        guard !document.sheets.isEmpty else { throw BookError.damaged(path: path, reason: "it has no sheets") }
        // Version 2's limits, so that every book read can be migrated and saved.
        guard document.sheets.count <= BookRecords.maximumSheets else {
            throw BookError.damaged(path: path, reason: "\(document.sheets.count) sheets; a book holds at most \(BookRecords.maximumSheets)")
        }
        // Said 0-based as written: currentSheet may be any Int, and adding 1 could overflow.
        guard document.sheets.indices.contains(document.currentSheet) else {
            throw BookError.damaged(path: path, reason: "currentSheet \(document.currentSheet) names no sheet "
                                    + "(they count from 0; the book has \(document.sheets.count))")
        }
        var sheets: [Sheet] = []
        for (sheetIndex, record) in document.sheets.enumerated() {
            var strokes: [Stroke] = []
            guard record.strokes.count <= BookRecords.maximumStrokesPerSheet else {
                throw BookError.damaged(path: path, reason: "sheet \(sheetIndex + 1): \(record.strokes.count) strokes; "
                                        + "a sheet holds at most \(BookRecords.maximumStrokesPerSheet)")
            }
            for (strokeIndex, stroke) in record.strokes.enumerated() {
                let place = "sheet \(sheetIndex + 1), stroke \(strokeIndex + 1)"
                guard stroke.points.count <= 2 * BookRecords.maximumPointsPerStroke else {
                    throw BookError.damaged(path: path, reason: "\(place): more than \(BookRecords.maximumPointsPerStroke) points")
                }
                guard stroke.points.count >= 2, stroke.points.count % 2 == 0, stroke.points.allSatisfy(\.isFinite) else {
                    throw BookError.damaged(path: path, reason: "\(place): points must be finite x, y pairs")
                }
                if let far = stroke.points.firstIndex(where: { abs($0) > SurfaceLimits.farthestCoordinate }) {
                    throw BookError.damaged(path: path, reason: "\(place): point \(far / 2 + 1) is beyond "
                                            + "±\(Int(SurfaceLimits.farthestCoordinate)) logical pixels")
                }
                guard stroke.width.isFinite, stroke.width > 0, stroke.width <= 1000 else {
                    throw BookError.damaged(path: path, reason: "\(place): ink width \(stroke.width)")
                }
                guard let color = HexColor.parse(stroke.color) else {
                    throw BookError.damaged(path: path, reason: "\(place): colour \"\(stroke.color)\" is not #RRGGBB")
                }
                let points = stride(from: 0, to: stroke.points.count, by: 2).map {
                    Point(x: stroke.points[$0], y: stroke.points[$0 + 1])
                }
                strokes.append(Stroke(points: points, style: InkStyle(width: stroke.width, color: color)))
            }
            sheets.append(Sheet(strokes: strokes))
        }
        return Sketchbook(sheets: sheets, currentSheet: document.currentSheet)
    }

    /// The document in JSON text, read in one pass without building JSON values first (a
    /// million sheets, or 10,000 strokes of 200 points, in a fraction of a second). Unknown
    /// fields are skipped; a field of the wrong type or a missing one is a failure.
    private static func read(_ bytes: UnsafeRawBufferPointer) throws(JSONScanner.Failure) -> Document {
        var scanner = JSONScanner(bytes)
        var format: String?, version: Int?, currentSheet: Int?, sheets: [SheetRecord]?
        try scanner.object { (scanner: inout JSONScanner, key: String) throws(JSONScanner.Failure) in
            switch key {
            case "format": format = try string(&scanner, at: key)
            case "version": version = try integer(&scanner, at: key)
            case "currentSheet": currentSheet = try integer(&scanner, at: key)
            case "sheets": sheets = try readSheets(&scanner)
            default: try scanner.skipValue()
            }
        }
        try scanner.expectEnd()
        guard let format else { throw missing("format") }
        guard let version else { throw missing("version") }
        guard let currentSheet else { throw missing("currentSheet") }
        guard let sheets else { throw missing("sheets") }
        return Document(format: format, version: version, currentSheet: currentSheet, sheets: sheets)
    }

    private static func readSheets(_ scanner: inout JSONScanner) throws(JSONScanner.Failure) -> [SheetRecord] {
        try expect(.array, &scanner, at: "sheets")
        var sheets: [SheetRecord] = []
        try scanner.array { (scanner: inout JSONScanner) throws(JSONScanner.Failure) in
            let place = "sheets.\(sheets.count)"
            try expect(.object, &scanner, at: place)
            var strokes: [StrokeRecord]?
            try scanner.object { (scanner: inout JSONScanner, key: String) throws(JSONScanner.Failure) in
                guard key == "strokes" else { return try scanner.skipValue() }
                strokes = try readStrokes(&scanner, at: place + ".strokes")
            }
            guard let strokes else { throw missing("strokes") }
            sheets.append(SheetRecord(strokes: strokes))
        }
        return sheets
    }

    private static func readStrokes(_ scanner: inout JSONScanner, at path: String) throws(JSONScanner.Failure) -> [StrokeRecord] {
        try expect(.array, &scanner, at: path)
        var strokes: [StrokeRecord] = []
        try scanner.array { (scanner: inout JSONScanner) throws(JSONScanner.Failure) in
            let place = "\(path).\(strokes.count)"
            try expect(.object, &scanner, at: place)
            var width: Double?, color: String?, points: [Double]?
            try scanner.object { (scanner: inout JSONScanner, key: String) throws(JSONScanner.Failure) in
                switch key {
                case "width":
                    try expect(.number, &scanner, at: "\(place).width")
                    width = try scanner.double()
                case "color": color = try string(&scanner, at: "\(place).color")
                case "points":
                    try expect(.array, &scanner, at: "\(place).points")
                    var values: [Double] = []
                    try scanner.array { (scanner: inout JSONScanner) throws(JSONScanner.Failure) in
                        try expect(.number, &scanner, at: "\(place).points.\(values.count)")
                        values.append(try scanner.double())
                    }
                    points = values
                default: try scanner.skipValue()
                }
            }
            guard let width else { throw missing("width") }
            guard let color else { throw missing("color") }
            guard let points else { throw missing("points") }
            strokes.append(StrokeRecord(width: width, color: color, points: points))
        }
        return strokes
    }

    /// `path` is made only when it is needed: it is asked for every point.
    private static func expect(_ kind: JSONScanner.Kind, _ scanner: inout JSONScanner,
                               at path: @autoclosure () -> String) throws(JSONScanner.Failure) {
        guard scanner.nextKind() == kind else { throw JSONScanner.Failure(reason: "wrong type at \(path())") }
    }

    private static func string(_ scanner: inout JSONScanner, at path: String) throws(JSONScanner.Failure) -> String {
        try expect(.string, &scanner, at: path)
        return try scanner.string()
    }

    private static func integer(_ scanner: inout JSONScanner, at path: String) throws(JSONScanner.Failure) -> Int {
        try expect(.number, &scanner, at: path)
        guard let value = try scanner.integer() else { throw JSONScanner.Failure(reason: "\(path) is not a whole number within ±2⁶³") }
        return value
    }

    private static func missing(_ key: String) -> JSONScanner.Failure {
        JSONScanner.Failure(reason: "missing \"\(key)\"")
    }
}
