import Foundation
import XCTest

/// GNOME's compositor: headless Mutter (Tests/Compositors/mutter_session.py). Folio maps and
/// commits; Mutter's remote-desktop D-Bus interface draws two strokes with a virtual pointer and
/// presses Ctrl+Z; SIGTERM ends Folio cleanly with the one stroke left saved in its book.
final class MutterTests: XCTestCase {
    /// mutter_session.py's "cannot start" status.
    static let unavailable: Int32 = 77

    func testFolioMapsDrawsUndoesAndSavesUnderMutter() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = root.appendingPathComponent("Tests/Compositors/mutter_session.py").path
        let folio = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("folio").path
        let out = root.appendingPathComponent(".build/test-artifacts/mutter").path

        // `make test` installs jeepney in a virtual environment and names its python.
        let python = ProcessInfo.processInfo.environment["FOLIO_TEST_PYTHON"] ?? "python3"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Mutter owns names on the session bus: a bus of its own.
        process.arguments = ["dbus-run-session", "--", python, script, "--client", folio, "--out", out]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        let report = output.split(separator: "\n").filter { $0.hasPrefix("mutter_session:") }.joined(separator: "\n")
        if process.terminationStatus == Self.unavailable || process.terminationStatus == 127 {
            let reason = "Mutter cannot run here: \(report.isEmpty ? output : report)"
            if ProcessInfo.processInfo.environment["CI"] == "true" { return XCTFail(reason) }
            throw XCTSkip(reason)
        }
        XCTAssertEqual(process.terminationStatus, 0, "\(report)\n(logs in \(out))")
    }
}
