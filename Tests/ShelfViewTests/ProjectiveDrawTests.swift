import FolioGeometry
import FolioPixels
@testable import FolioRender
import XCTest

/// The shelf's projective drawing against a plain reference: every target pixel's centre mapped
/// back through the homography and the image sampled bilinearly in floating point.
final class ProjectiveDrawTests: XCTestCase {
    private func image() -> Bitmap {
        let image = Bitmap(width: 61, height: 47)
        for y in 0..<47 {
            let row = image.pixels.advanced(by: y * image.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<61 { row[x] = 0xFF00_0000 | UInt32((x * 37) & 0xFF) << 16 | UInt32((y * 53) & 0xFF) << 8 | UInt32((x * y) & 0xFF) }
        }
        return image
    }

    /// The homography of `transform` (row vectors, as `Transform3D`) for image pixels placed at `origin`.
    private func forward(_ m: Transform3D, origin: Point) -> [Double] {
        [m.m11, m.m21, m.m11 * origin.x + m.m21 * origin.y + m.m41,
         m.m12, m.m22, m.m12 * origin.x + m.m22 * origin.y + m.m42,
         m.m14, m.m24, m.m14 * origin.x + m.m24 * origin.y + m.m44]
    }

    private func check(_ transform: Transform3D, file: StaticString = #filePath, line: UInt = #line) throws {
        let source = image()
        let target = Bitmap(width: 160, height: 120, color: 0xFF20_2020)
        let f = forward(transform, origin: Point(x: -30, y: -23))
        let mapping = try XCTUnwrap(ProjectiveDraw.Mapping(forward: f, width: source.width, height: source.height, within: target.bounds))
        ProjectiveDraw.draw(source, mapping: mapping, into: target)
        let i = mapping.inverse
        var drawn = 0, worst = 0
        for y in 0..<120 {
            for x in 0..<160 {
                let cx = Double(x) + 0.5, cy = Double(y) + 0.5
                let w = i[6] * cx + i[7] * cy + i[8]
                let u = (i[0] * cx + i[1] * cy + i[2]) / w - 0.5, v = (i[3] * cx + i[4] * cy + i[5]) / w - 0.5
                // Only pixels well inside the image: its edges blend with the backdrop.
                guard u >= 0, v >= 0, u < Double(source.width - 1), v < Double(source.height - 1) else { continue }
                let u0 = Int(u), v0 = Int(v), fx = u - Double(u0), fy = v - Double(v0)
                let seen = target.pixel(x: x, y: y)
                for shift: UInt32 in [0, 8, 16] {
                    func c(_ px: Int, _ py: Int) -> Double { Double((source.pixel(x: px, y: py) >> shift) & 0xFF) }
                    let want = (c(u0, v0) * (1 - fx) + c(u0 + 1, v0) * fx) * (1 - fy) + (c(u0, v0 + 1) * (1 - fx) + c(u0 + 1, v0 + 1) * fx) * fy
                    worst = max(worst, abs(Int((seen >> shift) & 0xFF) - Int(want.rounded())))
                }
                drawn += 1
            }
        }
        XCTAssertGreaterThan(drawn, 1000, "the image covers part of the target", file: file, line: line)
        XCTAssertLessThanOrEqual(worst, 3, "bilinear within 3 levels of the reference", file: file, line: line)
    }

    func testATurnAboutTheVerticalAxisMatchesTheReference() throws {
        // The covers' case: column by column.
        try check(Transform3D.perspective(distance: 300).rotated(-0.5, 0, 1, 0).scaled(1.6, 1.6, 1).translated(0, 0, 0)
            .concatenating(.translation(80, 60, 0)))
    }

    func testAnyOtherTurnMatchesTheReference() throws {
        // Turned about a slanted axis: every pixel divides.
        try check(Transform3D.perspective(distance: 300).rotated(0.6, 0.3, 1, 0.2).scaled(1.6, 1.6, 1)
            .concatenating(.translation(80, 60, 0)))
    }
}
