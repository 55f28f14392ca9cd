import FolioPixels

/// A cover's soft shadow as a small alpha image: its outline filled, then blurred with three box
/// passes (close to a Gaussian of σ = `sigma` logical px), at one sprite pixel per `cell` logical
/// px. The shelf renderer scales it onto the frame through the cover's transform, bilinearly,
/// so the shadow costs a few thousand pixels to make, not a blur of the frame.
struct ShadowSprite {
    /// Logical pixels per sprite pixel.
    let cell: Double
    /// The sprite's top-left corner relative to the outline's, in logical pixels.
    let origin: Double
    let image: Bitmap

    /// The shadow of a rounded rectangle `width`×`height` (corner `radius`) blurred by `sigma`.
    init(width: Double, height: Double, radius: Double, sigma: Double) {
        cell = max(sigma / 5, 1)
        let margin = (3 * sigma / cell).rounded(.up)
        origin = -margin * cell
        let w = Int((width / cell).rounded()) + 2 * Int(margin), h = Int((height / cell).rounded()) + 2 * Int(margin)
        var alpha = [Double](repeating: 0, count: max(1, w * h))
        let r = radius / cell, x0 = margin, y0 = margin, x1 = Double(w) - margin, y1 = Double(h) - margin
        for y in 0..<h {
            for x in 0..<w {
                let px = Double(x) + 0.5, py = Double(y) + 0.5
                guard px >= x0, px <= x1, py >= y0, py <= y1 else { continue }
                let cx = min(max(px, x0 + r), x1 - r), cy = min(max(py, y0 + r), y1 - r)
                let d = ((px - cx) * (px - cx) + (py - cy) * (py - cy)).squareRoot()
                alpha[y * w + x] = d <= r ? 1 : 0
            }
        }
        // Three box passes each way of width ~ σ·√3 (in sprite pixels): a near-Gaussian blur.
        let box = max(1, Int((sigma / cell * 3.0.squareRoot()).rounded()))
        for _ in 0..<3 {
            Self.blur(&alpha, count: h, length: w, step: 1, lineStride: w, half: box / 2)
            Self.blur(&alpha, count: w, length: h, step: w, lineStride: 1, half: box / 2)
        }
        image = Bitmap(width: max(w, 1), height: max(h, 1))
        for y in 0..<h {
            let row = image.pixels.advanced(by: y * image.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<w {
                let a = UInt32((min(max(alpha[y * w + x], 0), 1) * 255).rounded())
                row[x] = a << 24
            }
        }
    }

    /// A moving average of `2 · half + 1` samples along each of `count` lines.
    private static func blur(_ values: inout [Double], count: Int, length: Int, step: Int, lineStride: Int, half: Int) {
        var line = [Double](repeating: 0, count: length)
        let n = Double(2 * half + 1)
        for l in 0..<count {
            let base = l * lineStride
            for i in 0..<length { line[i] = values[base + i * step] }
            var sum = 0.0
            for i in -half...half where i >= 0 && i < length { sum += line[i] }
            for i in 0..<length {
                values[base + i * step] = sum / n
                let out = i - half, into = i + half + 1
                if out >= 0 { sum -= line[out] }
                if into < length { sum += line[into] }
            }
        }
    }
}
