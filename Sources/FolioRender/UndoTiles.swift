import FolioPixels

/// What a canvas looked like under its newest strokes before each was drawn, newest last, so
/// that undo puts the pixels back instead of redrawing every stroke: tile *i* belongs to the
/// stroke `count − tiles.count + i`. Kept within a memory budget; older tiles are dropped first.
public struct UndoTiles: Sendable {
    public struct Tile: Sendable, Equatable {
        public var area: PixelRect
        /// The area's pixels, row by row.
        public var pixels: [UInt32]

        public init(area: PixelRect, pixels: [UInt32]) {
            self.area = area
            self.pixels = pixels
        }
    }

    public private(set) var tiles: [Tile] = []
    private var bytes = 0
    /// At most this many bytes of tiles (at 1920×1200 and ink 6 px wide, a few hundred strokes).
    public static let budget = 64 << 20
    /// And at most this many tiles.
    public static let limit = 512

    public init() {}

    public init(_ tiles: [Tile]) {
        for tile in tiles { append(tile) }
    }

    /// Keeps the pixels of `bitmap` in `area`, as they are before a stroke is drawn there.
    public mutating func capture(_ area: PixelRect, of bitmap: Bitmap) {
        // A stroke wholly off the canvas gets an empty tile: its undo changes no pixel.
        let clipped = area.intersection(bitmap.bounds)
        let area = clipped.isEmpty ? PixelRect.empty : clipped
        var pixels = [UInt32](repeating: 0, count: area.area)
        pixels.withUnsafeMutableBytes { out in
            guard let base = out.baseAddress else { return }
            for row in 0..<area.height {
                let source = bitmap.pixels + (area.y + row) * bitmap.stride + area.x * 4
                (base + row * area.width * 4).copyMemory(from: source, byteCount: area.width * 4)
            }
        }
        append(Tile(area: area, pixels: pixels))
    }

    private mutating func append(_ tile: Tile) {
        tiles.append(tile)
        bytes += tile.pixels.count * 4
        var dropped = 0
        while tiles.count - dropped > Self.limit || (bytes > Self.budget && tiles.count - dropped > 1) {
            bytes -= tiles[dropped].pixels.count * 4
            dropped += 1
        }
        if dropped > 0 { tiles.removeFirst(dropped) }
    }

    /// Takes the newest tile, to put back with `restore`.
    public mutating func takeNewest() -> Tile? {
        guard let tile = tiles.popLast() else { return nil }
        bytes -= tile.pixels.count * 4
        return tile
    }

    public mutating func removeAll() {
        tiles.removeAll()
        bytes = 0
    }

    /// Writes `tile`'s pixels back into `bitmap`.
    public static func restore(_ tile: Tile, into bitmap: Bitmap) {
        let area = tile.area
        guard !area.isEmpty, bitmap.bounds.contains(area), tile.pixels.count == area.area else { return }
        tile.pixels.withUnsafeBytes { source in
            guard let base = source.baseAddress else { return }
            for row in 0..<area.height {
                (bitmap.pixels + (area.y + row) * bitmap.stride + area.x * 4)
                    .copyMemory(from: base + row * area.width * 4, byteCount: area.width * 4)
            }
        }
    }
}
