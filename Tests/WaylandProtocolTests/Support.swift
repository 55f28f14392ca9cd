import Foundation
import FolioGeometry
import FolioPixels
import TestCompositor
import XCTest

/// A component a test needs and cannot start: fail under CI=true, skip loudly elsewhere.
func unavailable(_ reason: String, file: StaticString = #filePath, line: UInt = #line) -> Error {
    if ProcessInfo.processInfo.environment["CI"] == "true" {
        XCTFail("CI=true and \(reason)", file: file, line: line)
        return TestCompositorError(reason)
    }
    return XCTSkip("SKIPPED: \(reason)", file: file, line: line)
}

/// The path of a program, or the error `unavailable` gives when it is missing.
func requireExecutable(_ path: String, for purpose: String) throws -> String {
    guard FileManager.default.isExecutableFile(atPath: path) else {
        throw unavailable("\(path) is missing (\(purpose)); `make test` installs it")
    }
    return path
}

/// What `folio info --book DIR` says.
func bookInfo(_ book: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
    let process = try ClientProcess.start(try ClientProcess.folioExecutable(), arguments: ["info", "--book", book],
                                          environment: ProcessInfo.processInfo.environment)
    XCTAssertEqual(try process.waitForExit(), 0, process.standardError, file: file, line: line)
    return process.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Colours as Folio draws them (premultiplied 0xAARRGGBB).
enum Ink {
    static func channels(_ pixel: UInt32) -> (a: Int, r: Int, g: Int, b: Int) {
        (Int(pixel >> 24), Int((pixel >> 16) & 0xFF), Int((pixel >> 8) & 0xFF), Int(pixel & 0xFF))
    }

    /// Opaque and (nearly) pure blue: the ink's solid core.
    static func isInk(_ pixel: UInt32) -> Bool {
        let c = channels(pixel)
        return c.a >= 250 && c.b >= 200 && c.r <= 60 && c.g <= 60
    }

    /// Opaque white: untouched canvas.
    static func isPaper(_ pixel: UInt32) -> Bool {
        let c = channels(pixel)
        return c.a >= 250 && c.r >= 250 && c.g >= 250 && c.b >= 250
    }
}

extension Image {
    /// The pixels matching `predicate` inside `rect`.
    func count(in rect: PixelRect? = nil, where predicate: (UInt32) -> Bool) -> Int {
        let r = rect ?? bounds
        var n = 0
        for y in max(0, r.y)..<min(height, r.maxY) {
            for x in max(0, r.x)..<min(width, r.maxX) where predicate(pixel(x: x, y: y)) { n += 1 }
        }
        return n
    }

    /// The bounding box of pixels matching `predicate`, or nil.
    func bounds(where predicate: (UInt32) -> Bool) -> PixelRect? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<height {
            for x in 0..<width where predicate(pixel(x: x, y: y)) {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? nil : PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }
}
