/// Reads JSON text (RFC 8259) token by token, straight from its bytes: what version-1 books need
/// to load quickly (a Decodable pass builds every value as an object first). Every error says
/// which byte.
struct JSONScanner {
    struct Failure: Error {
        var reason: String
    }

    /// Values nest at most this deep: deeper (in fields Folio skips) is damage, not a stack overflow.
    static let maximumDepth = 512

    private let bytes: UnsafeRawBufferPointer
    private(set) var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    enum Kind {
        case object, array, string, number, literal
    }

    func fail(_ reason: String) -> Failure {
        Failure(reason: "byte \(offset): \(reason)")
    }

    mutating func skipSpace() {
        while offset < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[offset]) { offset += 1 }
    }

    /// The kind of the next value, after any white space; nil at the end of the text.
    mutating func nextKind() -> Kind? {
        skipSpace()
        guard offset < bytes.count else { return nil }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: return .literal
        }
    }

    mutating func expect(_ character: Character) throws(Failure) {
        skipSpace()
        guard let ascii = character.asciiValue, offset < bytes.count, bytes[offset] == ascii else {
            throw fail(offset < bytes.count ? "expected \(character)" : "the text ends where \(character) should be")
        }
        offset += 1
    }

    /// The end of the text, white space aside.
    mutating func expectEnd() throws(Failure) {
        skipSpace()
        guard offset == bytes.count else { throw fail("more text after the book") }
    }

    /// Each member of an object: its key, then `member` reads (or skips) its value.
    mutating func object(_ member: (inout JSONScanner, String) throws(Failure) -> Void) throws(Failure) {
        try expect("{")
        skipSpace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            return
        }
        while true {
            guard nextKind() == .string else { throw fail("expected a key") }
            let key = try string()
            try expect(":")
            try member(&self, key)
            skipSpace()
            guard offset < bytes.count else { throw fail("the text ends inside an object") }
            defer { offset += 1 }
            if bytes[offset] == UInt8(ascii: "}") { return }
            guard bytes[offset] == UInt8(ascii: ",") else { throw fail("expected , or }") }
        }
    }

    /// Each element of an array, which `element` reads (or skips).
    mutating func array(_ element: (inout JSONScanner) throws(Failure) -> Void) throws(Failure) {
        try expect("[")
        skipSpace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
            offset += 1
            return
        }
        while true {
            try element(&self)
            skipSpace()
            guard offset < bytes.count else { throw fail("the text ends inside an array") }
            defer { offset += 1 }
            if bytes[offset] == UInt8(ascii: "]") { return }
            guard bytes[offset] == UInt8(ascii: ",") else { throw fail("expected , or ]") }
        }
    }

    /// A string, its escapes resolved; invalid UTF-8 is damage.
    mutating func string() throws(Failure) -> String {
        try expect("\"")
        var out: [UInt8] = []
        while true {
            guard offset < bytes.count else { throw fail("the text ends inside a string") }
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: out, as: UTF8.self) else { throw fail("a string is not UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                guard offset < bytes.count else { throw fail("the text ends inside a string") }
                let escape = bytes[offset]
                offset += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        // A surrogate pair: the second half must follow.
                        guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else {
                            throw fail("a lone surrogate in a string")
                        }
                        offset += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("a lone surrogate in a string") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw fail("a lone surrogate in a string") }
                    out.append(contentsOf: String(Character(unicode)).utf8)
                default:
                    throw fail("an unknown escape in a string")
                }
            case 0..<0x20:
                throw fail("a control character in a string")
            default:
                out.append(byte)
            }
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw fail("the text ends inside a string") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail("a \\u escape needs four hex digits")
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }

    /// The bytes of a number as JSON writes it (`-`? int frac? exp?), and whether it is an integer.
    private mutating func numberToken() throws(Failure) -> (Range<Int>, integral: Bool) {
        skipSpace()
        let start = offset
        func digits() -> Int {
            let first = offset
            while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) { offset += 1 }
            return offset - first
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        let leadingZero = offset < bytes.count && bytes[offset] == UInt8(ascii: "0")
        let whole = digits()
        guard whole > 0, !(leadingZero && whole > 1) else {
            offset = start
            throw fail("not a number")
        }
        var integral = true
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            integral = false
            guard digits() > 0 else { throw fail("a number needs digits after its point") }
        }
        if offset < bytes.count, bytes[offset] | 0x20 == UInt8(ascii: "e") {
            offset += 1
            integral = false
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            guard digits() > 0 else { throw fail("a number needs digits in its exponent") }
        }
        return (start..<offset, integral)
    }

    /// A number as the nearest Double (infinity beyond Double's range).
    mutating func double() throws(Failure) -> Double {
        let (token, _) = try numberToken()
        // Swift's parsing, not strtod's, which follows the C locale's decimal point. Not NaN
        // for any JSON number; the check is the callers' ranges.
        return Double(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[token]), as: UTF8.self)) ?? .nan
    }

    /// An integer written without point or exponent, within Int's range; nil for another number.
    mutating func integer() throws(Failure) -> Int? {
        let (token, integral) = try numberToken()
        guard integral else { return nil }
        var value = 0
        let negative = bytes[token.lowerBound] == UInt8(ascii: "-")
        for at in token.dropFirst(negative ? 1 : 0) {
            let digit = Int(bytes[at] - UInt8(ascii: "0"))
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflowA, !overflowB else { return nil }
            value = next
        }
        return value
    }

    /// Skips one value of any kind.
    mutating func skipValue(depth: Int = 0) throws(Failure) {
        guard depth < Self.maximumDepth else { throw fail("values nested more than \(Self.maximumDepth) deep") }
        switch nextKind() {
        case .object: try object { (scanner: inout JSONScanner, _: String) throws(Failure) in try scanner.skipValue(depth: depth + 1) }
        case .array: try array { (scanner: inout JSONScanner) throws(Failure) in try scanner.skipValue(depth: depth + 1) }
        case .string: _ = try string()
        case .number: _ = try numberToken()
        case .literal: _ = try literal()
        case nil: throw fail("the text ends where a value should be")
        }
    }

    /// `true`, `false` or `null` (nil).
    mutating func literal() throws(Failure) -> Bool? {
        skipSpace()
        for (word, value) in [("true", true as Bool?), ("false", false), ("null", nil)] {
            let utf8 = Array(word.utf8)
            if offset + utf8.count <= bytes.count, utf8.indices.allSatisfy({ bytes[offset + $0] == utf8[$0] }) {
                offset += utf8.count
                return value
            }
        }
        throw fail("not a JSON value")
    }
}
