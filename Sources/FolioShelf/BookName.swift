import Foundation

/// Book names: dated by default, checked when a person chooses one.
public enum BookName {
    /// The longest name, in characters: it fits a cover and a line of `folio books`.
    public static let maximumLength = 80

    /// `Book YYYY-MM-DD` for `date` in the local time zone.
    public static func dated(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        let month = parts.tm_mon + 1, day = parts.tm_mday
        return "Book \(parts.tm_year + 1900)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }

    /// `base`, or `base (2)`, `base (3)`, … : the first that no name in `taken` is.
    public static func unique(_ base: String, among taken: Set<String>) -> String {
        guard taken.contains(base) else { return base }
        var number = 2
        while taken.contains("\(base) (\(number))") { number += 1 }
        return "\(base) (\(number))"
    }

    /// `name` trimmed of surrounding white space, or `.badName` when it is empty, longer than
    /// `maximumLength` characters, or holds a control character, a line or paragraph separator,
    /// or a bidirectional override (which would make a name read other than it is stored).
    public static func validated(_ name: String) throws(ShelfError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .badName(reason: "it is empty") }
        guard trimmed.count <= maximumLength else {
            throw .badName(reason: "it has \(trimmed.count) characters; at most \(maximumLength)")
        }
        if let bad = trimmed.unicodeScalars.first(where: isRefused) {
            throw .badName(reason: "it holds the control character U+\(String(format: "%04X", bad.value))")
        }
        return trimmed
    }

    private static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        default: return (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
    }
}
