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

    /// The covers' case pixel by pixel, as the shelf first drew it: a column's position and
    /// divide, then each row's four taps (clear outside the image), blended horizontally first.
    private func referenceTurn(_ image: Bitmap, mapping m: ProjectiveDraw.Mapping, light: UInt32, solid: UInt32?, into target: Bitmap) {
        let i = m.inverse
        for x in m.box.x..<(m.box.x + m.box.width) {
            let cx = Double(x) + 0.5
            let nw = i[6] * cx + i[8]
            guard nw != 0 else { continue }
            let r = 1 / nw
            let u = (i[0] * cx + i[2]) * r - 0.5
            guard u > -1, u < Double(image.width) else { continue }
            let u0 = Int(u + 1) - 1, fx = UInt32((u - Double(u0)) * 256)
            let step = i[4] * r, base = (i[3] * cx + i[5]) * r - 0.5
            for y in m.box.y..<(m.box.y + m.box.height) {
                let v = base + step * (Double(y) + 0.5)
                guard v > -1, v < Double(image.height) else { continue }
                let v0 = Int(v + 1) - 1, fy = UInt32((v - Double(v0)) * 256)
                func tap(_ px: Int, _ py: Int) -> UInt32 {
                    px >= 0 && py >= 0 && px < image.width && py < image.height ? image.pixel(x: px, y: py) : 0
                }
                let p = ProjectiveDraw.bilinear(tap(u0, v0), tap(u0 + 1, v0), tap(u0, v0 + 1), tap(u0 + 1, v0 + 1), fx, fy)
                var s: UInt32
                if let solid {
                    s = ProjectiveDraw.scale(solid, by: (p >> 24) + ((p >> 24) >> 7))
                } else {
                    s = light >= 256 ? p : (p & 0xFF00_0000) | (ProjectiveDraw.scale(p, by: light) & 0x00FF_FFFF)
                }
                let a = s >> 24
                guard a != 0 else { continue }
                if a != 255 { s = s &+ ProjectiveDraw.scale(target.pixel(x: x, y: y), by: 256 - (a + (a >> 7))) }
                target.pixels.advanced(by: y * target.stride).assumingMemoryBound(to: UInt32.self)[x] = s
            }
        }
    }

    /// A premultiplied image with translucent and clear pixels, and opaque ones.
    private func translucentImage(width: Int, height: Int) -> Bitmap {
        let image = Bitmap(width: width, height: height)
        for y in 0..<height {
            let row = image.pixels.advanced(by: y * image.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let a = UInt32(x % 7 == 0 ? 0 : y % 5 == 0 ? 255 : (x * 29 + y * 13) & 0xFF)
                func channel(_ k: Int) -> UInt32 {
                    let level = UInt32((x * k + y * (k + 3)) & 0xFF)
                    return level * a / 255
                }
                let red: UInt32 = channel(37) << 16, green: UInt32 = channel(53) << 8
                row[x] = a << 24 | red | green | channel(11)
            }
        }
        return image
    }

    /// A translucent target with an opaque corner.
    private func targetPixel(x: Int, y: Int) -> UInt32 { x < 150 && y < 60 ? 0xFF90_A0B0 : 0x8020_4060 }

    /// How many pixels of a 300×170 target differ between `a` and `b`.
    private func differing(_ a: (Int, Int) -> UInt32, _ b: (Int, Int) -> UInt32) -> Int {
        var count = 0
        for y in 0..<170 {
            for x in 0..<300 where a(x, y) != b(x, y) { count += 1 }
        }
        return count
    }

    private func paintTarget(_ target: Bitmap) {
        target.fill(0x8020_4060)
        target.fill(0xFF90_A0B0, in: PixelRect(x: 0, y: 0, width: 150, height: 60))
    }

    func testEveryTurnKernelGivesThePerPixelBytes() throws {
        // Wider than one pass of the kernel's columns, partly off the target, shrunk to a fifth,
        // over a translucent target: lit, unlit and solid.
        for (width, height, turn, shift, zoom) in [(300, 170, -0.5, 40.0, 1.0), (61, 47, 0.7, -20, 1), (413, 90, -0.35, 150, 1),
                                                   (1400, 600, -0.35, 0, 0.2)] {
            let source = translucentImage(width: width, height: height)
            let m = Transform3D.perspective(distance: 400).rotated(turn, 0, 1, 0).scaled(zoom, zoom, 1)
                .concatenating(.translation(shift + 150, 80, 0))
            let f = forward(m, origin: Point(x: -Double(width) / 2, y: -Double(height) / 2))
            for (light, solid) in [(UInt32(256), UInt32?.none), (181, nil), (256, 0xB300_0000), (256, 0x8040_2010)] {
                let slow = Bitmap(width: 300, height: 170)
                paintTarget(slow)
                let mapping = try XCTUnwrap(ProjectiveDraw.Mapping(forward: f, width: width, height: height, within: slow.bounds))
                XCTAssertEqual(mapping.inverse[1], 0)
                XCTAssertEqual(mapping.inverse[7], 0)
                referenceTurn(source, mapping: mapping, light: light, solid: solid, into: slow)
                let changed = differing({ slow.pixel(x: $0, y: $1) }, { targetPixel(x: $0, y: $1) })
                let label = "\(width)x\(height) light \(light) solid \(String(describing: solid))"
                XCTAssertGreaterThan(changed, 1000, "\(label): the image is drawn")
                for kernel in ProjectiveDraw.turnKernels {
                    let fast = Bitmap(width: 300, height: 170)
                    paintTarget(fast)
                    ProjectiveDraw.draw(source, mapping: mapping, light: light, solid: solid, into: fast, kernel: kernel)
                    XCTAssertEqual(differing({ fast.pixel(x: $0, y: $1) }, { slow.pixel(x: $0, y: $1) }), 0, "\(label), \(kernel.name)")
                }
            }
        }
    }
}
