import Foundation

/// Where a person's pictures go, found as xdg-user-dirs finds it: `$XDG_PICTURES_DIR` when set
/// to an absolute path, else the `XDG_PICTURES_DIR=` line of `$XDG_CONFIG_HOME/user-dirs.dirs`
/// (`~/.config/user-dirs.dirs`), whose value is `"$HOME/…"` or an absolute path in double
/// quotes. A value that is the home folder itself means "no such folder" (xdg-user-dirs' rule).
public enum PicturesFolder {
    public static func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let home = environment["HOME"] ?? NSHomeDirectory()
        if let direct = environment["XDG_PICTURES_DIR"], direct.hasPrefix("/") { return usable(direct, home: home) }
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        guard let text = try? String(contentsOfFile: config + "/user-dirs.dirs", encoding: .utf8) else { return nil }
        var found: String?
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.hasPrefix("#"), line.hasPrefix("XDG_PICTURES_DIR=") else { continue }
            found = parse(String(line.dropFirst("XDG_PICTURES_DIR=".count)), home: home)
        }
        return found.flatMap { usable($0, home: home) }
    }

    /// `"$HOME/Pictures"` → `/home/me/Pictures`; an absolute path in quotes as it is; else nil.
    static func parse(_ value: String, home: String) -> String? {
        guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return nil }
        let inner = value.dropFirst().dropLast().replacingOccurrences(of: "\\\"", with: "\"")
        if inner == "$HOME" { return home }
        if inner.hasPrefix("$HOME/") { return home + inner.dropFirst("$HOME".count) }
        return inner.hasPrefix("/") ? inner : nil
    }

    private static func usable(_ path: String, home: String) -> String? {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        let homeTrimmed = home.count > 1 && home.hasSuffix("/") ? String(home.dropLast()) : home
        return trimmed == homeTrimmed ? nil : trimmed
    }
}
