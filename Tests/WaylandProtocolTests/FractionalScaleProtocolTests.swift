import FolioGeometry
import Foundation
import TestCompositor
import XCTest

/// wp_fractional_scale_v1 over a real socket: Folio's buffer is the logical size times the
/// preferred scale (N/120, rounded as the protocol says), shown through wp_viewport at the
/// logical size with wl_surface's buffer scale left at 1; its ink is 6 logical px wide in buffer
/// pixels; and a new preferred scale mid-stroke redraws everything at it, the stroke going on.
final class FractionalScaleProtocolTests: XCTestCase {
    /// Summed ink coverage down buffer column `x` (blue ink on white paper: red is 255 × (1 − coverage)).
    private func inkAcross(_ image: Image, x: Int) -> Double {
        (0..<image.height).reduce(0.0) { $0 + 1 - Double(Ink.channels(image.pixel(x: x, y: $1)).r) / 255 }
    }

    func testBuffersAreTheLogicalSizeTimesThePreferredScale() throws {
        // 401×301 at 1.25 is 501.25×376.25: 501×376 buffers. 400×300 at 1.5 and 1.75: exact.
        for (width, height, scale120) in [(Int32(400), Int32(300), UInt32(180)), (401, 301, 150), (400, 300, 210)] {
            let scale = BufferScale(numerator: Int(scale120))
            let folio = try FolioUnderTest(width: width, height: height, fractionalScale: scale120)
            let points = line(from: Point(x: 60, y: 150), to: Point(x: 340, y: 150), count: 30)
            try folio.stroke(points)
            let (w, h) = (scale.pixels(Int(width)), scale.pixels(Int(height)))
            let image = try folio.waitForImage("the stroke at \(scale)") { image in
                image.width == w && image.height == h
                    && stride(from: 80.0, through: 320, by: 20).allSatisfy { Ink.isInk(image.pixel(x: scale.pixels(Int($0)), y: scale.pixels(150))) }
            }
            try folio.settle()
            let commit = try XCTUnwrap(folio.compositor.observation.commits.last { $0.attached })
            XCTAssertEqual([commit.width, commit.height], [w, h], "the buffer at \(scale)")
            XCTAssertEqual(commit.viewportDestination.map { [$0.width, $0.height] }, [Int(width), Int(height)], "the viewport at \(scale)")
            XCTAssertEqual(commit.bufferScale, 1, "wl_surface's buffer scale stays 1 with a viewport")
            XCTAssertEqual(inkAcross(image, x: scale.pixels(200)), 6 * scale.factor, accuracy: 0.15, "ink width at \(scale)")
        }
    }

    func testANewPreferredScaleMidStrokeRedrawsAtItAndTheStrokeGoesOn() throws {
        let folio = try FolioUnderTest(width: 400, height: 300, fractionalScale: 180)
        let points = line(from: Point(x: 60, y: 150), to: Point(x: 340, y: 150), count: 40)
        let (first, rest) = (Array(points.prefix(20)), Array(points.suffix(20)))
        try folio.compositor.sendTouch([.down(id: 1, x: points[0].x, y: points[0].y), .frame])
        for p in first.dropFirst() {
            let last = folio.compositor.lastCommitIndex
            try folio.compositor.sendTouch([.motion(id: 1, x: p.x, y: p.y), .frame])
            _ = try folio.compositor.waitForCommit(after: last)
        }
        try folio.compositor.setPreferredScale(150)
        let scale = BufferScale(numerator: 150)
        try folio.waitForImage("the live stroke redrawn at 1.25") { image in
            image.width == 500 && image.height == 375
                && stride(from: 80.0, through: 180, by: 20).allSatisfy { Ink.isInk(image.pixel(x: scale.pixels(Int($0)), y: scale.pixels(150))) }
        }
        for p in rest {
            let last = folio.compositor.lastCommitIndex
            try folio.compositor.sendTouch([.motion(id: 1, x: p.x, y: p.y), .frame])
            _ = try folio.compositor.waitForCommit(after: last)
        }
        try folio.compositor.sendTouch([.up(id: 1), .frame])
        let image = try folio.waitForImage("the whole stroke at 1.25") { image in
            image.width == 500 && stride(from: 80.0, through: 320, by: 20).allSatisfy { Ink.isInk(image.pixel(x: scale.pixels(Int($0)), y: scale.pixels(150))) }
        }
        XCTAssertEqual(inkAcross(image, x: scale.pixels(300)), 7.5, accuracy: 0.15, "ink drawn after the change")
        XCTAssertEqual(inkAcross(image, x: scale.pixels(100)), 7.5, accuracy: 0.15, "ink drawn before it, redrawn at 1.25")
        XCTAssertEqual(folio.compositor.observation.commits.last { $0.attached }?.viewportDestination.map { [$0.width, $0.height] }, [400, 300])
    }
}
