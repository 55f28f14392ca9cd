import Foundation
import FolioPixels
import FolioRender
import TestCompositor
import XCTest

struct WestonError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A component a test needs and cannot start: fail under CI=true, skip loudly elsewhere.
func unavailable(_ reason: String, file: StaticString = #filePath, line: UInt = #line) -> Error {
    if ProcessInfo.processInfo.environment["CI"] == "true" {
        XCTFail("CI=true and \(reason)", file: file, line: line)
        return WestonError(reason)
    }
    return XCTSkip("SKIPPED: \(reason)", file: file, line: line)
}

func temporaryDirectory() throws -> String {
    try makeTemporaryDirectory(prefix: "folio-weston-test")
}

/// A private headless Weston started by Tests/Compositors/weston-session.sh.
struct WestonSession {
    var runtimeDirectory: String
    var display: String
    var log: String
    /// Weston's process, for tests that kill it.
    var pid: Int32

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Compositors/weston-session.sh").path

    static func start(width: Int = 1600, height: Int = 1000) throws -> WestonSession {
        let (status, output, errors) = try run("/bin/bash", [script, "start", String(width), String(height)])
        guard status == 0 else { throw unavailable("headless Weston did not start: \(errors)") }
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { values[parts[0]] = parts[1] }
        }
        guard let dir = values["XDG_RUNTIME_DIR"], let display = values["WAYLAND_DISPLAY"] else {
            throw WestonError("weston-session.sh printed no session: \(output)")
        }
        guard let pid = values["WESTON_PID"].flatMap(Int32.init) else { throw WestonError("weston-session.sh printed no pid: \(output)") }
        return WestonSession(runtimeDirectory: dir, display: display, log: values["WESTON_LOG"] ?? "", pid: pid)
    }

    func stop() {
        _ = try? Self.run("/bin/bash", [Self.script, "stop", runtimeDirectory])
    }

    /// The whole screen now, through weston-screenshooter (Weston runs with --debug for it).
    func screenshot(into directory: String) throws -> Bitmap {
        let shots = directory + "/shots"
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let (status, _, errors) = try Self.run("/usr/bin/weston-screenshooter", [], directory: shots,
                                              environment: ["XDG_RUNTIME_DIR": runtimeDirectory, "WAYLAND_DISPLAY": display])
        let files = (try? FileManager.default.contentsOfDirectory(atPath: shots)) ?? []
        guard status == 0, let file = files.first(where: { $0.hasSuffix(".png") }) else {
            throw WestonError("weston-screenshooter failed (\(status)): \(errors); Weston's log: \(log)")
        }
        return try PNG.read(from: shots + "/" + file)
    }

    /// Runs a program to completion; its exit status, stdout and stderr.
    static func run(_ executable: String, _ arguments: [String], directory: String? = nil,
                    environment: [String: String] = [:]) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        // Output goes to files: nothing the session script leaves running can hold them open.
        let outPath = NSTemporaryDirectory() + "folio-run-\(UUID().uuidString).out"
        let errPath = outPath + ".err"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: outPath)
            try? FileManager.default.removeItem(atPath: errPath)
        }
        guard let out = FileHandle(forWritingAtPath: outPath), let err = FileHandle(forWritingAtPath: errPath) else {
            throw WestonError("cannot create output files for \(executable)")
        }
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try? out.close()
        try? err.close()
        let output = FileManager.default.contents(atPath: outPath) ?? Data()
        let errors = FileManager.default.contents(atPath: errPath) ?? Data()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }
}

// MARK: Pixels on screen (opaque, so premultiplied or not makes no difference)

func channels(_ pixel: UInt32) -> (r: Int, g: Int, b: Int) {
    (Int((pixel >> 16) & 0xFF), Int((pixel >> 8) & 0xFF), Int(pixel & 0xFF))
}

func isInk(_ pixel: UInt32) -> Bool {
    let c = channels(pixel)
    return c.b >= 200 && c.r <= 60 && c.g <= 60
}

func isPaper(_ pixel: UInt32) -> Bool {
    let c = channels(pixel)
    return c.r >= 250 && c.g >= 250 && c.b >= 250
}

func bounds(of bitmap: Bitmap, where predicate: (UInt32) -> Bool) -> PixelRect? {
    var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
    for y in 0..<bitmap.height {
        for x in 0..<bitmap.width where predicate(bitmap.pixel(x: x, y: y)) {
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        }
    }
    return maxX < 0 ? nil : PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
}

func count(in bitmap: Bitmap, _ rect: PixelRect, where predicate: (UInt32) -> Bool) -> Int {
    var n = 0
    for y in max(0, rect.y)..<min(bitmap.height, rect.maxY) {
        for x in max(0, rect.x)..<min(bitmap.width, rect.maxX) where predicate(bitmap.pixel(x: x, y: y)) { n += 1 }
    }
    return n
}
