import Foundation
import XCTest
@testable import FolioGeometry

final class Transform3DTests: XCTestCase {
    private func assertClose(_ a: Transform3D, _ b: Transform3D, accuracy: Double = 1e-9,
                             file: StaticString = #filePath, line: UInt = #line) {
        for (x, y) in zip(a.rows, b.rows) {
            XCTAssertEqual(x, y, accuracy: accuracy, "\(a) vs \(b)", file: file, line: line)
        }
    }

    func testRotationAboutYFollowsCoreAnimationSigns() {
        let a = 0.3
        let r = Transform3D.rotation(a, 0, 1, 0)
        XCTAssertEqual(r.m11, cos(a), accuracy: 1e-15)
        XCTAssertEqual(r.m13, -sin(a), accuracy: 1e-15)
        XCTAssertEqual(r.m31, sin(a), accuracy: 1e-15)
        XCTAssertEqual(r.m33, cos(a), accuracy: 1e-15)
        XCTAssertEqual(r.m22, 1)
        // A point on +x moves toward the viewer's −z for a positive angle (row vector p·R).
        let p = r.apply(Vector4(1, 0, 0, 1))
        XCTAssertEqual(p.z, -sin(a), accuracy: 1e-15)
    }

    func testRotationAboutZTurnsXTowardY() {
        // CATransform3DMakeRotation(π/2, 0, 0, 1) sends (1, 0) to (0, 1): m12 = sin a.
        let r = Transform3D.rotation(.pi / 2, 0, 0, 1)
        let p = r.apply(Vector4(1, 0, 0, 1))
        XCTAssertEqual(p.x, 0, accuracy: 1e-15)
        XCTAssertEqual(p.y, 1, accuracy: 1e-15)
    }

    func testScaleAndRotateApplyTheNewOperationFirst() {
        let t = Transform3D.translation(10, 0, 0)
        // CATransform3DScale(t, 2, …) = S·t: scale, then translate.
        let scaled = t.scaled(2, 2, 2)
        XCTAssertEqual(scaled.project(Point(x: 1, y: 0))?.x ?? .nan, 12, accuracy: 1e-12)
        XCTAssertEqual(scaled.m41, 10)
        let rotated = t.rotated(.pi / 2, 0, 0, 1)
        let p = rotated.project(Point(x: 1, y: 0))
        XCTAssertEqual(p?.x ?? .nan, 10, accuracy: 1e-12)
        XCTAssertEqual(p?.y ?? .nan, 1, accuracy: 1e-12)
        XCTAssertEqual(t.translated(0, 5, 0).m42, 5)
    }

    func testPerspectiveDividesByOneMinusZOverD() {
        let p = Transform3D.perspective(distance: 2000)
        XCTAssertEqual(p.m34, -1.0 / 2000)
        // z = 500 toward the viewer: w = 1 − 500/2000 = 0.75, so x grows by 4/3.
        let v = p.apply(Vector4(300, 150, 500, 1))
        XCTAssertEqual(v.w, 0.75, accuracy: 1e-15)
        XCTAssertEqual(v.x / v.w, 400, accuracy: 1e-12)
        XCTAssertEqual(v.y / v.w, 200, accuracy: 1e-12)
    }

    func testHandComputedFoldMatrix() {
        // Rotate(Scale(P, 0.75), π/4, y) = R · S · P, by hand:
        // R·S = [c·s 0 −sn·s 0; 0 s 0 0; sn·s 0 c·s 0; 0 0 0 1]; ·P puts m34·m33 into column 4.
        let s = 0.75, a = Double.pi / 4, c = cos(a), sn = sin(a)
        let m = Transform3D.perspective(distance: 2000).scaled(s, s, s).rotated(a, 0, 1, 0)
        let expected = Transform3D(rows: [c * s, 0, -sn * s, sn * s / 2000,
                                          0, s, 0, 0,
                                          sn * s, 0, c * s, -c * s / 2000,
                                          0, 0, 0, 1])
        assertClose(m, expected, accuracy: 1e-15)
    }

    func testConcatAndInverse() {
        let m = Transform3D.perspective(distance: 800).scaled(0.8, 0.9, 1).rotated(0.7, 0.2, 1, 0.1).translated(30, -20, 5)
        guard let inv = m.inverted else { return XCTFail("invertible transform reported singular") }
        assertClose(m.concatenating(inv), .identity, accuracy: 1e-12)
        assertClose(inv.concatenating(m), .identity, accuracy: 1e-12)
        XCTAssertNil(Transform3D.scale(1, 0, 1).inverted)
        XCTAssertEqual(Transform3D.scale(2, 3, 4).determinant, 24, accuracy: 1e-12)
    }

    func testUnprojectInvertsProject() {
        let m = Transform3D.perspective(distance: 2000).scaled(0.6, 0.6, 0.6).rotated(0.4 * .pi, 0, 1, 0)
            .translated(-960, -600, 0)
        for p in [Point(x: 0, y: 0), Point(x: 960, y: 1200), Point(x: 400, y: 77)] {
            guard let screen = m.project(p), let back = m.unproject(screen) else { return XCTFail("\(p) not projected") }
            XCTAssertEqual(back.x, p.x, accuracy: 1e-9)
            XCTAssertEqual(back.y, p.y, accuracy: 1e-9)
        }
    }

