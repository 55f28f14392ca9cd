import FolioPixels

/// A halo under the ink of an otherwise clear image: every pixel within `radius` (a disc) of ink
/// takes `color`, as strong as the strongest ink coverage in reach, under the ink. A dilation of
/// the image's coverage, costing its pixels times the radius: far cheaper than drawing each
/// stroke again wider when hundreds are selected.
enum Halo {
    static func add(under bitmap: Bitmap, radius: Int, color: UInt32) {
        let width = bitmap.width, height = bitmap.height, plane = width * height
        guard radius > 0 else { return }
        func row(_ y: Int) -> UnsafeMutablePointer<UInt32> {
            (bitmap.pixels + y * bitmap.stride).assumingMemoryBound(to: UInt32.self)
        }
        // Plane k: the coverage spread sideways by k pixels, for k = 0 … radius.
        var spread = [UInt8](repeating: 0, count: plane * (radius + 1))
        // Row dy of the disc reaches sideways as far as the circle does there.
        let reach = (-radius...radius).map { dy in Int(Double(radius * radius - dy * dy).squareRoot().rounded(.down)) }
        let r = (color >> 16) & 0xFF, g = (color >> 8) & 0xFF, b = color & 0xFF
        spread.withUnsafeMutableBufferPointer { spread in
            for y in 0..<height {
                let pixels = row(y)
                for x in 0..<width { spread[y * width + x] = UInt8(truncatingIfNeeded: pixels[x] >> 24) }
            }
            for k in 1...radius {
                let previous = (k - 1) * plane, next = k * plane
                for y in 0..<height {
                    let base = y * width
                    for x in 0..<width {
                        var m = spread[previous + base + x]
                        if x > 0 { m = max(m, spread[previous + base + x - 1]) }
                        if x + 1 < width { m = max(m, spread[previous + base + x + 1]) }
                        spread[next + base + x] = m
                    }
                }
            }
            for y in 0..<height {
                let pixels = row(y)
                let rows = (max(-radius, -y)...min(radius, height - 1 - y)).map { dy in reach[dy + radius] * plane + (y + dy) * width }
                for x in 0..<width {
                    var halo: UInt8 = 0
                    for start in rows { halo = max(halo, spread[start + x]) }
                    let ink = pixels[x], inkAlpha = ink >> 24
                    guard halo > 0, inkAlpha < 255 else { continue }
                    // The halo (premultiplied by its strength) under the ink: ink + halo × (1 − ink alpha).
                    let under = UInt32(halo) * (255 - inkAlpha)
                    func channel(_ c: UInt32, _ shift: UInt32) -> UInt32 { ((ink >> shift) & 0xFF) + (c * under + 32512) / 65025 }
                    pixels[x] = (channel(255, 24) << 24) | (channel(r, 16) << 16) | (channel(g, 8) << 8) | channel(b, 0)
                }
            }
        }
    }
}
