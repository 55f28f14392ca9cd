import FolioGeometry

/// The look of ink. The spec fixes one ink (6 px, blue); it is data so that files can say so.
public struct InkStyle: Hashable, Sendable, Codable {
    /// Width in logical pixels.
    public var width: Double
    /// 0xRRGGBB.
    public var color: UInt32

    public init(width: Double = 6.0, color: UInt32 = 0x0000FF) {
        self.width = width
        self.color = color
    }

    public static let standard = InkStyle()
}

/// A stroke as data: the input points the finger gave, in logical pixels. The smoothed path
/// is derived from them, so the bitmap is always a cache that can be rebuilt.
public struct Stroke: Hashable, Sendable, Codable {
    public var points: [Point]
    public var style: InkStyle

    public init(points: [Point], style: InkStyle = .standard) {
        self.points = points
        self.style = style
    }

    /// The smoothed path, including the tail after the last whole segment.
    public var path: [PathElement] {
        guard let first = points.first else { return [] }
        var smoother = InkSmoother(start: first)
        for p in points.dropFirst() { smoother.add(p) }
        return smoother.fullPath
    }

    /// Bounds of everything this stroke may paint, in logical pixels (hull of the path,
    /// grown by half the ink width and a pixel of antialiasing).
    public var bounds: Rect {
        let margin = style.width / 2 + 1
        return path.reduce(Rect.null) { $0.union($1.controlBounds) }.insetBy(dx: -margin, dy: -margin)
    }
}

extension Point: Codable {
    public init(from decoder: Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init(x: try container.decode(Double.self), y: try container.decode(Double.self))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(x)
        try container.encode(y)
    }
}
