#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A transform split into the parts Core Animation (and CSS's "unmatrix") interpolate one by one:
/// `M = scale·skew·rotation · translation · perspective`, in row-vector order.
/// Interpolating the parts keeps a rotating page rigid, where an element-wise lerp shrinks it.
public struct DecomposedTransform: Hashable, Sendable {
    public var translation: (x: Double, y: Double, z: Double)
    public var scale: (x: Double, y: Double, z: Double)
    /// Shears xy, xz, yz.
    public var skew: (xy: Double, xz: Double, yz: Double)
    /// A unit quaternion (x, y, z, w).
    public var rotation: (x: Double, y: Double, z: Double, w: Double)
    /// The last column (m14, m24, m34, m44) before the linear part was factored out.
    public var perspective: (x: Double, y: Double, z: Double, w: Double)

    public static func == (a: Self, b: Self) -> Bool {
        a.translation == b.translation && a.scale == b.scale && a.skew == b.skew
            && a.rotation == b.rotation && a.perspective == b.perspective
    }

    public func hash(into hasher: inout Hasher) {
        for v in [translation.x, translation.y, translation.z, scale.x, scale.y, scale.z, skew.xy, skew.xz, skew.yz,
                  rotation.x, rotation.y, rotation.z, rotation.w, perspective.x, perspective.y, perspective.z, perspective.w] {
            hasher.combine(v)
        }
    }

    /// Splits `m`; nil when it cannot be (m44 = 0 or a singular linear part), as CSS specifies.
    public init?(_ m: Transform3D) {
        guard m.m44 != 0 else { return nil }
        var v = m.rows.map { $0 / m.m44 }
        // The matrix without its perspective column: linear part plus translation.
        var affine = v
        affine[3] = 0; affine[7] = 0; affine[11] = 0; affine[15] = 1
        let affineTransform = Transform3D(rows: affine)
        guard let inverse = affineTransform.inverted else { return nil }
        if v[3] != 0 || v[7] != 0 || v[11] != 0 {
            // Solve affine · p = (m14, m24, m34, m44) for the perspective column p.
            let rhs = [v[3], v[7], v[11], v[15]]
            let inv = inverse.rows
            func row(_ i: Int) -> Double { (0..<4).reduce(0) { $0 + inv[i * 4 + $1] * rhs[$1] } }
            perspective = (row(0), row(1), row(2), row(3))
        } else {
            perspective = (0, 0, 0, 1)
        }
        translation = (v[12], v[13], v[14])
        v = affine

        var a0 = Vec3(v[0], v[1], v[2]), a1 = Vec3(v[4], v[5], v[6]), a2 = Vec3(v[8], v[9], v[10])
        var sx = a0.length
        a0 = a0 / sx
        var xy = a0.dot(a1)
        a1 = a1 - a0 * xy
        var sy = a1.length
        a1 = a1 / sy
        xy /= sy
        var xz = a0.dot(a2)
        a2 = a2 - a0 * xz
        var yz = a1.dot(a2)
        a2 = a2 - a1 * yz
        var sz = a2.length
        a2 = a2 / sz
        xz /= sz
        yz /= sz
        if a0.dot(a1.cross(a2)) < 0 {  // a mirror: carry it in the scale
            sx = -sx; sy = -sy; sz = -sz
            a0 = a0 * -1; a1 = a1 * -1; a2 = a2 * -1
        }
        scale = (sx, sy, sz)
        skew = (xy, xz, yz)

        // Quaternion from the rotation rows (Shepperd's choice of the largest term keeps it exact
        // near zero components); the inverse of what `recomposed` builds.
        let trace = a0.x + a1.y + a2.z
        if trace > 0 {
            let w = 0.5 * (1 + trace).squareRoot(), k = 0.25 / w
            rotation = ((a1.z - a2.y) * k, (a2.x - a0.z) * k, (a0.y - a1.x) * k, w)
        } else if a0.x >= a1.y && a0.x >= a2.z {
            let x = 0.5 * max(1 + a0.x - a1.y - a2.z, 0).squareRoot(), k = 0.25 / x
            rotation = (x, (a0.y + a1.x) * k, (a0.z + a2.x) * k, (a1.z - a2.y) * k)
        } else if a1.y >= a2.z {
            let y = 0.5 * max(1 - a0.x + a1.y - a2.z, 0).squareRoot(), k = 0.25 / y
            rotation = ((a0.y + a1.x) * k, y, (a1.z + a2.y) * k, (a2.x - a0.z) * k)
        } else {
            let z = 0.5 * max(1 - a0.x - a1.y + a2.z, 0).squareRoot(), k = 0.25 / z
            rotation = ((a0.z + a2.x) * k, (a1.z + a2.y) * k, z, (a0.y - a1.x) * k)
        }
    }

