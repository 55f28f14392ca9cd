import Foundation
import FolioGeometry
import FolioPixels
import FolioRender
import TestCompositor
import XCTest

/// Folio under a real compositor: a private headless Weston (Tests/Compositors/weston-session.sh)
/// runs `folio --demo` with a trace of one stroke; a screenshot must show the white canvas with
/// blue ink, and the client's protocol log must show buffers reused and small damage; its debug
/// log, when each frame was presented.
final class WestonTests: XCTestCase {
    /// The stroke the trace draws (surface coordinates of the 1280x800 window).
    let stroke = (0..<40).map { i in Point(x: 200 + Double(i) * 17.5, y: 300 + Double(i) * 3) }

    func testDemoUnderWestonShowsInkAndReusesBuffers() throws {
        for tool in ["/usr/bin/weston", "/usr/bin/weston-screenshooter"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw unavailable("\(tool) is missing (apt-get install weston; `make test` does)")
        }
        let work = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let session = try WestonSession.start()
        defer { session.stop() }

        let trace = work + "/stroke.jsonl"
        try traceText().write(toFile: trace, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = session.runtimeDirectory
        environment["WAYLAND_DISPLAY"] = session.display
        environment["WAYLAND_SOCKET"] = nil
        environment["WAYLAND_DEBUG"] = "1"
        environment["FOLIO_LOG"] = "debug"
        environment["XDG_DATA_HOME"] = work
        let folio = try ClientProcess.start(try ClientProcess.folioExecutable(), arguments: ["--demo", trace], environment: environment)
        defer { folio.terminate() }

        // The stroke has been drawn once its frames are in the log and the client went quiet (the
        // trace then holds still until 5 s). How many frames the 1.9 s stroke makes depends on
        // the machine's load and on emulation (late commits fold samples that arrive together
        // into one frame), so the counts below ask for a frame every few samples.
        try waitForQuiet(folio, after: { WaylandDebugLog($0).commits.count >= 12 })
        let screenshot = try session.screenshot(into: work)
        let status = try folio.waitForExit(timeout: .seconds(30))
        XCTAssertEqual(status, 0, "folio --demo exit status; stderr tail: \(folio.standardError.suffix(2000))")

        // The screenshot: a white 1280x800 canvas (the window) with the stroke in blue.
        let window = try XCTUnwrap(bounds(of: screenshot, where: isPaper), "no white canvas on screen")
        XCTAssertEqual(window.width, 1280, "window \(window)")
        XCTAssertEqual(window.height, 800, "window \(window)")
        for (i, p) in stroke.enumerated() where i >= 2 && i < stroke.count - 2 {
            let x = window.x + Int(p.x), y = window.y + Int(p.y)
            XCTAssertTrue(isInk(screenshot.pixel(x: x, y: y)),
                          "stroke point \(i) at (\(x), \(y)) is \(String(screenshot.pixel(x: x, y: y), radix: 16)), not ink")
        }
        let inkCount = count(in: screenshot, window, where: isInk)
        XCTAssertGreaterThan(inkCount, 700 * 3, "ink pixels on screen")
        XCTAssertLessThan(inkCount, 700 * 10, "ink pixels on screen")

        // The protocol log: buffers created once and reused; stroke frames damage small rectangles.
        let log = WaylandDebugLog(folio.standardError)
        XCTAssertGreaterThanOrEqual(log.commits.count, 12, "\(log.requestCounts)")
        XCTAssertGreaterThan(log.buffersCreated, 0, "\(log.requestCounts)")
        XCTAssertLessThanOrEqual(log.buffersCreated, 4, "wl_buffers created once, not per frame: \(log.requestCounts)")
        let full = 1280 * 800
        let partial = log.commits.filter { commit in
            let area = commit.damage.reduce(0) { $0 + $1.area }
            return area > 0 && area < full
        }
        XCTAssertGreaterThanOrEqual(partial.count, 10, "stroke frames damage part of the window")
        // At debug, a line for each frame that drew input: Weston gives presentation feedback,
        // so each says when the frame was presented, after its newest input.
        let frames = folio.standardError.split(separator: "\n").filter { $0.hasPrefix("folio: debug: frame: newest input ") }
        XCTAssertGreaterThanOrEqual(frames.count, 10, "frame lines")
        for line in frames {
            XCTAssertTrue(line.contains(" presented at ") && line.hasSuffix(" ms later)") && !line.contains("(-"), "\(line)")
        }
        // The toolbar's handle is on a subsurface of its own: committed there, drawn on screen.
        XCTAssertGreaterThanOrEqual(log.subsurfaceCommits.count, 1, "\(log.requestCounts)")
        XCTAssertFalse(isPaper(screenshot.pixel(x: window.x + 640 - 30, y: window.y + 800 - 4)), "the toolbar's handle")
        // Predicted ink reaches past the newest sample, along the stroke (right and down), at
        // most 1.5 times the stroke's speed for a refresh and half of one (the window Folio assumes).
        let reach = Int((1.5 * 17.5 / Double(Self.samplePace) * 25).rounded(.up))
        let inkArea = PixelRect(x: 200 - 8, y: 300 - 8, width: Int(39 * 17.5) + 16 + reach, height: 39 * 3 + 16 + reach)
        for commit in partial {
            for rect in commit.damage {
                XCTAssertTrue(inkArea.contains(rect), "damage \(rect) lies outside the stroke's \(inkArea)")
                XCTAssertLessThan(rect.area, full / 8, "damage \(rect) is not small")
            }
        }
    }

    /// Waits until `ready` holds for the client's stderr and then nothing new arrived for 0.6 s.
    func waitForQuiet(_ client: ClientProcess, after ready: (String) -> Bool, timeout: TimeInterval = 30) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        var quietSince = Date()
        while Date() < deadline {
            let now = client.standardError
            if now != last { last = now; quietSince = Date() }
            if ready(now) && Date().timeIntervalSince(quietSince) > 0.6 { return }
            if !client.isRunning { throw WestonError("folio exited early; stderr tail:\n\(now.suffix(3000))") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw WestonError("folio did not draw the stroke within \(timeout) s; stderr tail:\n\(last.suffix(3000))")
    }

    /// Milliseconds between the stroke's samples: slow enough that each sample can have a frame
    /// of its own even where a frame takes 30–50 ms (the arm64 build emulated by qemu-user), so
    /// the frame counts below mean the same on every machine.
    static let samplePace = 48

    /// One stroke in the first 2.2 s, then nothing until 5 s (the window stays up for the screenshot).
    func traceText() -> String {
        var lines = ["# one stroke for the Weston test"]
        let pace = Self.samplePace
        for (i, p) in stroke.enumerated() {
            let kind = i == 0 ? "\"touch.down\"" : "\"touch.motion\""
            lines.append("{\"t\": \(200 + i * pace), \"kind\": \(kind), \"id\": 1, \"x\": \(p.x), \"y\": \(p.y)}")
            lines.append("{\"t\": \(200 + i * pace), \"kind\": \"touch.frame\"}")
        }
        let end = 200 + stroke.count * pace
        lines.append("{\"t\": \(end), \"kind\": \"touch.up\", \"id\": 1}")
        lines.append("{\"t\": \(end), \"kind\": \"touch.frame\"}")
        lines.append("{\"t\": 5000, \"kind\": \"pointer.motion\", \"x\": 5, \"y\": 5}")
        return lines.joined(separator: "\n") + "\n"
    }
}
