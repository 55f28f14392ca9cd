import Foundation
import XCTest

/// Runs one of the Python compositor drivers in Tests/Compositors (kwin_touch.py,
/// mutter_session.py) on a D-Bus session of its own, with the `folio` built beside this test
/// bundle. Exit 77 (or 127, no interpreter) means the compositor cannot start here: a failure
/// under CI, a loud skip elsewhere. Any other non-zero status fails with the script's own lines.
enum CompositorScript {
    /// The drivers' "cannot start" status.
    static let unavailable: Int32 = 77

    /// `script` names the driver; its report lines start with `script`'s stem and a colon.
    /// Screenshots and logs go to .build/test-artifacts/`artifacts`.
    static func run(_ script: String, compositor: String, artifacts: String, arguments: [String] = [],
                    file: StaticString = #filePath, line: UInt = #line) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("Tests/Compositors/\(script)").path
        let folio = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("folio").path
        let out = root.appendingPathComponent(".build/test-artifacts/\(artifacts)").path

        // `make test` installs the drivers' modules in a virtual environment and names its python.
        let python = ProcessInfo.processInfo.environment["FOLIO_TEST_PYTHON"] ?? "python3"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // The compositors own names on the session bus: a bus of their own.
        process.arguments = ["dbus-run-session", "--", python, path, "--client", folio, "--out", out] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        let prefix = (script as NSString).deletingPathExtension + ":"
        let report = output.split(separator: "\n").filter { $0.hasPrefix(prefix) }.joined(separator: "\n")
        if process.terminationStatus == unavailable || process.terminationStatus == 127 {
            let reason = "\(compositor) cannot run here: \(report.isEmpty ? output : report)"
            if ProcessInfo.processInfo.environment["CI"] == "true" { return XCTFail(reason, file: file, line: line) }
            throw XCTSkip(reason)
        }
        XCTAssertEqual(process.terminationStatus, 0, "\(report)\n(screenshots and logs in \(out))", file: file, line: line)
    }
}
