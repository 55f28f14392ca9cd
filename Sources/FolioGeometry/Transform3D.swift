#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A 4×4 homogeneous transform with Core Animation's conventions (`CATransform3D`): points are
/// row vectors, `p' = p · M`, so translation lives in m41…m43 and perspective in m14…m34.
/// Chaining follows CA too: `scaled(…)`/`rotated(…)` apply the new operation first, then `self`.
public struct Transform3D: Hashable, Sendable, CustomStringConvertible {
    public var m11, m12, m13, m14: Double
    public var m21, m22, m23, m24: Double
    public var m31, m32, m33, m34: Double
    public var m41, m42, m43, m44: Double

    public init(m11: Double, m12: Double, m13: Double, m14: Double,
                m21: Double, m22: Double, m23: Double, m24: Double,
                m31: Double, m32: Double, m33: Double, m34: Double,
                m41: Double, m42: Double, m43: Double, m44: Double) {
        (self.m11, self.m12, self.m13, self.m14) = (m11, m12, m13, m14)
        (self.m21, self.m22, self.m23, self.m24) = (m21, m22, m23, m24)
        (self.m31, self.m32, self.m33, self.m34) = (m31, m32, m33, m34)
        (self.m41, self.m42, self.m43, self.m44) = (m41, m42, m43, m44)
    }

    /// From 16 values in row order (m11, m12, …, m44).
    public init(rows: [Double]) {
        precondition(rows.count == 16, "a 4×4 transform needs 16 values")
        self.init(m11: rows[0], m12: rows[1], m13: rows[2], m14: rows[3],
                  m21: rows[4], m22: rows[5], m23: rows[6], m24: rows[7],
                  m31: rows[8], m32: rows[9], m33: rows[10], m34: rows[11],
                  m41: rows[12], m42: rows[13], m43: rows[14], m44: rows[15])
    }

    public static let identity = Transform3D(m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
                                             m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)

