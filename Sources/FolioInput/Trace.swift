import Foundation
import FolioFiles
import FolioGeometry

/// An input trace (`docs/trace-format.md`): JSON Lines of timed input events.
public struct Trace: Sendable {
    /// The latest time a trace may name, in ms: longer than any session at a tablet, short
    /// enough that a replay's 60 Hz clock counts it exactly.
    public static let longest = 1e9
    /// The longest line a trace may hold, in bytes: a real event takes under 200, and the limit
    /// keeps a hostile line (megabytes of numbers) from costing memory out of all proportion.
    public static let longestLine = 4096
    /// Characters a `text` event holds at most (an on-screen keyboard commits a word or a few).
    public static let longestText = 256
    public var events: [TimedInputEvent]

    public init(events: [TimedInputEvent]) {
        self.events = events
    }

    /// The time of the last event, in milliseconds; 0 for an empty trace.
    public var duration: Double { events.last?.time ?? 0 }

    /// The trace in the regular file at `url` (a folder, a FIFO or a device is refused unread).
    public static func load(contentsOf url: URL) throws -> Trace {
        let bytes: [UInt8]?
        do {
            bytes = try readRegularFile(url.path)
        } catch {
            throw TraceError(line: 0, message: error.description)
        }
        guard let bytes else { throw TraceError(line: 0, message: "\(url.path): no such file") }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw TraceError(line: 0, message: "\(url.path) is not UTF-8 text")
        }
        do {
            return try Trace(parsing: text)
        } catch var error as TraceError {
            error.file = url.path
            throw error
        }
    }

    /// Parses a trace. A trace with no `touch.frame` at all is read as one frame per touch line,
    /// and one with no `tablet.frame` as one frame per tablet line.
    public init(parsing text: String) throws {
        var events: [TimedInputEvent] = []
        var hasFrames = false, hasTabletFrames = false
        var lastTime = -Double.infinity
        var lineNumber = 0
        for rawLine in Self.lines(of: text) {
            lineNumber += 1
            guard rawLine.utf8.count <= Trace.longestLine else {
                throw TraceError(line: lineNumber, message: "the line is \(rawLine.utf8.count) bytes long; "
                                 + "a trace line holds at most \(Trace.longestLine)")
            }
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let indent = rawLine.unicodeScalars.prefix { CharacterSet.whitespacesAndNewlines.contains($0) }.reduce(0) { $0 + UTF8.width($1) }
            let event = try TraceLineParser(line: line, number: lineNumber, indent: indent).parse()
            if event.time < lastTime {
                throw TraceError(line: lineNumber, message: "time \(format(event.time)) goes back before \(format(lastTime))")
            }
            lastTime = event.time
            if event.event == .touchFrame { hasFrames = true }
            if event.event == .tabletFrame { hasTabletFrames = true }
            events.append(event)
        }
        if !hasFrames || !hasTabletFrames {
            events = events.flatMap { event -> [TimedInputEvent] in
                if !hasFrames, event.event.isTouch { return [event, TimedInputEvent(time: event.time, event: .touchFrame)] }
                if !hasTabletFrames, event.event.isTablet { return [event, TimedInputEvent(time: event.time, event: .tabletFrame)] }
                return [event]
            }
        }
        self.events = events
    }

    /// The lines of `text`, each ended by "\n", "\r\n" or a lone "\r" (or the end of the text).
    static func lines(of text: String) -> [Substring] {
        var lines: [Substring] = []
        let utf8 = text.utf8
        var start = utf8.startIndex, index = start
        while index != utf8.endIndex {
            let byte = utf8[index]
            guard byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else {
                index = utf8.index(after: index)
                continue
            }
            lines.append(text[start..<index])
            index = utf8.index(after: index)
            if byte == UInt8(ascii: "\r"), index != utf8.endIndex, utf8[index] == UInt8(ascii: "\n") { index = utf8.index(after: index) }
            start = index
        }
        lines.append(text[start...])
        return lines
    }

    /// The trace as JSON Lines, the inverse of `init(parsing:)`.
    public func serialized() -> String {
        events.map { TraceLineWriter.line(for: $0) }.joined(separator: "\n") + "\n"
    }
}

