import FolioLog
import Logging
import Synchronization
import XCTest

final class FolioLogTests: XCTestCase {
    func testLevelComesFromTheOptionThenTheEnvironmentThenTheDefault() throws {
        let none = FolioLog.configuration(arguments: ["replay", "t.jsonl"], environment: [:])
        XCTAssertEqual(none.level, .warning)
        XCTAssertEqual(none.arguments, ["replay", "t.jsonl"])

        let environment = FolioLog.configuration(arguments: ["info"], environment: ["FOLIO_LOG": "DEBUG"])
        XCTAssertEqual(environment.level, .debug)

        let option = FolioLog.configuration(arguments: ["--log-level", "error", "info", "--log-level=trace", "b"],
                                                environment: ["FOLIO_LOG": "debug"])
        XCTAssertEqual(option.level, .trace, "the last option wins over FOLIO_LOG")
        XCTAssertEqual(option.arguments, ["info", "b"])

        let afterDashes = FolioLog.configuration(arguments: ["render", "--", "--log-level", "x"], environment: [:])
        XCTAssertEqual(afterDashes.level, .warning)
        XCTAssertEqual(afterDashes.arguments, ["render", "--", "--log-level", "x"])

        XCTAssertEqual(FolioLog.levelNames, ["trace", "debug", "info", "notice", "warning", "error", "critical"])
    }

    /// A bad `--log-level` is handed back as the command line's error; a bad `FOLIO_LOG` as a
    /// problem to warn about, with the default level.
    func testUnknownLevelsAreHandedBackNamingWhereTheyCameFrom() {
        let option = FolioLog.configuration(arguments: ["--log-level", "loud", "--version"], environment: [:])
        XCTAssertEqual(option.optionError, LogLevelError(source: "--log-level", name: "loud"))
        XCTAssertEqual(option.arguments, ["--version"], "the rest still goes to the parser (help and version answer)")
        XCTAssertTrue("\(option.optionError.map(String.init(describing:)) ?? "")".contains("trace, debug, info, notice, warning, error, critical"))

        let environment = FolioLog.configuration(arguments: ["--help"], environment: ["FOLIO_LOG": "2"])
        XCTAssertEqual(environment, LogConfiguration(level: .warning, arguments: ["--help"],
                                                     environmentProblem: LogLevelError(source: "FOLIO_LOG", name: "2")))
        XCTAssertNil(FolioLog.configuration(arguments: ["--log-level", "error"], environment: ["FOLIO_LOG": "2"]).environmentProblem,
                     "the option wins: FOLIO_LOG is not looked at")

        let missing = FolioLog.configuration(arguments: ["info", "--log-level"], environment: [:])
        XCTAssertEqual(missing.optionError.map(String.init(describing:)),
                       "--log-level needs a level: trace, debug, info, notice, warning, error, critical")
    }

    func testLinesKeepTheFolioPrefixAndNameTheChattierLevels() {
        let lines = Mutex<[String]>([])
        var logger = Logger(label: FolioLog.label) { label in
            LineLogHandler(label: label) { line in lines.withLock { $0.append(line) } }
        }
        logger.logLevel = .info
        logger.warning("a save failed; retrying")
        logger.info("two\nlines", metadata: ["sheet": "3", "book": "/b"])
        logger.debug("not shown at info")
        logger.error("gone")
        XCTAssertEqual(lines.withLock { $0 }, [
            "folio: a save failed; retrying\n",
            "folio: info: two lines book=/b sheet=3\n",
            "folio: gone\n",
        ])
    }
}
