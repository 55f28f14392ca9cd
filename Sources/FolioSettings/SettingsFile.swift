import Foundation
import FolioFiles
import FolioGeometry
import FolioSketchbook
import FolioToolbar
import TOMLKit

/// `config.toml`: read with TOMLKit, forgiving (a bad value or an unknown key is one line naming
/// its line number, and the default is used; an unreadable file means the defaults), and written
/// back whole, atomically, private to its owner (0600, in a 0700 folder Folio makes).
public struct SettingsFile: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// `folio/config.toml` in the config home: `$XDG_CONFIG_HOME` (when absolute), else `~/.config`.
    public static func defaultPath(in folders: UserFolders) throws(UserFolderError) -> String {
        try folders.configHome() + "/folio/config.toml"
    }

    /// The settings in the file, and a line for each problem found (empty when all is well). A
    /// missing file is no problem: it holds the defaults. Only a regular file is read: a folder or
    /// a FIFO is one problem line, never a wait.
    public func load() -> (settings: Settings, problems: [String]) {
        let bytes: [UInt8]?
        do {
            bytes = try readRegularFile(path)
        } catch {
            return (.standard, ["\(error); using the default settings"])
        }
        guard let bytes else { return (.standard, []) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return (.standard, ["\(path) is not UTF-8 text; using the default settings"])
        }
        return Self.parse(text, name: path)
    }

    /// Reads settings from TOML `text`; `name` starts each problem line. A NUL is invalid TOML,
    /// and is caught here because TOMLKit would read the text only up to it.
    public static func parse(_ text: String, name: String) -> (settings: Settings, problems: [String]) {
        if let nul = text.utf8.firstIndex(of: 0) {
            let line = text.utf8[..<nul].count(where: { $0 == UInt8(ascii: "\n") }) + 1
            return (.standard, ["\(name):\(line): invalid TOML: a NUL character, which TOML does not allow; using the default settings"])
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            return (.standard, ["\(name):\(error.source.begin.line): \(error.description); using the default settings"])
        } catch {
            return (.standard, ["\(name): \(error); using the default settings"])
        }
        var reader = Reader(table: table, lines: KeyLines(text), name: name)
        return (reader.read(), reader.problems)
    }

    /// Writes `settings` over the file through `AtomicFile` (a temporary beside it, synced, renamed).
    public func save(_ settings: Settings) throws {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try Folders.make(folder, mode: 0o700)
            try AtomicFile.replace(path, with: Data(Self.render(settings).utf8), mode: 0o600)
        } catch {
            throw SettingsError(error.description)
        }
    }

    /// The file's text for `settings`, with a word on each setting.
    public static func render(_ s: Settings) -> String {
        func hex(_ rgb: UInt32) -> String { "\"" + HexColor.format(rgb) + "\"" }
        func number(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(format: "%.1f", v) : "\(v)" }
        return """
        # Folio's settings (man folio, docs/settings.md). Folio writes the toolbar's choices back here.

        [ink]
        # The ink chosen last: one of the palette's colours and widths.
        color = \(hex(s.palette.ink(s.ink).color))
        width = \(number(s.palette.ink(s.ink).width))
        # Draw a live stroke ahead to where the pen will be when the frame is seen (never kept).
        prediction = \(s.prediction)
        # Draw a live stroke's frame just before the compositor's deadline, with the newest input.
        late_commits = \(s.lateCommits)

        [palette]
        # Six colours ("#RRGGBB") and three widths (logical px, 0.5-64).
        colors = [\(s.palette.colors.map(hex).joined(separator: ", "))]
        widths = [\(s.palette.widths.map(number).joined(separator: ", "))]

        [fold]
        # The fold's perspective distance in logical px (500-20000; 2000 by default).
        perspective = \(number(s.perspective))

        [gestures]
        # Turn the page from the left and right edges; fold with two fingers or a touchpad pinch.
        edge_turn = \(s.edgeTurn)
        pinch = \(s.pinch)
        # A two-finger tap undoes, a three-finger tap redoes.
        tap_undo = \(s.tapUndo)
        # Hold a stroke's end still for half a second: it snaps to a line, ellipse, rectangle or triangle.
        hold_to_shape = \(s.holdToShape)

        [pen]
        # Only a pen draws; fingers still pinch and turn.
        pen_only = \(s.penOnly)
        # Holding the pen's barrel button: "eraser" (the pen erases) or "none".
        barrel_button = "\(s.barrelButton.rawValue)"

        [paper]
        # The paper of a new sheet: "plain", "ruled", "squared" or "dotted"; the toolbar's paper chooses it.
        kind = "\(s.paper.kind.rawValue)"
        # Logical px between lines or dots (4-400), and their colour.
        spacing = \(number(s.paper.spacing))
        color = \(hex(s.paper.color))

        """
    }
}

public struct SettingsError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// The line each `table.key` is written on, found by reading the text as TOML is laid out
/// (`[table]` headers, `key = value` lines); TOMLKit gives no positions for values.
struct KeyLines {
    private var lines: [String: Int] = [:]

    init(_ text: String) {
        var table = ""
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                table = line.drop { $0 == "[" }.prefix { $0 != "]" }.trimmingCharacters(in: .whitespaces)
                if lines[table] == nil { lines[table] = index + 1 }
            } else if let equals = line.firstIndex(of: "="), !line.hasPrefix("#") {
                let key = line[..<equals].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
                let full = table.isEmpty ? key : table + "." + key
                if lines[full] == nil { lines[full] = index + 1 }
            }
        }
    }

    /// The line of `key` (or of its table, or of the file's start).
    func line(of key: String) -> Int {
        if let line = lines[key] { return line }
        if let dot = key.lastIndex(of: "."), let line = lines[String(key[..<dot])] { return line }
        return 1
    }
}

