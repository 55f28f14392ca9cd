/// A colour's text form, `#RRGGBB`, as books, settings, SVG exports and replay summaries spell
/// it: one reader and one writer, so every file agrees. It lives here because every module that
/// reads or writes a colour already depends on FolioGeometry.
public enum HexColor {
    /// `#RRGGBB` with upper-case digits for 0xRRGGBB; bits above the low 24 are ignored.
    public static func format(_ rgb: UInt32) -> String {
        let digits = String(rgb & 0xFF_FFFF, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// 0xRRGGBB for `#` and exactly six ASCII hex digits of either case; nil for anything else
    /// (a sign, a space, a short or long form).
    public static func parse(_ text: some StringProtocol) -> UInt32? {
        let bytes = Array(text.utf8)
        guard bytes.count == 7, bytes[0] == UInt8(ascii: "#") else { return nil }
        var value: UInt32 = 0
        for byte in bytes.dropFirst() {
            guard let digit = hexDigit(byte) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
