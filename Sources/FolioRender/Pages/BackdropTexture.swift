import FolioPixels

/// The curtain behind the pages: a dark woven texture, like iOS's old linen, made
/// procedurally once per renderer as a tile of whole columns, repeated across the frame (small
/// enough to stay in cache while frames read it). Deterministic: the same pixels on every run.
enum BackdropTexture {
    /// Threads per tile across: the tile's width is this many threads.
    static let threadsPerTile = 32

    /// The tile's width in buffer pixels at `scale`.
    static func period(scale: Double) -> Int { threadsPerTile * threadWidth(scale: scale) }

    private static func threadWidth(scale: Double) -> Int { max(1, Int((2 * scale).rounded())) }

    /// Fills `bitmap` (one tile wide) with the texture; `scale` keeps the weave's size in logical pixels.
    static func paint(_ bitmap: Bitmap, scale: Double) {
        let thread = threadWidth(scale: scale)
        let stride = bitmap.stride
        for y in 0..<bitmap.height {
            let row = bitmap.pixels.advanced(by: y * stride).assumingMemoryBound(to: UInt32.self)
            let ty = y / thread
            let rowShade = noise(ty, 0x51ED) % 13
            for x in 0..<bitmap.width {
                let tx = x / thread
                // Over-under weave: alternate cells show the horizontal or the vertical thread.
                let horizontal = (tx + ty) & 1 == 0
                let threadShade = horizontal ? rowShade : noise(tx, 0xC0FE) % 13
                let grain = noise(x &* 7919 &+ y, 0xBEEF) % 7
                let v = 38 + threadShade + grain - (horizontal ? 0 : 3)
                let r = UInt32(v), g = UInt32(v + 3), b = UInt32(v + 9)
                row[x] = 0xFF00_0000 | r << 16 | g << 8 | b
            }
        }
    }

    /// A small integer hash (no global random state).
    private static func noise(_ n: Int, _ seed: Int) -> Int {
        var h = UInt32(truncatingIfNeeded: n &* 0x2545_F491 ^ seed)
        h ^= h >> 15
        h = h &* 0x2C1B_3C6D
        h ^= h >> 12
        h = h &* 0x297A_2D39
        h ^= h >> 15
        return Int(h & 0x7FFF_FFFF)
    }
}
