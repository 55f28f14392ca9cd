import FolioGeometry
import FolioRandom
import FolioTestSupport
import XCTest
@testable import FolioInput

final class TraceTests: XCTestCase {
    func testParsesTheDocumentedExample() throws {
        let trace = try Trace(parsing: ExampleTrace.text)
        XCTAssertEqual(trace.events.count, 15)
        XCTAssertEqual(trace.events[0], TimedInputEvent(time: 0, event: .touchDown(id: 1, at: Point(x: 200, y: 200))))
        XCTAssertEqual(trace.events[2].event, .touchMotion(id: 1, to: Point(x: 260, y: 230)))
        XCTAssertEqual(trace.events[4].event, .touchUp(id: 1))
        XCTAssertEqual(trace.duration, 700)
    }

    func testEveryKindParses() throws {
        let text = """
        {"t": 0, "kind": "pointer.motion", "x": 1.5, "y": 2.25}
        {"t": 1, "kind": "pointer.button", "button": "left", "state": "pressed"}
        {"t": 2, "kind": "pinch.begin", "fingers": 2}
        {"t": 3, "kind": "pinch.update", "scale": 0.8, "dx": 1, "dy": -1, "rotation": 3}
        {"t": 4, "kind": "pinch.end", "cancelled": true}
        {"t": 5, "kind": "key", "keys": "ctrl+shift+z", "state": "pressed"}
        {"t": 6, "kind": "resize", "width": 800, "height": 600, "scale": 2}
        {"t": 7, "kind": "resize", "width": 800, "height": 600}
        {"t": 7, "kind": "resize", "width": 800, "height": 600, "scale": 1.25}
        {"t": 7, "kind": "resize", "width": 800, "height": 600, "scale": 1.33}
        {"t": 8, "kind": "touch.cancel"}
        """
        let events = try Trace(parsing: text).events.map(\.event)
        XCTAssertEqual(events, [
            .pointerMotion(to: Point(x: 1.5, y: 2.25)),
            .pointerButton(.left, pressed: true),
            .pinchBegin(fingers: 2),
            .pinchUpdate(scale: 0.8, dx: 1, dy: -1, rotation: 3),
            .pinchEnd(cancelled: true),
            .key(KeyChord(key: "z", modifiers: [.ctrl, .shift]), pressed: true),
            .resize(width: 800, height: 600, scale: 2),
            .resize(width: 800, height: 600, scale: nil),
            .resize(width: 800, height: 600, scale: BufferScale(numerator: 150)),
            .resize(width: 800, height: 600, scale: BufferScale(numerator: 160)),  // the nearest 1/120
            .touchCancel,
            .touchFrame,  // no frames in this trace: each touch line is its own frame
        ])
    }

    func testATraceWithoutFramesGetsOneFramePerTouchLine() throws {
        let text = """
        {"t": 0, "kind": "touch.down", "id": 1, "x": 10, "y": 10}
        {"t": 5, "kind": "touch.motion", "id": 1, "x": 20, "y": 10}
        {"t": 6, "kind": "key", "keys": "F11", "state": "pressed"}
        {"t": 9, "kind": "touch.up", "id": 1}
        """
        let events = try Trace(parsing: text).events
        XCTAssertEqual(events.map(\.event), [
            .touchDown(id: 1, at: Point(x: 10, y: 10)), .touchFrame,
            .touchMotion(id: 1, to: Point(x: 20, y: 10)), .touchFrame,
            .key(KeyChord(key: "F11"), pressed: true),
            .touchUp(id: 1), .touchFrame,
        ])
        XCTAssertEqual(events[3].time, 5)
    }

