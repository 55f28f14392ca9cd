import FolioGeometry
import Foundation
import XCTest
@testable import FolioInput

/// How a trace file is read: its line ends, its JSON, its numbers, and what it must be on disk.
final class TraceReadingTests: XCTestCase {
    private let lines = [
        "{\"t\": 0, \"kind\": \"touch.down\", \"id\": 1, \"x\": 10, \"y\": 10}",
        "# a comment",
        "",
        "{\"t\": 16, \"kind\": \"touch.motion\", \"id\": 1, \"x\": 60, \"y\": 40}",
        "{\"t\": 32, \"kind\": \"touch.up\", \"id\": 1}",
    ]

    /// "\r\n" and a lone "\r" end lines as "\n" does, mixed too, and line numbers count them so.
    func testEveryLineEndReadsTheSame() throws {
        let expected = try Trace(parsing: lines.joined(separator: "\n")).events
        XCTAssertEqual(expected.count, 6)
        for end in ["\r\n", "\r"] {
            XCTAssertEqual(try Trace(parsing: lines.joined(separator: end) + end).events, expected, end.debugDescription)
        }
        XCTAssertEqual(try Trace(parsing: lines[0] + "\r\n" + lines[1] + "\r" + lines[2] + "\n" + lines[3] + "\r\n" + lines[4]).events, expected)
        for (end, name) in [("\r\n", "CRLF"), ("\r", "CR"), ("\n", "LF")] {
            let text = (lines + ["{\"t\": 40, \"kind\": \"nope\"}"]).joined(separator: end)
            XCTAssertThrowsError(try Trace(parsing: text)) { error in
                XCTAssertEqual(error as? TraceError, TraceError(line: 6, message: "unknown kind \"nope\""), name)
            }
        }
        // "\r\n" is one line end, not an empty line between two.
        XCTAssertEqual(Trace.lines(of: "a\r\nb\r\rc\n").map(String.init), ["a", "b", "", "c", ""])
    }

    /// A number too large for a Double names its field and line, not "not valid JSON"; every
    /// field with a range says that range.
    func testNumbersOutOfRangeNameTheirField() {
        let cases: [(String, String)] = [
            ("{\"t\": 1e999, \"kind\": \"touch.frame\"}", "\"t\" is out of range: the number is too large for a 64-bit float"),
            ("{\"t\": 0, \"kind\": \"touch.down\", \"id\": 1, \"x\": -1e999, \"y\": 0}", "\"x\" is out of range"),
            ("{\"t\": 0, \"kind\": \"pinch.update\", \"scale\": 1, \"dx\": 1E+400}", "\"dx\" is out of range"),
            ("{\"t\": 0, \"kind\": \"touch.down\", \"id\": 99999999999999999999, \"x\": 0, \"y\": 0}", "\"id\" must be a 32-bit integer"),
        ]
        for (line, message) in cases {
            XCTAssertThrowsError(try Trace(parsing: "\n" + line)) { error in
                XCTAssertEqual((error as? TraceError)?.line, 2, line)
                XCTAssertTrue("\(error)".hasPrefix("trace line 2: \(message)"), "\(error)")
            }
        }
        // Tiny numbers are read as the nearest Double (zero), as JSON allows.
        XCTAssertEqual(try Trace(parsing: "{\"t\": 1e-999, \"kind\": \"touch.frame\"}").events.first?.time, 0)
    }

    /// The JSON reader is strict RFC 8259, with escapes, and a key given twice is an error.
    func testJSONIsReadStrictly() throws {
        let trace = try Trace(parsing: "{\"t\": 0, \"kind\": \"key\", \"keys\": \"\\u0063trl+z\", \"state\": \"pressed\", \"note\": \"caf\\u00e9 \\ud83d\\ude00 \\\"q\\\" \\\\\"}")
        XCTAssertEqual(trace.events.first?.event, .key(KeyChord(parsing: "ctrl+z") ?? KeyChord(key: "z"), pressed: true))
        XCTAssertEqual(try TraceJSON.parse(" {\"a\": [1, -0.5e2, true, null, \"\\u00e9\\ud83d\\ude00\"]} "),
                       .object(["a": .array([.number(1), .number(-50), .bool(true), .null, .string("é😀")])]))
        let bad: [(String, String)] = [
            ("{\"t\": 0, \"t\": 1, \"kind\": \"touch.frame\"}", "not valid JSON: \"t\" is given twice at column 10"),
            ("{\"t\": 0, \"kind\": \"touch.frame\"} x", "not valid JSON: more after the JSON value at column 33"),
            ("  \t{\"t\": 0, \"kind\": \"touch.frame\"} x", "not valid JSON: more after the JSON value at column 36"),
            ("{\"t\": 01, \"kind\": \"touch.frame\"}", "not valid JSON"),
            ("{\"t\": .5, \"kind\": \"touch.frame\"}", "not valid JSON"),
            ("{\"t\": 0, \"kind\": \"touch.frame\",}", "not valid JSON"),
            ("{\"t\": 0, \"kind\": \"touch\u{1}.frame\"}", "not valid JSON: a control character in a string"),
            ("{\"t\": 0, \"kind\": \"\\ud83d\"}", "not valid JSON"),
            ("{\"t\": 0, \"kind\": \"touch.frame\"", "not valid JSON"),
            ("{\"t\": 0, \"kind\": \"touch.frame\", \"x\": " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}",
             "not valid JSON: nested deeper than 32"),
        ]
        for (line, message) in bad {
            XCTAssertThrowsError(try Trace(parsing: line), line) { error in
                XCTAssertTrue("\(error)".hasPrefix("trace line 1: \(message)"), "\(error) should say \(message)")
            }
        }
    }

    /// Only a regular file is read: a FIFO (with no writer, which an open for reading would wait
    /// for) and a folder are refused by their kind, and an empty path is no file.
    func testOnlyARegularFileIsRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-trace-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("fifo")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        let cases: [(URL, String)] = [
            (fifo, "\(fifo.path) is a FIFO, not a regular file"),
            (folder, "\(folder.path) is a folder, not a file"),
            (folder.appendingPathComponent("none.jsonl"), "\(folder.path)/none.jsonl: no such file"),
            (URL(fileURLWithPath: "\(folder.path)/fifo/x"), "\(folder.path)/fifo/x cannot be read: Not a directory"),
        ]
        for (url, message) in cases {
            XCTAssertThrowsError(try Trace.load(contentsOf: url)) { XCTAssertEqual("\($0)", message) }
        }
        let link = folder.appendingPathComponent("link.jsonl")
        try Data((lines.joined(separator: "\r\n") + "\r\n").utf8).write(to: folder.appendingPathComponent("t.jsonl"))
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "t.jsonl")
        XCTAssertEqual(try Trace.load(contentsOf: link).events.count, 6, "a link to a regular file is followed")
    }
}