/// A malformed trace: which line, and what is wrong with it.
public struct TraceError: Error, CustomStringConvertible, Equatable {
    /// The trace file, when the trace came from one.
    public var file: String?
    public var line: Int
    public var message: String

    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    public var description: String {
        guard line > 0 else { return message }
        return (file.map { "\($0): " } ?? "") + "trace line \(line): \(message)"
    }
}

extension InputEvent {
    var isTouch: Bool {
        switch self {
        case .touchDown, .touchMotion, .touchUp, .touchCancel, .touchShape: true
        default: false
        }
    }

    var isTablet: Bool {
        switch self {
        case .tabletProximityIn, .tabletProximityOut, .tabletDown, .tabletUp, .tabletMotion, .tabletButton: true
        default: false
        }
    }
}

private func format(_ t: Double) -> String {
    t == t.rounded() && abs(t) < 1e15 ? String(Int(t)) : String(t)
}

private struct TraceLineParser {
    let line: String
    let number: Int
    /// The bytes of white space before `line` on its line, so columns count from the line's start.
    let indent: Int

    func fail(_ message: String) -> TraceError { TraceError(line: number, message: message) }

    /// The `text` of a `text` or `composing` event: at most `Trace.longestText` characters (at
    /// least one unless `mayBeEmpty`), none of them a control character.
    private func typedText(_ fields: Fields, mayBeEmpty: Bool) throws -> String {
        let text = try fields.string("text")
        guard text.count <= Trace.longestText, mayBeEmpty || !text.isEmpty else {
            throw fail("\"text\" must hold \(mayBeEmpty ? "at most" : "1 to") \(Trace.longestText) characters")
        }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw fail("\"text\" must not hold control characters")
        }
        return text
    }

    func parse() throws -> TimedInputEvent {
        let value: JSONValue
        do {
            value = try TraceJSON.parse(line)
        } catch {
            throw fail("not valid JSON: \(error.message) at column \(indent + error.column)")
        }
        guard case let .object(object) = value else { throw fail("expected a JSON object") }
        let fields = Fields(object: object, parser: self)
        let time = try fields.number("t")
        guard time >= 0 else { throw fail("\"t\" must not be negative") }
        guard time <= Trace.longest else { throw fail("\"t\" must be at most \(Int(Trace.longest)) ms (11.6 days)") }
        let kind = try fields.string("kind")
        let event: InputEvent
        switch kind {
        case "touch.down":
            event = .touchDown(id: try fields.id(), at: try fields.point())
        case "touch.motion":
            event = .touchMotion(id: try fields.id(), to: try fields.point())
        case "touch.up":
            event = .touchUp(id: try fields.id())
        case "touch.frame":
            event = .touchFrame
        case "touch.cancel":
            event = .touchCancel
        case "pointer.motion":
            event = .pointerMotion(to: try fields.point())
        case "pointer.button":
            let name = try fields.string("button")
            guard let button = PointerButton(rawValue: name) else { throw fail("unknown button \"\(name)\"") }
            event = .pointerButton(button, pressed: try fields.pressed())
        case "pinch.begin":
            let fingers = try fields.number("fingers")
            guard fingers >= 1, fingers == fingers.rounded(), fingers < 100 else { throw fail("\"fingers\" must be a small positive integer") }
            event = .pinchBegin(fingers: Int(fingers))
        case "pinch.update":
            let scale = try fields.number("scale")
            guard scale > 0 else { throw fail("\"scale\" must be positive") }
            event = .pinchUpdate(scale: scale, dx: try fields.number("dx", default: 0),
                                 dy: try fields.number("dy", default: 0), rotation: try fields.number("rotation", default: 0))
        case "pinch.end":
            event = .pinchEnd(cancelled: try fields.bool("cancelled", default: false))
        case "key":
            let text = try fields.string("keys")
            guard let chord = KeyChord(parsing: text) else { throw fail("cannot read keys \"\(text)\"") }
            event = .key(chord, pressed: try fields.pressed())
        case "text":
            event = .text(try typedText(fields, mayBeEmpty: false))
        case "composing":
            event = .composing(try typedText(fields, mayBeEmpty: true))
        case "resize":
            let width = try fields.dimension("width"), height = try fields.dimension("height")
            // Any number from 1 to 8, taken at the nearest 1/120 (wp_fractional_scale_v1's unit).
            let scale = try fields.optionalNumber("scale").map { number in
                guard let scale = BufferScale(nearest: number), SurfaceLimits.scales.contains(scale) else {
                    throw fail("\"scale\" must be a number from 1 to 8")
                }
                return scale
            }
            event = .resize(width: width, height: height, scale: scale)
        case "touch.shape":
            event = .touchShape(id: try fields.id(), major: try fields.length("major"), minor: try fields.length("minor"))
        case "tablet.proximity_in":
            let name = try fields.optionalString("tool") ?? TabletTool.pen.rawValue
            guard let tool = TabletTool(rawValue: name) else { throw fail("unknown tool \"\(name)\"") }
            event = .tabletProximityIn(tool: tool)
        case "tablet.proximity_out":
            event = .tabletProximityOut
        case "tablet.down":
            event = .tabletDown
        case "tablet.up":
            event = .tabletUp
        case "tablet.motion":
            let pressure = try fields.optionalNumber("pressure")
            if let pressure, !(0...1).contains(pressure) { throw fail("\"pressure\" must be from 0 to 1") }
            let tiltX = try fields.optionalNumber("tilt_x"), tiltY = try fields.optionalNumber("tilt_y")
            for (key, value) in [("tilt_x", tiltX), ("tilt_y", tiltY)] {
                if let value, !PenTilt.range.contains(value) { throw fail("\"\(key)\" must be from -90 to 90 degrees") }
            }
            let tilt = tiltX == nil && tiltY == nil ? nil : PenTilt(x: tiltX ?? 0, y: tiltY ?? 0)
            event = .tabletMotion(to: try fields.point(), pressure: pressure, tilt: tilt)
        case "tablet.button":
            let button = try fields.number("button")
            guard button == button.rounded(), button >= 0, button <= Double(UInt32.max) else {
                throw fail("\"button\" must be a 32-bit unsigned integer")
            }
            event = .tabletButton(Int(button), pressed: try fields.pressed())
        case "tablet.frame":
            event = .tabletFrame
        default:
            throw fail("unknown kind \"\(kind)\"")
        }
        return TimedInputEvent(time: time, event: event)
    }
}