    func testMalformedLinesNameTheirLine() {
        let cases: [(String, Int, String)] = [
            ("{\"t\": 0, \"kind\": \"touch.frame\"}\n{not json", 2, "not valid JSON"),
            ("\n# comment\n[1, 2]", 3, "expected a JSON object"),
            ("{\"kind\": \"touch.frame\"}", 1, "missing \"t\""),
            ("{\"t\": 0}", 1, "missing \"kind\""),
            ("{\"t\": 0, \"kind\": \"touch.wiggle\"}", 1, "unknown kind"),
            ("{\"t\": 0, \"kind\": \"touch.down\", \"id\": 1, \"x\": 3}", 1, "missing \"y\""),
            ("{\"t\": 0, \"kind\": \"touch.down\", \"id\": 1.5, \"x\": 3, \"y\": 4}", 1, "\"id\" must be a 32-bit integer"),
            ("{\"t\": 0, \"kind\": \"touch.down\", \"id\": 1, \"x\": \"3\", \"y\": 4}", 1, "\"x\" must be a number"),
            ("{\"t\": 0, \"kind\": \"touch.down\", \"id\": 1, \"x\": true, \"y\": 4}", 1, "\"x\" must be a number"),
            ("{\"t\": 5, \"kind\": \"touch.frame\"}\n{\"t\": 4, \"kind\": \"touch.frame\"}", 2, "goes back"),
            ("{\"t\": -1, \"kind\": \"touch.frame\"}", 1, "must not be negative"),
            ("{\"t\": 1e12, \"kind\": \"touch.frame\"}", 1, "must be at most 1000000000 ms"),
            ("{\"t\": 1e308, \"kind\": \"touch.frame\"}", 1, "must be at most 1000000000 ms"),
            ("{\"t\": 0, \"kind\": \"pointer.button\", \"button\": \"thumb\", \"state\": \"pressed\"}", 1, "unknown button"),
            ("{\"t\": 0, \"kind\": \"key\", \"keys\": \"hyper+z\", \"state\": \"pressed\"}", 1, "cannot read keys"),
            ("{\"t\": 0, \"kind\": \"key\", \"keys\": \"z\", \"state\": \"down\"}", 1, "\"state\" must be"),
            ("{\"t\": 0, \"kind\": \"pinch.end\", \"cancelled\": 1}", 1, "true or false"),
            ("{\"t\": 0, \"kind\": \"pinch.update\", \"scale\": 0}", 1, "\"scale\" must be positive"),
            ("{\"t\": 0, \"kind\": \"resize\", \"width\": 0, \"height\": 10}", 1, "\"width\" must be"),
            ("{\"t\": 0, \"kind\": \"resize\", \"width\": 10, \"height\": 10, \"scale\": 0.9}", 1, "\"scale\" must be a number from 1 to 8"),
            ("{\"t\": 0, \"kind\": \"resize\", \"width\": 10, \"height\": 10, \"scale\": 8.01}", 1, "\"scale\" must be a number from 1 to 8"),
            ("{\"t\": 0, \"kind\": \"touch.down\", \"id\": 1, \"x\": 1e20, \"y\": 0}", 1, "within ±1000000"),
            ("{\"t\": 0, \"kind\": \"touch.motion\", \"id\": 1, \"x\": 0, \"y\": -1e308}", 1, "within ±1000000"),
            ("{\"t\": 0, \"kind\": \"pointer.motion\", \"x\": 1000000.5, \"y\": 0}", 1, "within ±1000000"),
        ]
        for (text, line, fragment) in cases {
            XCTAssertThrowsError(try Trace(parsing: text), text) { error in
                guard let error = error as? TraceError else { return XCTFail("not a TraceError: \(error)") }
                XCTAssertEqual(error.line, line, text)
                XCTAssertTrue(error.description.contains(fragment), "\(error) should mention \(fragment)")
                XCTAssertTrue(error.description.hasPrefix("trace line \(line):"), error.description)
            }
        }
    }

    /// A line longer than `Trace.longestLine` is refused before it is parsed, naming its line; a
    /// real event padded with blanks up to the limit still reads.
    func testLinesBeyondTheLongestAreRefusedNamingTheLine() throws {
        let event = "{\"t\": 0, \"kind\": \"touch.frame\"}"
        let padded = event + String(repeating: " ", count: Trace.longestLine - event.utf8.count)
        XCTAssertEqual(try Trace(parsing: padded + "\n" + padded).events.count, 2)

        let numbers = "[" + Array(repeating: "1234567", count: 200_000).joined(separator: ",") + "]"
        XCTAssertThrowsError(try Trace(parsing: event + "\n" + numbers)) { error in
            guard let error = error as? TraceError else { return XCTFail("not a TraceError: \(error)") }
            XCTAssertEqual(error.line, 2)
            XCTAssertTrue(error.description.contains("\(numbers.utf8.count) bytes"), error.description)
            XCTAssertTrue(error.description.contains("at most \(Trace.longestLine)"), error.description)
        }
        XCTAssertThrowsError(try Trace(parsing: padded + " "))
    }

    func testCoordinatesUpToAMillionAreAccepted() throws {
        let trace = try Trace(parsing: """
            {"t": 0, "kind": "touch.down", "id": 1, "x": 1000000, "y": -1000000}
            {"t": 1, "kind": "pointer.motion", "x": -1e6, "y": 1e-320}
            """)
        XCTAssertEqual(trace.events.first?.event, .touchDown(id: 1, at: Point(x: 1e6, y: -1e6)))
    }

