import Foundation
import FolioGeometry

/// The sketchbook's format version 1: one JSON document, `book.json`, holding every sheet's
/// strokes as their input points. Folio reads it and migrates it to `book.folio`; it no longer
/// writes it.
enum BookFile {
    static let format = "folio-sketchbook"
    static let version = 1

    struct Document: Decodable {
        var format: String
        var version: Int
        var currentSheet: Int
        var sheets: [SheetRecord]
    }

    struct SheetRecord: Decodable {
        var strokes: [StrokeRecord]
    }

    /// A stroke with its points flattened to `[x0, y0, x1, y1, …]`: compact and easy to read.
    struct StrokeRecord: Decodable {
        var width: Double
        var color: String
        var points: [Double]
    }

    /// Decodes and checks a book; every problem is a `BookError.damaged` naming what is wrong.
    static func decode(_ data: Data, path: String) throws -> Sketchbook {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw BookError.damaged(path: path, reason: "not a Folio sketchbook (\(describe(error)))")
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
                guard let color = parseHex(stroke.color) else {
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

    static func hex(_ rgb: UInt32) -> String {
        let digits = String(rgb & 0xFF_FFFF, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }

    static func parseHex(_ text: String) -> UInt32? {
        guard text.count == 7, text.first == "#", let value = UInt32(text.dropFirst(), radix: 16) else { return nil }
        return value
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case let DecodingError.dataCorrupted(context): context.debugDescription
        case let DecodingError.keyNotFound(key, _): "missing \"\(key.stringValue)\""
        case let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context):
            "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: "\(error)"
        }
    }
}