    public init(translation: (x: Double, y: Double, z: Double), scale: (x: Double, y: Double, z: Double),
                skew: (xy: Double, xz: Double, yz: Double), rotation: (x: Double, y: Double, z: Double, w: Double),
                perspective: (x: Double, y: Double, z: Double, w: Double)) {
        self.translation = translation
        self.scale = scale
        self.skew = skew
        self.rotation = rotation
        self.perspective = perspective
    }

    /// The transform these parts make.
    public var recomposed: Transform3D {
        let (x, y, z, w) = rotation
        let r0 = Vec3(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w))
        let r1 = Vec3(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w))
        let r2 = Vec3(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y))
        let a0 = r0 * scale.x
        let a1 = (r1 + r0 * skew.xy) * scale.y
        let a2 = (r2 + r1 * skew.yz + r0 * skew.xz) * scale.z
        let t = Vec3(translation.x, translation.y, translation.z)
        let p = Vec3(perspective.x, perspective.y, perspective.z)
        return Transform3D(
            m11: a0.x, m12: a0.y, m13: a0.z, m14: a0.dot(p),
            m21: a1.x, m22: a1.y, m23: a1.z, m24: a1.dot(p),
            m31: a2.x, m32: a2.y, m33: a2.z, m34: a2.dot(p),
            m41: t.x, m42: t.y, m43: t.z, m44: t.dot(p) + perspective.w)
    }

    /// Part by part from `self` (t = 0) to `other` (t = 1); the rotation by spherical interpolation.
    public func interpolated(to other: DecomposedTransform, _ t: Double) -> DecomposedTransform {
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * t }
        var q = other.rotation
        var dot = rotation.x * q.x + rotation.y * q.y + rotation.z * q.z + rotation.w * q.w
        if dot < 0 {  // the shorter way round
            q = (-q.x, -q.y, -q.z, -q.w)
            dot = -dot
        }
        let wa: Double, wb: Double
        if dot > 0.9995 {
            (wa, wb) = (1 - t, t)
        } else {
            let theta = acos(min(dot, 1)), sinTheta = sin(theta)
            (wa, wb) = (sin((1 - t) * theta) / sinTheta, sin(t * theta) / sinTheta)
        }
        var r = (x: rotation.x * wa + q.x * wb, y: rotation.y * wa + q.y * wb,
                 z: rotation.z * wa + q.z * wb, w: rotation.w * wa + q.w * wb)
        let length = (r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w).squareRoot()
        if length > 0 { r = (r.x / length, r.y / length, r.z / length, r.w / length) }
        return DecomposedTransform(
            translation: (mix(translation.x, other.translation.x), mix(translation.y, other.translation.y),
                          mix(translation.z, other.translation.z)),
            scale: (mix(scale.x, other.scale.x), mix(scale.y, other.scale.y), mix(scale.z, other.scale.z)),
            skew: (mix(skew.xy, other.skew.xy), mix(skew.xz, other.skew.xz), mix(skew.yz, other.skew.yz)),
            rotation: r,
            perspective: (mix(perspective.x, other.perspective.x), mix(perspective.y, other.perspective.y),
                          mix(perspective.z, other.perspective.z), mix(perspective.w, other.perspective.w)))
    }
}

extension Transform3D {
    /// Core Animation's in-between of two transforms at `t` ∈ [0, 1]: decomposed, interpolated part
    /// by part, recomposed. Falls back to a step at t = 0.5 when either side cannot be decomposed.
    public func interpolated(to other: Transform3D, _ t: Double) -> Transform3D {
        guard let a = DecomposedTransform(self), let b = DecomposedTransform(other) else {
            return t < 0.5 ? self : other
        }
        return a.interpolated(to: b, t).recomposed
    }
}

/// A small 3-vector for the decomposition.
struct Vec3 {
    var x, y, z: Double
    init(_ x: Double, _ y: Double, _ z: Double) { (self.x, self.y, self.z) = (x, y, z) }
    var length: Double { (x * x + y * y + z * z).squareRoot() }
    func dot(_ o: Vec3) -> Double { x * o.x + y * o.y + z * o.z }
    func cross(_ o: Vec3) -> Vec3 { Vec3(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x) }
    static func + (a: Vec3, b: Vec3) -> Vec3 { Vec3(a.x + b.x, a.y + b.y, a.z + b.z) }
    static func - (a: Vec3, b: Vec3) -> Vec3 { Vec3(a.x - b.x, a.y - b.y, a.z - b.z) }
    static func * (a: Vec3, k: Double) -> Vec3 { Vec3(a.x * k, a.y * k, a.z * k) }
    static func / (a: Vec3, k: Double) -> Vec3 { Vec3(a.x / k, a.y / k, a.z / k) }
}
