#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A variable Folio takes a folder from that it cannot use, in one line naming it.
public struct UserFolderError: Error, CustomStringConvertible, Equatable {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Where a person's files go by default: HOME and the XDG base directories, read as the XDG Base
/// Directory specification says. An XDG variable that is not an absolute path is ignored; HOME
/// must be an absolute path to a folder that exists, so an empty or mistyped HOME never puts a
/// book under the current folder nor makes folders above the home. A variable whose bytes are
/// not UTF-8 is refused where it is needed, never read with its bytes replaced.
public struct UserFolders: Sendable {
    /// The variables Folio takes folders from.
    public static let names = ["HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_PICTURES_DIR"]
    private let values: [String: [UInt8]]

    /// The variables as bytes, as a process holds them.
    public init(bytes: [String: [UInt8]]) {
        values = bytes
    }

    public init(environment: [String: String]) {
        self.init(bytes: environment.mapValues { Array($0.utf8) })
    }

    /// This process's variables, byte for byte.
    public static func current() -> UserFolders {
        var values: [String: [UInt8]] = [:]
        for name in names {
            guard let raw = getenv(name) else { continue }
            values[name] = Array(UnsafeRawBufferPointer(start: raw, count: strlen(raw)))
        }
        return UserFolders(bytes: values)
    }

    /// The variable's text; nil when it is unset.
    public func value(_ name: String) throws(UserFolderError) -> String? {
        guard let bytes = values[name] else { return nil }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw UserFolderError("\(name) is not UTF-8 text (Folio takes folders in UTF-8 only)")
        }
        return text
    }

    /// An XDG variable's folder: its value when that is an absolute path, else nil.
    public func xdg(_ name: String) throws(UserFolderError) -> String? {
        guard let value = try value(name), value.hasPrefix("/") else { return nil }
        return value
    }

    /// The home folder: HOME, or the account's from the password database when HOME is unset.
    public func home() throws(UserFolderError) -> String {
        guard let home = try value("HOME") ?? Self.accountHome() else { throw UserFolderError("HOME is not set") }
        guard !home.isEmpty else { throw UserFolderError("HOME is empty") }
        guard home.hasPrefix("/") else { throw UserFolderError("HOME (\(home)) is not an absolute path") }
        var status = stat()
        guard stat(home, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw UserFolderError("HOME (\(home)) is not a folder that exists")
        }
        return home
    }

    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    public func dataHome() throws(UserFolderError) -> String {
        if let data = try xdg("XDG_DATA_HOME") { return data }
        return try home() + "/.local/share"
    }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    public func configHome() throws(UserFolderError) -> String {
        if let config = try xdg("XDG_CONFIG_HOME") { return config }
        return try home() + "/.config"
    }

    private static func accountHome() -> String? {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(validatingCString: directory)
    }
}
