import ArgumentParser
import FolioGeometry

/// A `--scale` argument: buffer pixels per logical pixel, 1–8, such as 2, 1.5 or 1.25. It is
/// taken at the nearest 1/120, the unit of wp_fractional_scale_v1, so a headless frame is sized
/// exactly as the live app's buffer would be.
struct ScaleArgument: ExpressibleByArgument, CustomStringConvertible {
    var scale: BufferScale

    init?(argument: String) {
        guard let value = Double(argument), let scale = BufferScale(nearest: value) else { return nil }
        self.scale = scale
    }

    init(_ scale: BufferScale) {
        self.scale = scale
    }

    /// An error for a scale beyond `SurfaceLimits`, or for `size` at it needing larger buffers.
    func validate(with size: PixelSize) throws {
        guard SurfaceLimits.scales.contains(scale) else {
            throw ValidationError("--scale must be a number from 1 to 8 (it is taken in steps of 1/120)")
        }
        guard scale.pixels(max(size.width, size.height)) <= SurfaceLimits.maximumBufferSide else {
            throw ValidationError("--size \(size) at --scale \(scale) needs buffers over \(SurfaceLimits.maximumBufferSide) px a side")
        }
    }

    var description: String { scale.description }
    static var defaultValueDescription: String { "N" }
}