    /// The 16 values in row order.
    public var rows: [Double] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
    }

    public subscript(row: Int, column: Int) -> Double {
        get { rows[row * 4 + column] }
        set {
            var values = rows
            values[row * 4 + column] = newValue
            self = Transform3D(rows: values)
        }
    }

    public var isIdentity: Bool { self == .identity }

    // MARK: Makers (CATransform3DMake…)

    public static func translation(_ tx: Double, _ ty: Double, _ tz: Double) -> Transform3D {
        var t = identity
        (t.m41, t.m42, t.m43) = (tx, ty, tz)
        return t
    }

    public static func scale(_ sx: Double, _ sy: Double, _ sz: Double) -> Transform3D {
        var t = identity
        (t.m11, t.m22, t.m33) = (sx, sy, sz)
        return t
    }

    /// Rotation by `angle` radians about the axis (x, y, z), as `CATransform3DMakeRotation`:
    /// about y, `m11 = cos a, m13 = −sin a, m31 = sin a, m33 = cos a`. A zero axis gives identity.
    public static func rotation(_ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> Transform3D {
        let length = (x * x + y * y + z * z).squareRoot()
        guard length > 0 else { return identity }
        let (x, y, z) = (x / length, y / length, z / length)
        let c = cos(angle), s = sin(angle), t = 1 - c
        return Transform3D(
            m11: t * x * x + c, m12: t * x * y + z * s, m13: t * x * z - y * s, m14: 0,
            m21: t * x * y - z * s, m22: t * y * y + c, m23: t * y * z + x * s, m24: 0,
            m31: t * x * z + y * s, m32: t * y * z - x * s, m33: t * z * z + c, m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
    }

    /// Identity with `m34 = −1/distance`: the viewer sits `distance` in front of the layer plane.
    public static func perspective(distance: Double) -> Transform3D {
        var t = identity
        t.m34 = -1 / distance
        return t
    }

    // MARK: Chaining (CATransform3DTranslate/Scale/Rotate/Concat)

    /// `self` then `other`: `p · (self.concatenating(other)) = (p · self) · other`.
    public func concatenating(_ b: Transform3D) -> Transform3D {
        let a = self
        return Transform3D(
            m11: a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31 + a.m14 * b.m41,
            m12: a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32 + a.m14 * b.m42,
            m13: a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33 + a.m14 * b.m43,
            m14: a.m11 * b.m14 + a.m12 * b.m24 + a.m13 * b.m34 + a.m14 * b.m44,
            m21: a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31 + a.m24 * b.m41,
            m22: a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32 + a.m24 * b.m42,
            m23: a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33 + a.m24 * b.m43,
            m24: a.m21 * b.m14 + a.m22 * b.m24 + a.m23 * b.m34 + a.m24 * b.m44,
            m31: a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31 + a.m34 * b.m41,
            m32: a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32 + a.m34 * b.m42,
            m33: a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33 + a.m34 * b.m43,
            m34: a.m31 * b.m14 + a.m32 * b.m24 + a.m33 * b.m34 + a.m34 * b.m44,
            m41: a.m41 * b.m11 + a.m42 * b.m21 + a.m43 * b.m31 + a.m44 * b.m41,
            m42: a.m41 * b.m12 + a.m42 * b.m22 + a.m43 * b.m32 + a.m44 * b.m42,
            m43: a.m41 * b.m13 + a.m42 * b.m23 + a.m43 * b.m33 + a.m44 * b.m43,
            m44: a.m41 * b.m14 + a.m42 * b.m24 + a.m43 * b.m34 + a.m44 * b.m44)
    }

    /// `CATransform3DTranslate(self, …)`: translate first, then `self`.
    public func translated(_ tx: Double, _ ty: Double, _ tz: Double) -> Transform3D {
        Transform3D.translation(tx, ty, tz).concatenating(self)
    }

    /// `CATransform3DScale(self, …)`: `S · self`.
    public func scaled(_ sx: Double, _ sy: Double, _ sz: Double) -> Transform3D {
        Transform3D.scale(sx, sy, sz).concatenating(self)
    }

    /// `CATransform3DRotate(self, …)`: `R · self`.
    public func rotated(_ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> Transform3D {
        Transform3D.rotation(angle, x, y, z).concatenating(self)
    }

    // MARK: Inverse

    public var determinant: Double {
        let s0 = m11 * m22 - m21 * m12, s1 = m11 * m23 - m21 * m13, s2 = m11 * m24 - m21 * m14
        let s3 = m12 * m23 - m22 * m13, s4 = m12 * m24 - m22 * m14, s5 = m13 * m24 - m23 * m14
        let c5 = m33 * m44 - m43 * m34, c4 = m32 * m44 - m42 * m34, c3 = m32 * m43 - m42 * m33
        let c2 = m31 * m44 - m41 * m34, c1 = m31 * m43 - m41 * m33, c0 = m31 * m42 - m41 * m32
        return s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0
    }

    /// The inverse, or nil when the transform is singular (CA then returns it unchanged).
    public var inverted: Transform3D? {
        let s0 = m11 * m22 - m21 * m12, s1 = m11 * m23 - m21 * m13, s2 = m11 * m24 - m21 * m14
        let s3 = m12 * m23 - m22 * m13, s4 = m12 * m24 - m22 * m14, s5 = m13 * m24 - m23 * m14
        let c5 = m33 * m44 - m43 * m34, c4 = m32 * m44 - m42 * m34, c3 = m32 * m43 - m42 * m33
        let c2 = m31 * m44 - m41 * m34, c1 = m31 * m43 - m41 * m33, c0 = m31 * m42 - m41 * m32
        let det = s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0
        guard det != 0, det.isFinite else { return nil }
        let k = 1 / det
        return Transform3D(
            m11: (m22 * c5 - m23 * c4 + m24 * c3) * k,
            m12: (-m12 * c5 + m13 * c4 - m14 * c3) * k,
            m13: (m42 * s5 - m43 * s4 + m44 * s3) * k,
            m14: (-m32 * s5 + m33 * s4 - m34 * s3) * k,
            m21: (-m21 * c5 + m23 * c2 - m24 * c1) * k,
            m22: (m11 * c5 - m13 * c2 + m14 * c1) * k,
            m23: (-m41 * s5 + m43 * s2 - m44 * s1) * k,
            m24: (m31 * s5 - m33 * s2 + m34 * s1) * k,
            m31: (m21 * c4 - m22 * c2 + m24 * c0) * k,
            m32: (-m11 * c4 + m12 * c2 - m14 * c0) * k,
            m33: (m41 * s4 - m42 * s2 + m44 * s0) * k,
            m34: (-m31 * s4 + m32 * s2 - m34 * s0) * k,
            m41: (-m21 * c3 + m22 * c1 - m23 * c0) * k,
            m42: (m11 * c3 - m12 * c1 + m13 * c0) * k,
            m43: (-m41 * s3 + m42 * s1 - m43 * s0) * k,
            m44: (m31 * s3 - m32 * s1 + m33 * s0) * k)
    }

    // MARK: Applying

    /// `(x, y, z, w) · self`, homogeneous.
    public func apply(_ v: Vector4) -> Vector4 {
        Vector4(v.x * m11 + v.y * m21 + v.z * m31 + v.w * m41,
                v.x * m12 + v.y * m22 + v.z * m32 + v.w * m42,
                v.x * m13 + v.y * m23 + v.z * m33 + v.w * m43,
                v.x * m14 + v.y * m24 + v.z * m34 + v.w * m44)
    }

    /// Where the plane point `p` (z = 0) lands on screen after the homogeneous divide;
    /// nil when it falls behind the viewer (w ≤ 0).
    public func project(_ p: Point) -> Point? {
        let v = apply(Vector4(p.x, p.y, 0, 1))
        guard v.w > 0 else { return nil }
        return Point(x: v.x / v.w, y: v.y / v.w)
    }

    /// The plane point (z = 0) that `project` sends to `screen`: the inverse mapping a
    /// renderer samples with. Nil when the screen point sees the plane edge-on or from behind.
    public func unproject(_ screen: Point) -> Point? {
        // Solve (x·m11 + y·m21 + m41) = X·(x·m14 + y·m24 + m44), likewise for Y: a 2×2 system.
        let a11 = m11 - screen.x * m14, a12 = m21 - screen.x * m24, b1 = screen.x * m44 - m41
        let a21 = m12 - screen.y * m14, a22 = m22 - screen.y * m24, b2 = screen.y * m44 - m42
        let det = a11 * a22 - a12 * a21
        guard abs(det) > 1e-12 else { return nil }
        let x = (b1 * a22 - a12 * b2) / det, y = (a11 * b2 - a21 * b1) / det
        let w = x * m14 + y * m24 + m44
        guard w > 0 else { return nil }
        return Point(x: x, y: y)
    }

    public var description: String {
        let r = rows.map { "\($0)" }
        return "[\(r[0..<4].joined(separator: " ")); \(r[4..<8].joined(separator: " ")); "
            + "\(r[8..<12].joined(separator: " ")); \(r[12..<16].joined(separator: " "))]"
    }
}

/// A homogeneous point or a plain 4-vector.
public struct Vector4: Hashable, Sendable {
    public var x, y, z, w: Double
    public init(_ x: Double, _ y: Double, _ z: Double, _ w: Double) {
        (self.x, self.y, self.z, self.w) = (x, y, z, w)
    }
}

/// A screen quadrilateral: a layer's bounds after projection, corners in the bounds' order
/// top-left, top-right, bottom-right, bottom-left.
public struct Quad: Hashable, Sendable {
    public var topLeft, topRight, bottomRight, bottomLeft: Point
    public init(topLeft: Point, topRight: Point, bottomRight: Point, bottomLeft: Point) {
        (self.topLeft, self.topRight, self.bottomRight, self.bottomLeft) = (topLeft, topRight, bottomRight, bottomLeft)
    }
    public var corners: [Point] { [topLeft, topRight, bottomRight, bottomLeft] }
    public var boundingBox: Rect {
        let minX = min(topLeft.x, topRight.x, bottomRight.x, bottomLeft.x)
        let minY = min(topLeft.y, topRight.y, bottomRight.y, bottomLeft.y)
        let maxX = max(topLeft.x, topRight.x, bottomRight.x, bottomLeft.x)
        let maxY = max(topLeft.y, topRight.y, bottomRight.y, bottomLeft.y)
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// Twice the signed area (shoelace): positive when the corners run clockwise on a y-down screen.
    public var signedArea: Double {
        func cross(_ a: Point, _ b: Point) -> Double { a.x * b.y - b.x * a.y }
        return cross(topLeft, topRight) + cross(topRight, bottomRight) + cross(bottomRight, bottomLeft) + cross(bottomLeft, topLeft)
    }
}

extension Transform3D {
    /// The projection of `rect` (in the plane z = 0) to the screen; nil if a corner is behind the viewer.
    public func project(_ rect: Rect) -> Quad? {
        guard let a = project(Point(x: rect.minX, y: rect.minY)), let b = project(Point(x: rect.maxX, y: rect.minY)),
              let c = project(Point(x: rect.maxX, y: rect.maxY)), let d = project(Point(x: rect.minX, y: rect.maxY))
        else { return nil }
        return Quad(topLeft: a, topRight: b, bottomRight: c, bottomLeft: d)
    }

    /// The plane's z axis after the linear part, normalised: the page normal for rotations and
    /// uniform scales (what the fold uses). Its z says whether the front faces the viewer (> 0).
    public var normal: (x: Double, y: Double, z: Double) {
        let x = m31, y = m32, z = m33
        let length = (x * x + y * y + z * z).squareRoot()
        return length > 0 ? (x / length, y / length, z / length) : (0, 0, 1)
    }
}
