import Foundation
import Logging

/// Folio's one logging setup: which level is asked for (`--log-level`, else `FOLIO_LOG`, else
/// warnings and errors only) and how a message reaches stderr (one `folio: …` line).
public enum FolioLog {
    /// The label of every logger Folio makes.
    public static let label = "folio"
    /// Warnings and errors: what happened and what Folio did about it.
    public static let defaultLevel = Logger.Level.warning
    /// The accepted level names, quietest last, as `--log-level` and `FOLIO_LOG` take them.
    public static let levelNames = Logger.Level.allCases.map(\.rawValue)

    /// A level by name (any case); nil for a name that is not a level.
    public static func level(named name: String) -> Logger.Level? {
        Logger.Level(rawValue: name.lowercased())
    }

    /// The level named by `--log-level LEVEL` or `--log-level=LEVEL` (the last one wins), else by
    /// `FOLIO_LOG` in `environment`, else the default; and the arguments without the option, for
    /// the command-line parser. Nothing after `--` is looked at.
    public static func configuration(arguments: [String], environment: [String: String])
        throws(LogLevelError) -> (level: Logger.Level, arguments: [String])
    {
        var remaining: [String] = []
        var named: (name: String, source: String)?
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" {
                remaining += arguments[index...]
                break
            }
            if argument == "--log-level" {
                guard index + 1 < arguments.endIndex else { throw LogLevelError(source: "--log-level", name: nil) }
                named = (arguments[index + 1], "--log-level")
                index += 2
                continue
            }
            if argument.hasPrefix("--log-level=") {
                named = (String(argument.dropFirst("--log-level=".count)), "--log-level")
            } else {
                remaining.append(argument)
            }
            index += 1
        }
        if named == nil, let value = environment["FOLIO_LOG"], !value.isEmpty {
            named = (value, "FOLIO_LOG")
        }
        guard let named else { return (defaultLevel, remaining) }
        guard let level = level(named: named.name) else { throw LogLevelError(source: named.source, name: named.name) }
        return (level, remaining)
    }

    /// Makes every `Logger` in this process write lines to stderr at `level`. Call once, first.
    public static func bootstrap(level: Logger.Level) {
        LoggingSystem.bootstrap { label in
            var handler = LineLogHandler(label: label, write: { FileHandle.standardError.write(Data($0.utf8)) })
            handler.logLevel = level
            return handler
        }
    }
}

/// A level name that Folio does not know, or `--log-level` with nothing after it.
public struct LogLevelError: Error, CustomStringConvertible, Equatable {
    public var source: String
    public var name: String?

    public init(source: String, name: String?) {
        self.source = source
        self.name = name
    }

    public var description: String {
        let accepted = FolioLog.levelNames.joined(separator: ", ")
        guard let name else { return "\(source) needs a level: \(accepted)" }
        return "\(source): \"\(name)\" is not a log level; use one of \(accepted)"
    }
}

/// Writes each message as one line: `folio: message` for warnings and worse (the form every
/// Folio message has always had), `folio: info: message` and the like for the chattier levels,
/// with any metadata after it as `key=value`. Line breaks inside a message become spaces.
public struct LineLogHandler: LogHandler {
    public var logLevel: Logger.Level = FolioLog.defaultLevel
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let write: @Sendable (String) -> Void

    public init(label: String, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        write(line(for: event))
    }

    func line(for event: LogEvent) -> String {
        var text = "\(label): "
        if event.level < .warning { text += "\(event.level.rawValue): " }
        text += event.message.description.split(whereSeparator: \.isNewline).joined(separator: " ")
        let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
        if !all.isEmpty {
            text += " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        return text + "\n"
    }
}
