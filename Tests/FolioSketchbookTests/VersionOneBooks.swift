import Foundation
import FolioGeometry
@testable import FolioSketchbook

/// The encoder of Folio's format version 1 (`book.json`, one JSON document), as Folio wrote it
/// before `book.folio`: the tests write old books with it to check that they open and migrate.
enum VersionOneBooks {
    private struct Document: Encodable {
        var format = "folio-sketchbook"
        var version = 1
        var currentSheet: Int
        var sheets: [SheetRecord]
    }

    private struct SheetRecord: Encodable {
        var strokes: [StrokeRecord]
    }

    private struct StrokeRecord: Encodable {
        var width: Double
        var color: String
        var points: [Double]
    }

    /// A document of these fields as they are, whatever Folio's ranges say.
    static func reencode(_ format: String, _ version: Int, _ currentSheet: Int,
                         _ sheets: [[(width: Double, color: String, points: [Double])]]) throws -> Data {
        var document = Document(currentSheet: currentSheet, sheets: sheets.map { strokes in
            SheetRecord(strokes: strokes.map { StrokeRecord(width: $0.width, color: $0.color, points: $0.points) })
        })
        document.format = format
        document.version = version
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(document)
    }

    static func encode(_ book: Sketchbook) throws -> Data {
        let document = Document(currentSheet: book.currentSheet, sheets: book.sheets.map { sheet in
            SheetRecord(strokes: sheet.strokes.map { stroke in
                StrokeRecord(width: stroke.style.width, color: HexColor.format(stroke.style.color),
                             points: stroke.points.flatMap { [$0.x, $0.y] })
            })
        })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(document)
    }
}
