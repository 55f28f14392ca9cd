import CPageKernels
import FolioGeometry
import FolioPixels

/// Draws an image over another through a homography, bilinearly: pixman's projective path
/// fetches every pixel through its general code (tens of ns a pixel), and a shelf's first frame
/// maps some millions of them. A cover's turn about the vertical axis goes to a C kernel that
/// walks the target row by row; any other turn is drawn here, a divide per pixel. Premultiplied
/// colours, Porter–Duff OVER.
enum ProjectiveDraw {
    /// The map from image pixels (u, v, 1) to target pixels, homogeneous, row-major 3×3; nil when
    /// the image plane passes behind the viewer or is seen edge-on.
    struct Mapping {
        let forward: [Double]
        let inverse: [Double]
        /// The target pixels the image covers.
        let box: PixelRect

        init?(forward f: [Double], width: Int, height: Int, within bounds: PixelRect) {
            var corners: [Point] = []
            for (u, v) in [(0.0, 0.0), (Double(width), 0), (Double(width), Double(height)), (0, Double(height))] {
                let w = f[6] * u + f[7] * v + f[8]
                guard w > 1e-9 else { return nil }
                corners.append(Point(x: (f[0] * u + f[1] * v + f[2]) / w, y: (f[3] * u + f[4] * v + f[5]) / w))
            }
            let box = PixelRect(covering: Rect(bounding: corners), scale: 1).intersection(bounds)
            // The adjugate: the inverse up to a factor, which a homography ignores.
            let inverse = [
                f[4] * f[8] - f[5] * f[7], f[2] * f[7] - f[1] * f[8], f[1] * f[5] - f[2] * f[4],
                f[5] * f[6] - f[3] * f[8], f[0] * f[8] - f[2] * f[6], f[2] * f[3] - f[0] * f[5],
                f[3] * f[7] - f[4] * f[6], f[1] * f[6] - f[0] * f[7], f[0] * f[4] - f[1] * f[3],
            ]
            guard !box.isEmpty, inverse.allSatisfy(\.isFinite) else { return nil }
            forward = f
            self.inverse = inverse
            self.box = box
        }
    }

    /// A build of the C kernel for covers' turns; all give the same bytes.
    struct TurnKernel: @unchecked Sendable {
        let name: String
        let draw: folio_turned_image_fn
    }

    /// Every build of the turn kernel this CPU runs, fastest first.
    static let turnKernels: [TurnKernel] = [
        folio_turned_image_avx2().map { TurnKernel(name: "avx2", draw: $0) },
        TurnKernel(name: "portable", draw: folio_draw_turned_image_portable),
    ].compactMap { $0 }

    /// Draws `image` over `target` where `mapping` puts it: its colours scaled by `light`
    /// (0…256), or, with `solid` (premultiplied 0xAARRGGBB), that colour through the image's alpha;
    /// a turn about the vertical axis with `kernel`.
    static func draw(_ image: Bitmap, mapping m: Mapping, light: UInt32 = 256, solid: UInt32? = nil, into target: Bitmap,
                     kernel: TurnKernel = turnKernels[0]) {
        let src = image.pixels.assumingMemoryBound(to: UInt32.self), srcStride = image.stride / 4
        let dst = target.pixels.assumingMemoryBound(to: UInt32.self), dstStride = target.stride / 4
        let w = image.width, h = image.height
        let i = m.inverse
        if i[1] == 0 && i[7] == 0 {
            // A turn about the vertical axis (every cover's): each target column shows one image
            // column position, scaled vertically; a C kernel draws it, separably, row by row.
            let box: [Int32] = [Int32(m.box.x), Int32(m.box.y), Int32(m.box.width), Int32(m.box.height)]
            let count = Int(folio_turned_image_scratch(Int32(w), Int32(h)))
            let rows = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
            defer { rows.deallocate() }
            kernel.draw(src, Int32(srcStride), Int32(w), Int32(h), i, box, light, solid ?? 0, solid == nil ? 0 : 1, rows, dst,
                        Int32(dstStride))
            return
        }
        let (i0, i1, i2, i3, i4, i5, i6, i7, i8) = (i[0], i[1], i[2], i[3], i[4], i[5], i[6], i[7], i[8])
        let width = Double(w), height = Double(h)
        @inline(__always) func tap(_ x: Int, _ y: Int) -> UInt32 {
            x >= 0 && y >= 0 && x < w && y < h ? src[y * srcStride + x] : 0
        }
        @inline(__always) func put(_ p: UInt32, at pixel: UnsafeMutablePointer<UInt32>) {
            var s: UInt32
            if let solid {
                s = scale(solid, by: (p >> 24) + ((p >> 24) >> 7))
            } else {
                s = light >= 256 ? p : (p & 0xFF00_0000) | (scale(p, by: light) & 0x00FF_FFFF)
            }
            let a = s >> 24
            guard a != 0 else { return }
            if a != 255 { s = s &+ scale(pixel.pointee, by: 256 - (a + (a >> 7))) }
            pixel.pointee = s
        }
        for y in m.box.y..<(m.box.y + m.box.height) {
            let cy = Double(y) + 0.5
            let row = dst + y * dstStride
            let nu0 = i1 * cy + i2, nv0 = i4 * cy + i5, nw0 = i7 * cy + i8
            for x in m.box.x..<(m.box.x + m.box.width) {
                let cx = Double(x) + 0.5
                let nw = i6 * cx + nw0
                guard nw != 0 else { continue }
                // Image coordinates of the pixel centre, then the four pixel centres around it.
                let r = 1 / nw
                let u = (i0 * cx + nu0) * r - 0.5, v = (i3 * cx + nv0) * r - 0.5
                guard u > -1, v > -1, u < width, v < height else { continue }
                // Truncation floors here: both are above −1.
                let u0 = Int(u + 1) - 1, v0 = Int(v + 1) - 1
                let fx = UInt32((u - Double(u0)) * 256), fy = UInt32((v - Double(v0)) * 256)
                put(bilinear(tap(u0, v0), tap(u0 + 1, v0), tap(u0, v0 + 1), tap(u0 + 1, v0 + 1), fx, fy), at: row + x)
            }
        }
    }

    /// Each channel of `p` times k / 256 (k in 0…256).
    @inline(__always)
    static func scale(_ p: UInt32, by k: UInt32) -> UInt32 {
        let mask: UInt32 = 0x00FF_00FF
        let rb: UInt32 = (((p & mask) &* k) >> 8) & mask
        let ag: UInt32 = (((p >> 8) & mask) &* k) & 0xFF00_FF00
        return rb | ag
    }

    /// Four premultiplied pixels blended by weights fx, fy (0…255) toward the second of each pair.
    @inline(__always)
    static func bilinear(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ fx: UInt32, _ fy: UInt32) -> UInt32 {
        // In typed steps: Swift 6.2's type checker gives up on each line as one expression.
        @inline(__always) func mix(_ p: UInt32, _ q: UInt32, _ f: UInt32) -> UInt32 {
            let g: UInt32 = 256 - f
            let mask: UInt32 = 0x00FF_00FF
            let prb: UInt32 = (p & mask) &* g, qrb: UInt32 = (q & mask) &* f
            let pag: UInt32 = ((p >> 8) & mask) &* g, qag: UInt32 = ((q >> 8) & mask) &* f
            let rb: UInt32 = ((prb &+ qrb) >> 8) & mask
            let ag: UInt32 = (pag &+ qag) & 0xFF00_FF00
            return rb | ag
        }
        return mix(mix(a, b, fx), mix(c, d, fx), fy)
    }
}
