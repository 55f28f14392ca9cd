import FolioGeometry
import Foundation
import FolioRandom
import XCTest
@testable import FolioSketchbook

/// The version-1 reader reads JSON itself: it must agree with Foundation's JSONDecoder on what
/// a book holds, and refuse what is not JSON.
final class VersionOneReaderTests: XCTestCase {
    /// JSONDecoder's reading of a version-1 document, for comparison.
    private struct Document: Decodable {
        var format: String
        var version: Int
        var currentSheet: Int
        var sheets: [SheetRecord]
        struct SheetRecord: Decodable { var strokes: [StrokeRecord] }
        struct StrokeRecord: Decodable {
            var width: Double
            var color: String
            var points: [Double]
        }
    }

    private func read(_ text: String) throws -> Sketchbook {
        try BookFile.decode(Data(text.utf8), path: "book.json")
    }

    private func reason(_ text: String) -> String {
        do {
            _ = try read(text)
            return "loaded"
        } catch {
            return "\(error)"
        }
    }

    func testWhatJSONAllowsIsRead() throws {
        let text = """
             {"extra": {"a": [1, 2.5e-3, true, false, null, "x\\"\\u00e9\\ud83d\\ude00"]}, "format" : "folio-sketchbook",
              "version": 1, "currentSheet": 1, "sheets": [{"strokes": []}, {"note": [[[]]], "strokes": [
              {"color": "#0000FF", "width": 6, "points": [1, -2.5, 3E2, 0.125e+1], "pressure": null}]}]}\t\r\n
            """
        let book = try read(text)
        XCTAssertEqual(book.currentSheet, 1)
        XCTAssertEqual(book.sheets.map(\.strokes.count), [0, 1])
        XCTAssertEqual(book.sheets[1].strokes[0].points, [Point(x: 1, y: -2.5), Point(x: 300, y: 1.25)])
        XCTAssertEqual(book.sheets[1].strokes[0].style, InkStyle(width: 6, color: 0x0000FF))
    }

    func testWhatIsNotJSONOrNotABookIsRefused() {
        let good = #"{"format":"folio-sketchbook","version":1,"currentSheet":0,"sheets":[{"strokes":[]}]}"#
        XCTAssertEqual(reason(good), "loaded")
        let cases: [(String, String)] = [
            ("", "the text ends where { should be"),
            (good + "x", "more text after the book"),
            (good.replacingOccurrences(of: "1,", with: "01,"), "not a number"),
            (good.replacingOccurrences(of: "1,", with: "1.,"), "digits after its point"),
            (good.replacingOccurrences(of: "1,", with: "1.5,"), "version is not a whole number"),
            (good.replacingOccurrences(of: "\"version\":1", with: "\"version\":\"1\""), "wrong type at version"),
            (good.replacingOccurrences(of: "0,", with: "99999999999999999999,"), "currentSheet is not a whole number"),
            (good.replacingOccurrences(of: ",\"version\":1", with: ""), "missing \"version\""),
            (good.replacingOccurrences(of: "\"strokes\":[]", with: "\"strokes\":{}"), "wrong type at sheets.0.strokes"),
            (good.replacingOccurrences(of: "folio-sketchbook", with: "folio\u{1}"), "a control character in a string"),
            (good.replacingOccurrences(of: "folio-sketchbook", with: "a\\x"), "an unknown escape"),
            (good.replacingOccurrences(of: "folio-sketchbook", with: "\\ud800"), "a lone surrogate"),
            (good.replacingOccurrences(of: "[{", with: "[{,"), "expected a key"),
            (good.replacingOccurrences(of: "]}]}", with: "]}}}"), "expected , or ]"),
            (String(repeating: "[", count: 600), "expected {"),
            ("{\"x\":" + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}", "nested more than 512 deep"),
            (good.replacingOccurrences(of: "{\"format", with: "{\"x\":tru,\"format"), "not a JSON value"),
        ]
        for (text, expected) in cases {
            let said = reason(text)
            XCTAssertTrue(said.contains("is damaged and was left untouched") && said.contains(expected), "\(text.prefix(80)): \(said)")
        }
    }

    /// Mutated books: whenever JSONDecoder reads a document, the reader reads the same book.
    func testAgreesWithJSONDecoderOnMutatedBooks() throws {
        var first = Sheet()
        first.append(Stroke(points: [Point(x: 1.5, y: 2), Point(x: 30.25, y: 40)]))
        first.append(Stroke(points: [Point(x: 7, y: 8)], style: InkStyle(width: 3, color: 0x12AB00)))
        let valid = Array(String(decoding: try VersionOneBooks.encode(Sketchbook(sheets: [first, Sheet()], currentSheet: 1)), as: UTF8.self))
        let alphabet = Array("{}[]\",:0123456789.-eE#ABCDEFtruefalsnul \\\u{00e9}")
        var random = SeededRandom(state: 0x1EAD)
        func next(_ bound: Int) -> Int { random.next(bound) }
        var compared = 0
        for _ in 0..<3000 {
            var text = valid
            for _ in 0...next(3) where !text.isEmpty {
                let at = next(text.count)
                switch next(3) {
                case 0: text.remove(at: at)
                case 1: text.insert(alphabet[next(alphabet.count)], at: at)
                default: text[at] = alphabet[next(alphabet.count)]
                }
            }
            let data = Data(String(text).utf8)
            guard let document = try? JSONDecoder().decode(Document.self, from: data) else { continue }
            let mine = try? BookFile.decode(data, path: "fuzz.json")
            let theirs = try? BookFile.decode(VersionOneBooks.reencode(document.format, document.version, document.currentSheet,
                                                                        document.sheets.map { $0.strokes.map { ($0.width, $0.color, $0.points) } }),
                                              path: "fuzz.json")
            XCTAssertEqual(mine?.sheets.map(\.strokes), theirs?.sheets.map(\.strokes), String(text))
            XCTAssertEqual(mine?.currentSheet, theirs?.currentSheet, String(text))
            compared += 1
        }
        XCTAssertGreaterThan(compared, 200, "enough mutated books JSONDecoder reads")
    }
}