private struct Fields {
    let object: [String: JSONValue]
    let parser: TraceLineParser

    func optionalNumber(_ key: String) throws -> Double? {
        guard let value = object[key] else { return nil }
        guard case let .number(double) = value else { throw parser.fail("\"\(key)\" must be a number") }
        guard double.isFinite else { throw parser.fail("\"\(key)\" is out of range: the number is too large for a 64-bit float") }
        return double
    }

    func number(_ key: String) throws -> Double {
        guard let value = try optionalNumber(key) else { throw parser.fail("missing \"\(key)\"") }
        return value
    }

    /// `x` and `y`, each within `SurfaceLimits.farthestCoordinate` of the origin.
    func point() throws -> Point {
        let p = Point(x: try number("x"), y: try number("y"))
        guard SurfaceLimits.isWithinReach(p) else {
            throw parser.fail("\"x\" and \"y\" must be within ±\(Int(SurfaceLimits.farthestCoordinate)) (logical pixels)")
        }
        return p
    }

    func number(_ key: String, default fallback: Double) throws -> Double {
        try optionalNumber(key) ?? fallback
    }

    func string(_ key: String) throws -> String {
        guard let value = object[key] else { throw parser.fail("missing \"\(key)\"") }
        guard case let .string(string) = value else { throw parser.fail("\"\(key)\" must be a string") }
        return string
    }

    func optionalString(_ key: String) throws -> String? {
        guard object[key] != nil else { return nil }
        return try string(key)
    }

    /// A contact's axis (wl_touch.shape), 0 to `SurfaceLimits.farthestCoordinate` logical pixels.
    func length(_ key: String) throws -> Double {
        let value = try number(key)
        guard value >= 0, value <= SurfaceLimits.farthestCoordinate else {
            throw parser.fail("\"\(key)\" must be from 0 to \(Int(SurfaceLimits.farthestCoordinate)) (logical pixels)")
        }
        return value
    }

