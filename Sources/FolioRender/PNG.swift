import CPNG
import FolioFiles
import FolioPixels
import Foundation

/// PNG files through libpng's simplified API (it catches libpng's longjmp errors itself).
/// Bitmaps are premultiplied; PNG is not: writing unpremultiplies, reading premultiplies.
public enum PNG {
    public struct Error: Swift.Error, CustomStringConvertible {
        public var description: String
    }

    /// Writes `bitmap` as an RGBA PNG (unpremultiplied, as PNG wants), encoded in memory and put
    /// in place by `AtomicFile`: a failure leaves whatever was at `path` as it was, and a link or
    /// anything but a regular file there is refused. `steps` is where tests make the disk fail.
    public static func write(_ bitmap: Bitmap, to path: String, steps: some WriteSteps = SystemWriteSteps()) throws {
        try AtomicFile.replace(path, with: encode(bitmap), mode: nil, steps: steps)
    }

    /// `bitmap` as the bytes of an RGBA PNG file, for writers that put the file in place themselves.
    public static func encode(_ bitmap: Bitmap) throws -> Data {
        let (header, bytes, stride) = straightRows(of: bitmap)
        var image = header
        defer { png_image_free(&image) }
        var size = 0
        // A first call with no buffer measures; the second writes.
        guard bytes.withUnsafeBytes({ png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, Int32(stride), nil) }) != 0 else {
            throw Error(description: "cannot encode PNG: \(message(of: image))")
        }
        var data = Data(count: size)
        let written = data.withUnsafeMutableBytes { out in
            bytes.withUnsafeBytes { png_image_write_to_memory(&image, out.baseAddress, &size, 0, $0.baseAddress, Int32(stride), nil) }
        }
        guard written != 0 else { throw Error(description: "cannot encode PNG: \(message(of: image))") }
        return data.prefix(size)
    }

    /// The image header and the bitmap's rows as straight-alpha BGRA bytes, with their stride.
    private static func straightRows(of bitmap: Bitmap) -> (png_image, [UInt8], Int) {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(bitmap.width)
        image.height = UInt32(bitmap.height)
        image.format = UInt32(PNG_FORMAT_BGRA)
        let stride = bitmap.width * 4
        var bytes = [UInt8](repeating: 0, count: stride * bitmap.height)
        bytes.withUnsafeMutableBufferPointer { out in
            for y in 0..<bitmap.height {
                let row = (bitmap.pixels + y * bitmap.stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<bitmap.width {
                    let pixel = row[x], o = y * stride + x * 4
                    let alpha = pixel >> 24
                    out[o] = unpremultiply(pixel & 0xFF, alpha)
                    out[o + 1] = unpremultiply((pixel >> 8) & 0xFF, alpha)
                    out[o + 2] = unpremultiply((pixel >> 16) & 0xFF, alpha)
                    out[o + 3] = UInt8(alpha)
                }
            }
        }
        return (image, bytes, stride)
    }

    /// Reads a PNG into a new premultiplied bitmap.
    public static func read(from path: String) throws -> Bitmap {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        guard png_image_begin_read_from_file(&image, path) != 0 else {
            throw Error(description: "cannot read PNG \(path): \(message(of: image))")
        }
        guard (1...16384).contains(image.width), (1...16384).contains(image.height) else {
            throw Error(description: "cannot read PNG \(path): \(image.width)x\(image.height) is not a size Folio opens")
        }
        image.format = UInt32(PNG_FORMAT_BGRA)
        let bitmap = Bitmap(width: Int(image.width), height: Int(image.height))
        guard png_image_finish_read(&image, nil, bitmap.pixels, Int32(bitmap.stride), nil) != 0 else {
            throw Error(description: "cannot read PNG \(path): \(message(of: image))")
        }
        // The rows now hold B, G, R, A bytes, straight alpha: make native premultiplied pixels.
        for y in 0..<bitmap.height {
            let row = bitmap.pixels + y * bitmap.stride
            let bytes = row.assumingMemoryBound(to: UInt8.self), words = row.assumingMemoryBound(to: UInt32.self)
            for x in 0..<bitmap.width {
                let alpha = UInt32(bytes[4 * x + 3])
                let blue = premultiply(bytes[4 * x], alpha), green = premultiply(bytes[4 * x + 1], alpha)
                let red = premultiply(bytes[4 * x + 2], alpha)
                words[x] = alpha << 24 | red << 16 | green << 8 | blue
            }
        }
        return bitmap
    }

    private static func unpremultiply(_ channel: UInt32, _ alpha: UInt32) -> UInt8 {
        if alpha == 255 { return UInt8(channel) }
        if alpha == 0 { return 0 }
        return UInt8(min(255, (channel * 255 + alpha / 2) / alpha))
    }

    private static func premultiply(_ channel: UInt8, _ alpha: UInt32) -> UInt32 {
        (UInt32(channel) * alpha + 127) / 255
    }

    /// libpng's own words for what went wrong (a NUL-terminated char[64] in the image).
    private static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            let text = raw.prefix { $0 != 0 }
            return text.isEmpty ? "libpng gave no reason" : String(decoding: text, as: UTF8.self)
        }
    }
}
