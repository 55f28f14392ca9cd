import FolioFiles
import Foundation

/// Where a person's pictures go, found as xdg-user-dirs finds it: `$XDG_PICTURES_DIR` when set
/// to an absolute path, else the `XDG_PICTURES_DIR=` line of `user-dirs.dirs` in the config home
/// (`UserFolders.configHome`), whose value is `"$HOME/…"` or an absolute path in double quotes.
/// A value that is the home folder itself means "no such folder" (xdg-user-dirs' rule).
public enum PicturesFolder {
    /// The folder, nil when none is set; a variable it needs that Folio cannot use throws.
    public static func resolve(in folders: UserFolders) throws(UserFolderError) -> String? {
        if let direct = try folders.xdg("XDG_PICTURES_DIR") { return usable(direct, folders) }
        let file = try folders.configHome() + "/user-dirs.dirs"
        guard let bytes = try? readRegularFile(file), let text = String(validating: bytes, as: UTF8.self) else { return nil }
        var found: String?
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.hasPrefix("#"), line.hasPrefix("XDG_PICTURES_DIR=") else { continue }
            found = String(line.dropFirst("XDG_PICTURES_DIR=".count))
        }
        guard let found else { return nil }
        let usesHome = found.hasPrefix("\"$HOME")
        guard let path = parse(found, home: usesHome ? try folders.home() : "") else { return nil }
        return usable(path, folders)
    }

    /// `"$HOME/Pictures"` → `/home/me/Pictures`; an absolute path in quotes as it is; else nil.
    static func parse(_ value: String, home: String) -> String? {
        guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { return nil }
        let inner = value.dropFirst().dropLast().replacingOccurrences(of: "\\\"", with: "\"")
        if inner == "$HOME" { return home }
        if inner.hasPrefix("$HOME/") { return home + inner.dropFirst("$HOME".count) }
        return inner.hasPrefix("/") ? inner : nil
    }

    /// The path without a trailing slash; nil when it is the home folder (only looked up when
    /// HOME can be, so a pictures folder set outright works without one).
    private static func usable(_ path: String, _ folders: UserFolders) -> String? {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let home = try? folders.home() else { return trimmed }
        let homeTrimmed = home.count > 1 && home.hasSuffix("/") ? String(home.dropLast()) : home
        return trimmed == homeTrimmed ? nil : trimmed
    }
}