    func bool(_ key: String, default fallback: Bool) throws -> Bool {
        guard let value = object[key] else { return fallback }
        guard case let .bool(bool) = value else { throw parser.fail("\"\(key)\" must be true or false") }
        return bool
    }

    func id() throws -> Int32 {
        let value = try number("id")
        guard value == value.rounded(), value >= Double(Int32.min), value <= Double(Int32.max) else {
            throw parser.fail("\"id\" must be a 32-bit integer")
        }
        return Int32(value)
    }

    func dimension(_ key: String) throws -> Int {
        let value = try number(key)
        guard value == value.rounded(), value >= 1, value <= 16384 else {
            throw parser.fail("\"\(key)\" must be an integer from 1 to 16384")
        }
        return Int(value)
    }

    func pressed() throws -> Bool {
        let state = try string("state")
        switch state {
        case "pressed": return true
        case "released": return false
        default: throw parser.fail("\"state\" must be \"pressed\" or \"released\", not \"\(state)\"")
        }
    }
}

/// Writes events back as trace lines (used by tests, the demo and bug reports).
enum TraceLineWriter {
    static func line(for event: TimedInputEvent) -> String {
        var fields: [(String, String)] = [("t", format(event.time))]
        func add(_ key: String, _ value: String) { fields.append((key, value)) }
        func kind(_ name: String) { add("kind", "\"\(name)\"") }
        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        switch event.event {
        case let .touchDown(id, p): kind("touch.down"); add("id", "\(id)"); add("x", format(p.x)); add("y", format(p.y))
        case let .touchMotion(id, p): kind("touch.motion"); add("id", "\(id)"); add("x", format(p.x)); add("y", format(p.y))
        case let .touchUp(id): kind("touch.up"); add("id", "\(id)")
        case .touchFrame: kind("touch.frame")
        case .touchCancel: kind("touch.cancel")
        case let .pointerMotion(p): kind("pointer.motion"); add("x", format(p.x)); add("y", format(p.y))
        case let .pointerButton(button, pressed):
            kind("pointer.button"); add("button", "\"\(button.rawValue)\""); add("state", pressed ? "\"pressed\"" : "\"released\"")
        case let .pinchBegin(fingers): kind("pinch.begin"); add("fingers", "\(fingers)")
        case let .pinchUpdate(scale, dx, dy, rotation):
            kind("pinch.update"); add("scale", format(scale)); add("dx", format(dx)); add("dy", format(dy)); add("rotation", format(rotation))
        case let .pinchEnd(cancelled): kind("pinch.end"); add("cancelled", cancelled ? "true" : "false")
        case let .key(chord, pressed):
            kind("key"); add("keys", "\"\(chord.description)\""); add("state", pressed ? "\"pressed\"" : "\"released\"")
        case let .text(text):
            kind("text"); add("text", quoted(text))
        case let .composing(text):
            kind("composing"); add("text", quoted(text))
        case let .resize(width, height, scale):
            kind("resize"); add("width", "\(width)"); add("height", "\(height)")
            if let scale { add("scale", "\(scale.factor)") }
        case let .touchShape(id, major, minor):
            kind("touch.shape"); add("id", "\(id)"); add("major", format(major)); add("minor", format(minor))
        case let .tabletProximityIn(tool): kind("tablet.proximity_in"); add("tool", "\"\(tool.rawValue)\"")
        case .tabletProximityOut: kind("tablet.proximity_out")
        case .tabletDown: kind("tablet.down")
        case .tabletUp: kind("tablet.up")
        case let .tabletMotion(p, pressure, tilt):
            kind("tablet.motion"); add("x", format(p.x)); add("y", format(p.y))
            if let pressure { add("pressure", format(pressure)) }
            if let tilt { add("tilt_x", format(tilt.x)); add("tilt_y", format(tilt.y)) }
        case let .tabletButton(button, pressed):
            kind("tablet.button"); add("button", "\(button)"); add("state", pressed ? "\"pressed\"" : "\"released\"")
        case .tabletFrame: kind("tablet.frame")
        }
        return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }
}
