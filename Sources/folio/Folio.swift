import ArgumentParser
import Foundation
import FolioLog
import Logging

/// `folio`: the app in the Wayland session, and the headless commands beside it.
@main
struct Folio: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "folio",
        abstract: "A touch sketchbook for Wayland: draw with one finger, pinch to fold the page like a book.",
        version: version,
        subcommands: [AppCommand.self, RenderCommand.self, ReplayCommand.self, InfoCommand.self, ExportCommand.self,
                      BenchCommand.self, ControlsCommand.self, BooksCommand.self, TimelapseCommand.self],
        defaultSubcommand: AppCommand.self
    )

    /// Every failure is one line on stderr, `folio: …`, and a non-zero status (64 for a bad
    /// command line); help and version print as usual.
    static func main() {
        mapLargeBlocksOnTheirOwn()
        // A file-size limit (RLIMIT_FSIZE) then fails a write with EFBIG, reported and retried
        // like a full disk, instead of killing Folio in the middle of a save.
        signal(SIGXFSZ, SIG_IGN)
        do {
            // `--log-level LEVEL` (anywhere on the line) or FOLIO_LOG sets what the log shows.
            let logging = FolioLog.configuration(arguments: try commandLineText(), environment: ProcessInfo.processInfo.environment)
            FolioLog.bootstrap(level: logging.level)
            if let problem = logging.environmentProblem { warn("\(problem); showing \(FolioLog.defaultLevel.rawValue) and worse") }
            // Parsed before a bad --log-level is reported, so help and version always answer:
            // version is thrown by the parser, help is a command of its own, not one of Folio's.
            var command = try parseAsRoot(logging.arguments)
            let folios = [Folio.self] + configuration.subcommands
            if let error = logging.optionError, folios.contains(where: { ObjectIdentifier($0) == ObjectIdentifier(type(of: command)) }) {
                throw ValidationError(error.description)
            }
            try command.run()
        } catch {
            let code = exitCode(for: error)
            guard code != .success else { exit(withError: error) }
            let text = message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            FileHandle.standardError.write(Data("folio: \(text)\n".utf8))
            Foundation.exit(code.rawValue)
        }
    }
}

/// `folio [--fullscreen] [--book DIR] [--demo [TRACE]]`: the app itself (the default command).
struct AppCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "Run Folio in the Wayland session named by WAYLAND_DISPLAY (the default command).")

    @Flag(help: "Start fullscreen (F11 toggles).")
    var fullscreen = false

    @Flag(help: "Only a pen draws: fingers pinch and turn pages but never draw.")
    var penOnly = false

    @Option(help: ArgumentHelp("The sketchbook folder (default: $XDG_DATA_HOME/folio).", valueName: "dir"))
    var book: String?

    @Flag(help: "Play the built-in demo trace (or TRACE) live in the window, in real time, then exit.")
    var demo = false

    @Argument(help: ArgumentHelp("With --demo: the trace to play instead of the built-in one.", valueName: "trace"))
    var trace: String?

    mutating func validate() throws {
        if let trace, !demo {
            throw ValidationError("unknown command \"\(trace)\": the commands are render, replay, info, books, export, controls, bench and timelapse; "
                                  + "a trace is played live only with --demo")
        }
    }

    func run() throws {
        let options = LiveOptions(fullscreen: fullscreen, bookDirectory: book, demo: demo, demoTrace: trace, penOnly: penOnly)
        try LiveApp(options: options).run()
    }
}

/// What `folio` (the app) was asked to do.
struct LiveOptions {
    var fullscreen: Bool
    var bookDirectory: String?
    var demo: Bool
    var demoTrace: String?
    var penOnly = false
}
