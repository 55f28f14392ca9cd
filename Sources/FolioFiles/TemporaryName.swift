/// The names of the temporary files `AtomicFile` writes, and how a sweep recognises them:
/// `.NAME.R.tmp`, where `R` is 16 random lowercase hex digits (nobody can plant a link under it
/// in advance) and `NAME` the target's name, cut to its first 233 bytes when longer so that
/// every valid target name (up to 255 bytes) has a valid temporary.
public enum TemporaryName {
    /// The longest name a file may have (NAME_MAX on Linux).
    static let nameMax = 255
    /// The bytes `.`, `.R`, `.tmp` add.
    static let overhead = 1 + 1 + 16 + 4

    /// A new unpredictable temporary name for a file to be renamed to `target`.
    public static func make(for target: String) -> String {
        let digits = String(UInt64.random(in: .min ... .max), radix: 16)
        return ".\(stem(of: target)).\(String(repeating: "0", count: 16 - digits.count))\(digits).tmp"
    }

    /// Whether `name` is a temporary `make(for: target)` gives. With `earlierPID`, also the
    /// `.NAME.PID.tmp` names (a process id in decimal) the first Folios used.
    public static func isTemporary(_ name: String, for target: String, earlierPID: Bool = false) -> Bool {
        let prefix = ".\(stem(of: target)).", suffix = ".tmp"
        // Bytes, not characters: a name only canonically equal to the target's is not its temporary.
        guard name.utf8.starts(with: prefix.utf8), name.hasSuffix(suffix),
              name.utf8.count > prefix.utf8.count + suffix.utf8.count else { return false }
        let middle = name.utf8.dropFirst(prefix.utf8.count).dropLast(suffix.utf8.count)
        if middle.count == 16, middle.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) { return true }
        // A pid is 1 to 4194304 (PID_MAX_LIMIT): up to 7 digits, no leading zero.
        return earlierPID && middle.count <= 7 && middle.first != 0x30 && middle.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// `target`, cut at a character boundary to at most `nameMax - overhead` bytes.
    static func stem(of target: String) -> String {
        var bytes = 0
        var stem = String.UnicodeScalarView()
        for scalar in target.unicodeScalars {
            bytes += UTF8.width(scalar)
            guard bytes <= nameMax - overhead else { break }
            stem.append(scalar)
        }
        return String(stem)
    }
}
