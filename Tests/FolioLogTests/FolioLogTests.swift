import FolioLog
import Logging
import Synchronization
import XCTest

final class FolioLogTests: XCTestCase {
    func testLevelComesFromTheOptionThenTheEnvironmentThenTheDefault() throws {
        let none = try FolioLog.configuration(arguments: ["replay", "t.jsonl"], environment: [:])
        XCTAssertEqual(none.level, .warning)
        XCTAssertEqual(none.arguments, ["replay", "t.jsonl"])

        let environment = try FolioLog.configuration(arguments: ["info"], environment: ["FOLIO_LOG": "DEBUG"])
        XCTAssertEqual(environment.level, .debug)

        let option = try FolioLog.configuration(arguments: ["--log-level", "error", "info", "--log-level=trace", "b"],
                                                environment: ["FOLIO_LOG": "debug"])
        XCTAssertEqual(option.level, .trace, "the last option wins over FOLIO_LOG")
        XCTAssertEqual(option.arguments, ["info", "b"])

        let afterDashes = try FolioLog.configuration(arguments: ["render", "--", "--log-level", "x"], environment: [:])
        XCTAssertEqual(afterDashes.level, .warning)
        XCTAssertEqual(afterDashes.arguments, ["render", "--", "--log-level", "x"])

        XCTAssertEqual(FolioLog.levelNames, ["trace", "debug", "info", "notice", "warning", "error", "critical"])
    }

    func testUnknownLevelsAreErrorsNamingWhereTheyCameFrom() {
        XCTAssertThrowsError(try FolioLog.configuration(arguments: ["--log-level", "loud"], environment: [:])) { error in
            XCTAssertEqual(error as? LogLevelError, LogLevelError(source: "--log-level", name: "loud"))
            XCTAssertTrue("\(error)".contains("trace, debug, info, notice, warning, error, critical"), "\(error)")
        }
        XCTAssertThrowsError(try FolioLog.configuration(arguments: [], environment: ["FOLIO_LOG": "2"])) { error in
            XCTAssertEqual(error as? LogLevelError, LogLevelError(source: "FOLIO_LOG", name: "2"))
        }
        XCTAssertThrowsError(try FolioLog.configuration(arguments: ["info", "--log-level"], environment: [:])) { error in
            XCTAssertEqual("\(error)", "--log-level needs a level: trace, debug, info, notice, warning, error, critical")
        }
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
