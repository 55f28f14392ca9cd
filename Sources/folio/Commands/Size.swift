import ArgumentParser
import FolioGeometry

/// A `WxH` size argument, read with `PixelSize.parse` so that a bad one says what is wrong.
struct PixelSize: CustomStringConvertible {
    var width: Int
    var height: Int
    /// What a frame can be: see `SurfaceLimits`.
    static let sides = SurfaceLimits.minimumSide...SurfaceLimits.maximumBufferSide

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `WxH` (or `WXH`), each side an integer within `sides`; otherwise an error naming the
    /// accepted form and range. Options take it with `.unconditional` parsing, so `-5x10` is
    /// read as a size (and refused as one) rather than as an unknown option.
    static func parse(_ argument: String) throws -> PixelSize {
        let range = "each side is an integer from \(sides.lowerBound) to \(sides.upperBound)"
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else {
            throw SizeError(description: "a size is WxH, such as 1280x800 (\(range))")
        }
        for (name, side) in [("width", width), ("height", height)] where !sides.contains(side) {
            throw SizeError(description: "the \(name) \(side) is out of range (\(range))")
        }
        return PixelSize(width: width, height: height)
    }

    var description: String { "\(width)x\(height)" }
}

/// What is wrong with a `--size`.
struct SizeError: Error, CustomStringConvertible {
    var description: String
}
