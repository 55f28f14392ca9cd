import FolioGeometry
import FolioPixels
import TestCompositor
import XCTest

/// The test compositor checked against Weston's own demo clients, so that a failing Folio test
/// points at Folio and not at the harness.
final class TestCompositorSelfTests: XCTestCase {
    func testReferenceShmClientCommitsAndReusesBuffers() throws {
        let client = try requireExecutable("/usr/bin/weston-simple-shm", for: "a reference shm client")
        let compositor = try TestCompositor()
        defer { compositor.stop() }
        let process = try compositor.launch(client)
        defer { process.terminate() }
        try compositor.waitForToplevel()
        let observation = try compositor.wait(for: "40 commits") { $0.commits.count >= 40 ? $0 : nil }
        XCTAssertLessThanOrEqual(observation.buffersSeen, 4, "weston-simple-shm keeps a small pool when buffers are released")
        XCTAssertEqual(observation.heldBufferReattached, 0)
        XCTAssertTrue(observation.protocolErrors.isEmpty, "\(observation.protocolErrors)")
        let image = try compositor.surfaceImage()
        XCTAssertGreaterThan(image.width, 0)
        XCTAssertGreaterThan(image.count { $0 != 0 }, image.width * image.height / 4, "the surface shows what the client drew")
    }

    func testReferenceTouchClientDrawsWhereTouched() throws {
        let client = try requireExecutable("/usr/bin/weston-simple-touch", for: "a reference touch client")
        let compositor = try TestCompositor()
        defer { compositor.stop() }
        let process = try compositor.launch(client)
        defer { process.terminate() }
        try compositor.waitForToplevel()
        _ = try compositor.wait(for: "a wl_touch") { $0.touchObjects > 0 ? true : nil }
        let before = try compositor.surfaceImage()
        let last = compositor.lastCommitIndex
        try compositor.sendTouch([.down(id: 0, x: 60, y: 70), .frame])
        let commit = try compositor.waitForCommit(after: last)
        let touched = PixelRect(x: 60, y: 70, width: 1, height: 1)
        XCTAssertTrue(commit.damage.contains { $0.contains(touched) }, "damage \(commit.damage) covers the touch")
        let after = try compositor.surfaceImage()
        XCTAssertNotEqual(before.pixel(x: 60, y: 70), after.pixel(x: 60, y: 70), "the touched pixel changed")
    }
}