/// Walks the parsed table: each known setting checked against its range, everything else reported.
private struct Reader {
    let table: TOMLTable
    let lines: KeyLines
    let name: String
    var problems: [String] = []

    init(table: TOMLTable, lines: KeyLines, name: String) {
        self.table = table
        self.lines = lines
        self.name = name
    }

    static let known: [String: Set<String>] = [
        "ink": ["color", "width", "prediction", "late_commits"], "palette": ["colors", "widths"], "fold": ["perspective"],
        "gestures": ["edge_turn", "pinch", "tap_undo", "hold_to_shape"], "pen": ["pen_only", "barrel_button"],
        "paper": ["kind", "spacing", "color"],
    ]

    mutating func report(_ key: String, _ message: String) {
        problems.append("\(name):\(lines.line(of: key)): \(message)")
    }

    mutating func read() -> Settings {
        var s = Settings()
        for key in table.keys.sorted() {
            guard let fields = Self.known[key] else {
                report(key, "unknown setting \"\(key)\" (ignored)")
                continue
            }
            guard let section = table[key]?.table else {
                report(key, "\"\(key)\" must be a table ([\(key)]); using the defaults")
                continue
            }
            for field in section.keys.sorted() where !fields.contains(field) {
                report("\(key).\(field)", "unknown setting \"\(key).\(field)\" (ignored)")
            }
        }
        var colors = Palette.standardColors, widths = Palette.standardWidths
        if let list = value("palette", "colors") {
            if let parsed = list.array?.map({ $0.string.flatMap(HexColor.parse) }), parsed.count == Palette.colorCount,
               let all = parsed as? [UInt32] {
                colors = all
            } else {
                report("palette.colors", "palette.colors must be \(Palette.colorCount) colours like \"#0000FF\"; using the standard palette")
            }
        }
        if let list = value("palette", "widths") {
            if let parsed = list.array?.map({ Self.number($0) }), parsed.count == Palette.widthCount, let all = parsed as? [Double],
               all.allSatisfy(Palette.widthRange.contains) {
                widths = all
            } else {
                report("palette.widths", "palette.widths must be \(Palette.widthCount) numbers from 0.5 to 64; using the standard widths")
            }
        }
        s.palette = Palette(colors: colors, widths: widths)
        if let ink = value("ink", "color") {
            if let rgb = ink.string.flatMap(HexColor.parse), let index = s.palette.colors.firstIndex(of: rgb) {
                s.ink.colorIndex = index
            } else {
                report("ink.color", "ink.color must be one of palette.colors; using the first")
            }
        }
        if let ink = value("ink", "width") {
            if let width = Self.number(ink), let index = s.palette.widths.firstIndex(of: width) {
                s.ink.widthIndex = index
            } else {
                report("ink.width", "ink.width must be one of palette.widths; using the middle one")
            }
        }
        s.prediction = flag("ink", "prediction", default: true)
        s.lateCommits = flag("ink", "late_commits", default: true)
        if let d = value("fold", "perspective") {
            if let v = Self.number(d), Settings.perspectiveRange.contains(v) {
                s.perspective = v
            } else {
                report("fold.perspective", "fold.perspective must be a number from 500 to 20000; using 2000")
            }
        }
        s.edgeTurn = flag("gestures", "edge_turn", default: true)
        s.pinch = flag("gestures", "pinch", default: true)
        s.tapUndo = flag("gestures", "tap_undo", default: true)
        s.holdToShape = flag("gestures", "hold_to_shape", default: true)
        s.penOnly = flag("pen", "pen_only", default: false)
        if let button = value("pen", "barrel_button") {
            if let name = button.string, let choice = BarrelButton(rawValue: name) {
                s.barrelButton = choice
            } else {
                report("pen.barrel_button", "pen.barrel_button must be \"eraser\" or \"none\"; using \"eraser\"")
            }
        }
        s.paper = readPaper()
        return s
    }

    /// `[paper]`: each field checked on its own, a bad one replaced by its standard value.
    private mutating func readPaper() -> Paper {
        var kind = Paper.Kind.plain, spacing = Paper.standardSpacing, color = Paper.standardColor
        if let v = value("paper", "kind") {
            if let name = v.string, let chosen = Paper.Kind(rawValue: name) {
                kind = chosen
            } else {
                report("paper.kind", "paper.kind must be \"plain\", \"ruled\", \"squared\" or \"dotted\"; using \"plain\"")
            }
        }
        if let v = value("paper", "spacing") {
            if let n = Self.number(v), Paper.spacingRange.contains(n) {
                spacing = n
            } else {
                report("paper.spacing", "paper.spacing must be a number from 4 to 400; using 32")
            }
        }
        if let v = value("paper", "color") {
            if let rgb = v.string.flatMap(HexColor.parse) {
                color = rgb
            } else {
                report("paper.color", "paper.color must be a colour like \"#B4C8DC\"; using \"#B4C8DC\"")
            }
        }
        return Paper(kind: kind, spacing: spacing, color: color)
    }

    private func value(_ section: String, _ key: String) -> TOMLValueConvertible? {
        table[section]?.table?[key]
    }

    private mutating func flag(_ section: String, _ key: String, default fallback: Bool) -> Bool {
        guard let v = value(section, key) else { return fallback }
        if let b = v.bool { return b }
        report("\(section).\(key)", "\(section).\(key) must be true or false; using \(fallback)")
        return fallback
    }

    /// A finite TOML float or integer.
    static func number(_ v: TOMLValueConvertible) -> Double? {
        let n = v.double ?? v.int.map(Double.init)
        return n.flatMap { $0.isFinite ? $0 : nil }
    }
}