    /// The reference corners of the left page at 1920×1200 (perspective d = 2000): where Core
    /// Animation puts them for the same transforms.
    func testReferenceCorners() {
        let table: [(Double, [(Double, Double)])] = [
            (1.0, [(0, 0), (960, 0), (960, 1200), (0, 1200)]),
            (0.9, [(11.7, -23.2), (960, 60), (960, 1140), (11.7, 1223.2)]),
            (0.75, [(277.0, -3.7), (960, 150), (960, 1050), (277.0, 1203.7)]),
            (0.6, [(714.9, 104.2), (960, 240), (960, 960), (714.9, 1095.8)]),
            (0.48, [(997.6, 226.0), (960, 312), (960, 888), (997.6, 974.0)]),
        ]
        for (s, corners) in table {
            for (sign, mirror) in [(1.0, false), (-1.0, true)] {
                let page = Transform3D.perspective(distance: 2000).scaled(s, s, s).rotated(sign * (1 - s) * .pi, 0, 1, 0)
                // Bounds (960, 1200) about the anchor (1, 0.5) or (0, 0.5), positioned at (960, 600).
                let anchorX = mirror ? 0.0 : 960.0
                let full = Transform3D.translation(-anchorX, -600, 0).concatenating(page)
                    .concatenating(.translation(960, 600, 0))
                guard let quad = full.project(Rect(x: 0, y: 0, width: 960, height: 1200)) else {
                    return XCTFail("page behind the viewer at s = \(s)")
                }
                let got = mirror ? [quad.topRight, quad.topLeft, quad.bottomLeft, quad.bottomRight] : quad.corners
                for (g, e) in zip(got, corners) {
                    let x = mirror ? 1920 - g.x : g.x
                    XCTAssertEqual(x, e.0, accuracy: 0.051, "s = \(s) \(mirror ? "right" : "left")")
                    XCTAssertEqual(g.y, e.1, accuracy: 0.051, "s = \(s) \(mirror ? "right" : "left")")
                }
            }
        }
    }

    func testBackFaceNormalAtSmallestScale() {
        let page = Transform3D.perspective(distance: 2000).scaled(0.48, 0.48, 0.48).rotated(0.52 * .pi, 0, 1, 0)
        XCTAssertLessThan(page.normal.z, 0)
        XCTAssertGreaterThan(Transform3D.rotation(0.25 * .pi, 0, 1, 0).normal.z, 0)
    }

    func testDecompositionRoundTrips() {
        let samples = [
            Transform3D.identity,
            Transform3D.perspective(distance: 2000).scaled(0.75, 0.75, 0.75).rotated(0.25 * .pi, 0, 1, 0),
            Transform3D.rotation(0.9, 0.3, 0.5, 0.8).scaled(1.5, 0.5, 2).translated(10, 20, -30),
            Transform3D.scale(-1, 1, 1).rotated(2.5, 0, 1, 0),
            Transform3D(rows: [1, 0.2, 0, 0, 0.3, 1, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1]),
        ]
        for m in samples {
            guard let d = DecomposedTransform(m) else { return XCTFail("\(m) not decomposed") }
            assertClose(d.recomposed, m, accuracy: 1e-9)
        }
        XCTAssertNil(DecomposedTransform(Transform3D.scale(0, 1, 1)))
    }

    func testInterpolationRotatesRigidly() {
        // Halfway between identity and a half turn about y is a quarter turn, not a collapsed page.
        let half = Transform3D.identity.interpolated(to: .rotation(.pi * 0.9, 0, 1, 0), 0.5)
        assertClose(half, .rotation(.pi * 0.45, 0, 1, 0), accuracy: 1e-9)
        // The fold's unfold: from Rotate(Scale(P, s), a) to identity keeps the page a rotated, scaled plane.
        let p = Transform3D.perspective(distance: 2000)
        let folded = p.scaled(0.6, 0.6, 0.6).rotated(0.4 * .pi, 0, 1, 0)
        let mid = folded.interpolated(to: .identity, 0.5)
        guard let d = DecomposedTransform(mid) else { return XCTFail("midpoint not decomposable") }
        XCTAssertEqual(d.scale.x, 0.8, accuracy: 1e-9)
        XCTAssertEqual(d.scale.y, 0.8, accuracy: 1e-9)
        XCTAssertEqual(2 * atan2(d.rotation.y, d.rotation.w), 0.2 * .pi, accuracy: 1e-9)
        XCTAssertEqual(d.perspective.z, -0.5 / 2000, accuracy: 1e-12)
        assertClose(folded.interpolated(to: .identity, 0), folded, accuracy: 1e-9)
        assertClose(folded.interpolated(to: .identity, 1), .identity, accuracy: 1e-9)
    }
}
