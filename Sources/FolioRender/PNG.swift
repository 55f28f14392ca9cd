import CPNG

/// PNG files through libpng's simplified API (it catches libpng's longjmp errors itself).
public enum PNG {
    public struct Error: Swift.Error, CustomStringConvertible {
        public var description: String
    }

    /// Writes `bitmap` as an RGBA PNG (unpremultiplied, as PNG wants).
    public static func write(_ bitmap: Bitmap, to path: String) throws {
        throw Error(description: "PNG writing is not built yet")
    }

    /// Reads a PNG into a new premultiplied bitmap.
    public static func read(from path: String) throws -> Bitmap {
        throw Error(description: "PNG reading is not built yet")
    }
}
