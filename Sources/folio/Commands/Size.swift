import ArgumentParser
import FolioGeometry

/// A `WxH` size argument.
struct PixelSize: ExpressibleByArgument, CustomStringConvertible {
    var width: Int
    var height: Int
    /// What a frame can be: see `SurfaceLimits`.
    static let sides = SurfaceLimits.minimumSide...SurfaceLimits.maximumBufferSide

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              Self.sides.contains(w), Self.sides.contains(h) else { return nil }
        width = w
        height = h
    }

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    var description: String { "\(width)x\(height)" }
    static var defaultValueDescription: String { "WxH" }
}
