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
    /// the command-line parser. Nothing after `--` is looked at. A bad level is handed back, not
    /// thrown, so help and version still work whatever the log is asked for.
    public static func configuration(arguments: [String], environment: [String: String]) -> LogConfiguration {
        var remaining: [String] = []
        var named: String?
        var optionError: LogLevelError?
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" {
                remaining += arguments[index...]
                break
            }
            if argument == "--log-level" {
                guard index + 1 < arguments.endIndex else {
                    optionError = LogLevelError(source: "--log-level", name: nil)
                    break
                }
                named = arguments[index + 1]
                index += 2
                continue
            }
            if argument.hasPrefix("--log-level=") {
                named = String(argument.dropFirst("--log-level=".count))
            } else {
                remaining.append(argument)
            }
            index += 1
        }
        var configuration = LogConfiguration(level: defaultLevel, arguments: remaining, optionError: optionError)
        if let named {
            guard let level = level(named: named) else {
                configuration.optionError = LogLevelError(source: "--log-level", name: named)
                return configuration
            }
            configuration.level = level
        } else if let value = environment["FOLIO_LOG"], !value.isEmpty {
            guard let level = level(named: value) else {
                configuration.environmentProblem = LogLevelError(source: "FOLIO_LOG", name: value)
                return configuration
            }
            configuration.level = level
        }
        return configuration
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

/// What the log is asked to show, and what was wrong with the asking.
public struct LogConfiguration: Equatable, Sendable {
    public var level: Logger.Level
    /// The command line without `--log-level`, for the command-line parser.
    public var arguments: [String]
    /// A bad `--log-level`: a malformed command line.
    public var optionError: LogLevelError?
    /// A bad `FOLIO_LOG`: worth a warning, not a refusal (the default level is used), since a
    /// variable set long ago must not stop every command.
    public var environmentProblem: LogLevelError?

    public init(level: Logger.Level, arguments: [String], optionError: LogLevelError? = nil, environmentProblem: LogLevelError? = nil) {
        self.level = level
        self.arguments = arguments
        self.optionError = optionError
        self.environmentProblem = environmentProblem
    }
}

/// A level name that Folio does not know, or `--log-level` with nothing after it.
public struct LogLevelError: Error, CustomStringConvertible, Equatable, Sendable {
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
