/// A JSON value that keeps booleans and numbers apart (a `true` is never a coordinate).
enum JSONValue: Equatable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])
}

/// A malformed trace line's JSON: what is wrong and at which column (1-based, in bytes).
struct JSONSyntaxError: Error, Equatable {
    var column: Int
    var message: String
}

/// Reads one trace line as JSON (RFC 8259), strictly. Numbers too large for a Double are read
/// as infinite rather than refused here, so the field they are given for can be named; a key
/// given twice is an error, since which one counts would be a guess.
struct TraceJSON {
    /// Deeper nesting than any event has, and shallow enough that the recursion stays small.
    static let deepest = 32
    private let bytes: [UInt8]
    private var at = 0

    private init(_ text: String) {
        bytes = Array(text.utf8)
    }

    static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        var reader = TraceJSON(text)
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.at == reader.bytes.count else { throw reader.fail("more after the JSON value") }
        return value
    }

    private func fail(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(column: at + 1, message: message)
    }

    private var next: UInt8? { at < bytes.count ? bytes[at] : nil }

    private mutating func skipSpace() {
        while let byte = next, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { at += 1 }
    }

    private mutating func expect(_ word: String) throws(JSONSyntaxError) {
        for byte in word.utf8 {
            guard next == byte else { throw fail("expected \(word)") }
            at += 1
        }
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        skipSpace()
        guard let byte = next else { throw fail("a value is missing") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw fail("unexpected character")
        }
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= Self.deepest else { throw fail("nested deeper than \(Self.deepest)") }
        at += 1
        var object: [String: JSONValue] = [:]
        skipSpace()
        if next == UInt8(ascii: "}") { at += 1; return .object(object) }
        while true {
            skipSpace()
            guard next == UInt8(ascii: "\"") else { throw fail("expected a key in double quotes") }
            let keyColumn = at
            let key = try string()
            skipSpace()
            try expect(":")
            let member = try value(depth: depth)
            guard object.updateValue(member, forKey: key) == nil else {
                throw JSONSyntaxError(column: keyColumn + 1, message: "\"\(key)\" is given twice")
            }
            skipSpace()
            if next == UInt8(ascii: ",") { at += 1; continue }
            try expect("}")
            return .object(object)
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= Self.deepest else { throw fail("nested deeper than \(Self.deepest)") }
        at += 1
        var array: [JSONValue] = []
        skipSpace()
        if next == UInt8(ascii: "]") { at += 1; return .array(array) }
        while true {
            array.append(try value(depth: depth))
            skipSpace()
            if next == UInt8(ascii: ",") { at += 1; continue }
            try expect("]")
            return .array(array)
        }
    }

    /// A number as JSON writes it; its value is the nearest Double, ±infinity beyond them all.
    private mutating func number() throws(JSONSyntaxError) -> Double {
        let start = at
        if next == UInt8(ascii: "-") { at += 1 }
        if next == UInt8(ascii: "0") {
            at += 1
        } else {
            guard digits() else { throw fail("expected a digit") }
        }
        if next == UInt8(ascii: ".") {
            at += 1
            guard digits() else { throw fail("expected a digit after the decimal point") }
        }
        if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            at += 1
            if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { at += 1 }
            guard digits() else { throw fail("expected a digit in the exponent") }
        }
        let text = String(decoding: bytes[start..<at], as: UTF8.self)
        guard let value = Double(text) else { throw JSONSyntaxError(column: start + 1, message: "cannot read the number") }
        return value
    }

    /// Skips decimal digits; whether there was one.
    private mutating func digits() -> Bool {
        let start = at
        while let byte = next, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { at += 1 }
        return at > start
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        at += 1
        var scalars = String.UnicodeScalarView()
        var run = at
        func flush(_ end: Int) { scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars) }
        while let byte = next {
            switch byte {
            case UInt8(ascii: "\""):
                flush(at)
                at += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush(at)
                at += 1
                scalars.append(try escape())
                run = at
            case 0..<0x20:
                throw fail("a control character in a string")
            default:
                at += 1
            }
        }
        throw fail("a string is not closed")
    }

    private mutating func escape() throws(JSONSyntaxError) -> Unicode.Scalar {
        guard let byte = next else { throw fail("a string is not closed") }
        at += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{8}"
        case UInt8(ascii: "f"): return "\u{C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try hex4()
            if (0xD800..<0xDC00).contains(unit) {
                try expect("\\u")
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low),
                      let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) else {
                    throw fail("a lone surrogate in \\u escapes")
                }
                return scalar
            }
            guard let scalar = Unicode.Scalar(unit) else { throw fail("a lone surrogate in \\u escapes") }
            return scalar
        default:
            throw fail("an unknown escape")
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var unit: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = next, let digit = UInt32(String(UnicodeScalar(byte)), radix: 16) else {
                throw fail("expected four hex digits after \\u")
            }
            unit = unit << 4 | digit
            at += 1
        }
        return unit
    }
}
