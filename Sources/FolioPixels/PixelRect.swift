import FolioGeometry

/// An integer rectangle in buffer pixels: what blits speak, and what damage regions are made of.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// No pixels: what a frame with no change damages.
    public static let empty = PixelRect(x: 0, y: 0, width: 0, height: 0)

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var area: Int { isEmpty ? 0 : width * height }

    /// The farthest a pixel edge may lie from the origin: far beyond any buffer, yet small
    /// enough that widths and areas never overflow an Int.
    public static let farthest = 1 << 30

    /// The pixels a logical rectangle touches at `scale` buffer pixels per logical pixel. Edges are
    /// clamped to ±`farthest` in floating point first, so a huge or non-finite coordinate (from a
    /// compositor, a trace or a pinch) never traps converting to Int; a NaN edge touches nothing.
    public init(covering rect: Rect, scale: Double) {
        guard !rect.isEmpty,
              let x0 = Self.edge((rect.minX * scale).rounded(.down)), let y0 = Self.edge((rect.minY * scale).rounded(.down)),
              let x1 = Self.edge((rect.maxX * scale).rounded(.up)), let y1 = Self.edge((rect.maxY * scale).rounded(.up))
        else {
            self.init(x: 0, y: 0, width: 0, height: 0)
            return
        }
        self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    private static func edge(_ value: Double) -> Int? {
        guard !value.isNaN else { return nil }
        return Int(min(max(value, -Double(farthest)), Double(farthest)))
    }

    public func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(x, other.x), y0 = min(y, other.y)
        return PixelRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    public func intersection(_ other: PixelRect) -> PixelRect {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        return x1 > x0 && y1 > y0 ? PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
                                  : .empty
    }

    public func contains(_ other: PixelRect) -> Bool {
        other.isEmpty || (other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY)
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