    func testSerializationRoundTrips() throws {
        let trace = try Trace(parsing: ExampleTrace.text)
        let again = try Trace(parsing: trace.serialized())
        XCTAssertEqual(trace.events, again.events)
    }

    /// A fractional scale is written as a number that reads back as the same 120ths.
    func testFractionalScalesRoundTrip() throws {
        let events = [121, 150, 180, 210, 959].map {
            TimedInputEvent(time: 0, event: .resize(width: 640, height: 400, scale: BufferScale(numerator: $0)))
        }
        XCTAssertEqual(try Trace(parsing: Trace(events: events).serialized()).events, events)
    }

    /// Mutated traces either parse or throw a TraceError naming a real line: never crash or hang.
    /// Numbers are also swapped for the extremes of Double and Int; what parses is in range.
    func testFuzzedTracesNeverCrash() {
        var rng = SplitMix64(seed: 0xF011_0)
        let lines = ExampleTrace.text.split(separator: "\n").map(String.init)
        let alphabet = Array("{}[]\",:0123456789.-+eEtruefalsn \\xyidkindtouchframe#\u{00e9}\u{1F4A9}")
        for _ in 0..<3000 {
            var chosen = (0..<Int(rng.next() % 6 + 1)).map { _ in lines[Int(rng.next() % UInt64(lines.count))] }
            for i in chosen.indices where rng.next() % 2 == 0 {
                var chars = Array(chosen[i])
                for _ in 0..<Int(rng.next() % 4 + 1) where !chars.isEmpty {
                    let at = Int(rng.next() % UInt64(chars.count))
                    switch rng.next() % 4 {
                    case 0: chars.remove(at: at)
                    case 1: chars.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: at)
                    case 2: chars[at] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                    default: Self.replaceANumber(in: &chars, using: &rng)
                    }
                }
                chosen[i] = String(chars)
            }
            let text = chosen.joined(separator: "\n")
            do {
                for event in try Trace(parsing: text).events {
                    XCTAssertTrue(event.time >= 0 && event.time <= Trace.longest, text)
                    switch event.event {
                    case let .touchDown(_, p), let .touchMotion(_, p), let .pointerMotion(p):
                        XCTAssertTrue(SurfaceLimits.isWithinReach(p), text)
                    case let .resize(width, height, _):
                        XCTAssertTrue((1...16384).contains(width) && (1...16384).contains(height), text)
                    default: break
                    }
                }
            } catch let error as TraceError {
                XCTAssert((1...chosen.count).contains(error.line), "\(error) for \(text)")
            } catch {
                XCTFail("unexpected error \(error) for \(text)")
            }
        }
    }

    /// Numbers at the edges of what JSON, Double and Int hold, and of the trace's ranges.
    static let extremeNumbers = ["1e308", "-1e308", "1.7976931348623157e308", "9223372036854775807", "-9223372036854775808",
                                 "9223372036854775808", "1e-320", "-0", "1e20", "1000000", "-1000000.5", "1e9", "1e12",
                                 "16384", "16385", "2147483648", "1e999"]

    /// Swaps one number of `chars` (the first digit of a run, chosen at random) for an extreme.
    static func replaceANumber(in chars: inout [Character], using rng: inout SplitMix64) {
        let numeric = Set("0123456789.-+eE")
        let starts = chars.indices.filter { i in chars[i].isNumber && (i == 0 || !numeric.contains(chars[i - 1])) }
        guard !starts.isEmpty else { return }
        let start = starts[Int(rng.next() % UInt64(starts.count))]
        var end = start
        while end < chars.count, numeric.contains(chars[end]) { end += 1 }
        chars.replaceSubrange(start..<end, with: extremeNumbers[Int(rng.next() % UInt64(extremeNumbers.count))])
    }

    func testKeyChordsNormalise() {
        XCTAssertEqual(KeyChord(parsing: "shift+ctrl+Z"), KeyChord(key: "z", modifiers: [.ctrl, .shift]))
        XCTAssertEqual(KeyChord(parsing: "shift+ctrl+Z")?.description, "ctrl+shift+z")
        XCTAssertEqual(KeyChord(parsing: "F11")?.key, "F11")
        XCTAssertNil(KeyChord(parsing: "ctrl+"))
        XCTAssertNil(KeyChord(parsing: ""))
    }
}
