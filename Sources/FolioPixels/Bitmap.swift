import CPixman
#if canImport(Glibc)
import Glibc
#endif

/// A premultiplied a8r8g8b8 image held by pixman: the canvas, a frame, or a Wayland shm buffer.
/// In memory each pixel is one native-endian UInt32 0xAARRGGBB (BGRA bytes on little endian).
public final class Bitmap {
    public let width: Int
    public let height: Int
    /// Bytes per row.
    public let stride: Int
    /// The pixman image over `pixels`.
    public let image: OpaquePointer
    public let pixels: UnsafeMutableRawPointer
    private let ownsPixels: Bool
    /// Keeps the memory of a wrapped bitmap alive (a shm mapping), so a bitmap kept after its
    /// buffer pool is gone still points at mapped memory.
    private let memoryOwner: AnyObject?

    /// A new bitmap of its own memory, filled with `color` (0xAARRGGBB, premultiplied).
    public init(width: Int, height: Int, color: UInt32 = 0) {
        precondition(width > 0 && height > 0 && width <= 16384 && height <= 16384, "bitmap size \(width)x\(height)")
        self.width = width
        self.height = height
        stride = width * 4
        let bytes = stride * height
        guard let memory = aligned_alloc(64, (bytes + 63) & ~63) else { fatalError("out of memory for a \(width)x\(height) bitmap") }
        pixels = memory
        ownsPixels = true
        memoryOwner = nil
        image = Bitmap.makeImage(width: width, height: height, pixels: memory, stride: stride)
        if color == 0 { memset(memory, 0, bytes) } else { fill(color) }
    }

    /// A bitmap over memory someone else owns (a shm buffer): the memory must outlive it, which
    /// `owner`, kept as long as the bitmap, can see to.
    public init(wrapping pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, owner: AnyObject? = nil) {
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = pixels
        ownsPixels = false
        memoryOwner = owner
        image = Bitmap.makeImage(width: width, height: height, pixels: pixels, stride: stride)
    }

    private static func makeImage(width: Int, height: Int, pixels: UnsafeMutableRawPointer, stride: Int) -> OpaquePointer {
        guard let image = pixman_image_create_bits_no_clear(
            PIXMAN_a8r8g8b8, Int32(width), Int32(height), pixels.assumingMemoryBound(to: UInt32.self), Int32(stride))
        else { fatalError("pixman could not wrap a \(width)x\(height) image") }
        return image
    }

    deinit {
        pixman_image_unref(image)
        if ownsPixels { free(pixels) }
    }

    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// Fills `rect` (default: everything) with a premultiplied 0xAARRGGBB colour, replacing what was there.
    public func fill(_ color: UInt32, in rect: PixelRect? = nil) {
        let r = (rect ?? bounds).intersection(bounds)
        guard !r.isEmpty else { return }
        var c = pixman_color_t(color)
        var box = pixman_rectangle16_t(x: Int16(r.x), y: Int16(r.y), width: UInt16(r.width), height: UInt16(r.height))
        pixman_image_fill_rectangles(PIXMAN_OP_SRC, image, &c, 1, &box)
    }

    /// Copies `rect` from `source` to the same place here (both bitmaps the same size or larger).
    public func copy(_ rect: PixelRect, from source: Bitmap) {
        let r = rect.intersection(bounds).intersection(source.bounds)
        guard !r.isEmpty else { return }
        pixman_image_composite32(PIXMAN_OP_SRC, source.image, nil, image,
                                 Int32(r.x), Int32(r.y), 0, 0, Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height))
    }

    /// Draws `source` over this bitmap with its top-left at (x, y) (Porter–Duff OVER).
    public func draw(_ source: Bitmap, atX x: Int, y: Int) {
        pixman_image_composite32(PIXMAN_OP_OVER, source.image, nil, image, 0, 0, 0, 0,
                                 Int32(x), Int32(y), Int32(source.width), Int32(source.height))
    }

    /// The premultiplied 0xAARRGGBB pixel at (x, y).
    public func pixel(x: Int, y: Int) -> UInt32 {
        precondition(x >= 0 && y >= 0 && x < width && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        return pixels.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
    }
}

extension pixman_color_t {
    /// pixman's 16-bit-per-channel colour from a premultiplied 0xAARRGGBB.
    public init(_ argb: UInt32) {
        func channel(_ shift: UInt32) -> UInt16 { UInt16((argb >> shift) & 0xFF) * 0x101 }
        self.init(red: channel(16), green: channel(8), blue: channel(0), alpha: channel(24))
    }
}
