import CPixman
import FolioPixels

/// The back of a turning leaf: the later sheet's paper with the earlier sheet's drawing showing
/// through — mirrored (it is seen from behind), blurred and faded. The drawing is taken once per
/// turn; the picture is composed again only when the strength changes, into one of two bitmaps in
/// turn, so a renderer sees new contents.
public final class SeeThrough {
    /// How strongly the drawing shows through at most.
    public static let maximumStrength = 0.35
    /// Strengths are composed in this many steps: a turn re-composes a handful of times, not
    /// every frame.
    public static let steps = 6

    public let width: Int
    public let height: Int
    /// The earlier drawing mirrored and blurred, full size.
    private let ghost: Bitmap
    /// One pixel per `cell`×`cell` block of the mirrored drawing: the blur comes from scaling it back up.
    private let small: Bitmap
    private let cell: Int
    private var pictures: [Bitmap]
    private var current = 0
    /// The step the current picture was composed at, and from which later sheet.
    private var composed: (step: Int, later: ObjectIdentifier)?

    public init(width: Int, height: Int, scale: Double) {
        self.width = width
        self.height = height
        cell = max(2, Int((4 * scale).rounded()))
        ghost = Bitmap(width: width, height: height)
        small = Bitmap(width: (width + cell - 1) / cell, height: (height + cell - 1) / cell)
        pictures = [Bitmap(width: width, height: height), Bitmap(width: width, height: height)]
    }

    /// Takes the drawing that will show through: `earlier`, mirrored left to right and blurred.
    public func take(_ earlier: Bitmap) {
        precondition(earlier.width == width && earlier.height == height, "see-through source of another size")
        // Block averages, mirrored: small column i holds the mean of the source columns that
        // mirror onto ghost columns i·cell ..< (i + 1)·cell.
        let source = earlier.pixels, stride = earlier.stride
        for sy in 0..<small.height {
            let row = small.pixels.advanced(by: sy * small.stride).assumingMemoryBound(to: UInt32.self)
            let y0 = sy * cell, y1 = min(height, y0 + cell)
            for sx in 0..<small.width {
                let x0 = sx * cell, x1 = min(width, x0 + cell)
                var sum = (UInt32(0), UInt32(0), UInt32(0))
                for y in y0..<y1 {
                    let line = source.advanced(by: y * stride).assumingMemoryBound(to: UInt32.self)
                    for x in x0..<x1 {
                        let p = line[width - 1 - x]
                        sum.0 += (p >> 16) & 0xFF
                        sum.1 += (p >> 8) & 0xFF
                        sum.2 += p & 0xFF
                    }
                }
                let n = UInt32((y1 - y0) * (x1 - x0))
                row[sx] = 0xFF00_0000 | (sum.0 / n) << 16 | (sum.1 / n) << 8 | sum.2 / n
            }
        }
        // Scaled back up with bilinear filtering: a soft, blurred drawing.
        var transform = pixman_transform()
        let k = pixman_fixed_t(65536 / cell)
        pixman_transform_init_scale(&transform, k, k)
        pixman_image_set_transform(small.image, &transform)
        pixman_image_set_filter(small.image, PIXMAN_FILTER_BILINEAR, nil, 0)
        pixman_image_set_repeat(small.image, PIXMAN_REPEAT_PAD)
        pixman_image_composite32(PIXMAN_OP_SRC, small.image, nil, ghost.image, 0, 0, 0, 0, 0, 0, Int32(width), Int32(height))
        composed = nil
    }

    /// The later sheet's picture with the drawing showing through at `strength` (0…1 of the
    /// maximum), rounded to a step; the same bitmap while the step and the sheet stay the same.
    public func picture(over later: Bitmap, strength: Double) -> Bitmap {
        precondition(later.width == width && later.height == height, "see-through paper of another size")
        let step = Int((min(max(strength, 0), 1) * Double(Self.steps)).rounded())
        if let composed, composed.step == step, composed.later == ObjectIdentifier(later) { return pictures[current] }
        current ^= 1
        let out = pictures[current]
        out.copy(out.bounds, from: later)
        let s = UInt32((Double(step) / Double(Self.steps) * Self.maximumStrength * 256).rounded())
        if s > 0 {
            // Ink shows through paper as a multiply: out = later × (1 − s·(1 − ghost)), per channel;
            // only over the left half, all a leaf's back shows of the later sheet.
            let shown = min(width, width / 2 + 1)
            for y in 0..<height {
                let o = out.pixels.advanced(by: y * out.stride).assumingMemoryBound(to: UInt32.self)
                let g = ghost.pixels.advanced(by: y * ghost.stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<shown {
                    let p = o[x], q = g[x]
                    var result = p & 0xFF00_0000
                    for shift: UInt32 in [0, 8, 16] {
                        let c = (p >> shift) & 0xFF, d = 255 - (q >> shift) & 0xFF
                        let keep = 65280 - s * d  // (1 − s·d/255)·65280, in 0…65280
                        result |= ((c * keep + 32640) / 65280) << shift
                    }
                    o[x] = result
                }
            }
        }
        composed = (step, ObjectIdentifier(later))
        return out
    }
}
