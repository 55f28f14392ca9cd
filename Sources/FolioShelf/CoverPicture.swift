import FolioFiles
import FolioPixels
import FolioRender
import FolioSketchbook
import Foundation

/// The picture on a book's cover: its first sheet, drawn small. Kept in the book folder as
/// `cover.picture` (docs/book-format.md), raw premultiplied pixels behind a header and a
/// checksum, so 50 covers load in a few milliseconds with no decoding; a cache, tied to the
/// sheet's strokes by `key` like the sheet pictures, and drawn again when it differs.
struct CoverPicture: Sendable, Equatable {
    static let fileName = "cover.picture"
    /// The longest side of a cover picture, in pixels (at most: the scale is taken at its nearest 1/120).
    static let longestSide = 512
    /// The page a cover shows, in logical pixels (16:10, a common canvas): larger when the
    /// drawing reaches farther, up to `largestPage`, keeping the ratio.
    static let page = (width: 1920.0, height: 1200.0)
    static let largestPage = 16384.0

    static let magic = Array("FolioCv\n".utf8)
    static let version: UInt32 = 1
    static let headerSize = 8 + 4 + 4 + 4 + 8

    /// `SheetPicture.key` of the strokes drawn.
    var key: UInt64
    var width: Int
    var height: Int
    /// Premultiplied 0xAARRGGBB, row by row.
    var pixels: [UInt32]

    /// The cover of `sheet`; nil for a blank sheet of plain paper (its cover is drawn plain).
    static func render(_ sheet: Sheet) -> CoverPicture? {
        guard !sheet.strokes.isEmpty || sheet.paper.kind != .plain else { return nil }
        let extent = SVGExport.extent(of: sheet)
        let ratio = page.width / page.height
        let width = min(largestPage, max(page.width, extent.width, extent.height * ratio))
        // Down to a whole 1/120, as canvases take their scale: the side never passes `longestSide`.
        let scale = max(1, (Double(longestSide) / width * 120).rounded(.down)) / 120
        let canvas = CanvasRenderer(width: Int(width), height: Int((width / ratio).rounded()), scale: scale)
        canvas.rebuild(strokes: sheet.strokes, paper: sheet.paper)
        return CoverPicture(key: SheetPicture.key(of: sheet.strokes, paper: sheet.paper), bitmap: canvas.frame)
    }

    init(key: UInt64, width: Int, height: Int, pixels: [UInt32]) {
        self.key = key
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    init(key: UInt64, bitmap: Bitmap) {
        var pixels = [UInt32](repeating: 0, count: bitmap.width * bitmap.height)
        pixels.withUnsafeMutableBytes { out in
            guard let base = out.baseAddress else { return }
            for y in 0..<bitmap.height {
                (base + y * bitmap.width * 4).copyMemory(from: bitmap.pixels + y * bitmap.stride, byteCount: bitmap.width * 4)
            }
        }
        self.init(key: key, width: bitmap.width, height: bitmap.height, pixels: pixels)
    }

    /// A bitmap of its own holding the picture.
    func bitmap() -> Bitmap {
        let bitmap = Bitmap(width: width, height: height)
        pixels.withUnsafeBytes { source in
            guard let base = source.baseAddress else { return }
            for y in 0..<height {
                (bitmap.pixels + y * bitmap.stride).copyMemory(from: base + y * width * 4, byteCount: width * 4)
            }
        }
        return bitmap
    }

    /// Magic, version, width, height, key, the pixels, then a CRC-32C of all before; little-endian.
    func encode() -> Data {
        var data = Data(Self.magic)
        data.reserveCapacity(Self.headerSize + pixels.count * 4 + 4)
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        append(Self.version)
        append(UInt32(width))
        append(UInt32(height))
        append(key)
        pixels.withUnsafeBytes { data.append(contentsOf: $0) }
        append(crc32c(data))
        return data
    }

    /// The picture kept in `folder`; nil when there is none, it is not a whole, undamaged
    /// cover picture, or it is a link (not followed). The header is checked against the file's
    /// size before the pixels are read, straight into the picture.
    static func read(in folder: String) -> CoverPicture? {
        let fd = open(folder + "/" + fileName, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        var header = [UInt8](repeating: 0, count: headerSize)
        guard readFully(fd, into: &header, at: 0), Array(header[0..<8]) == magic else { return nil }
        func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
            bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
        }
        let width = Int(u32(header, 12)), height = Int(u32(header, 16))
        guard u32(header, 8) == version, (1...longestSide).contains(width), (1...longestSide).contains(height),
              Int(status.st_size) == headerSize + width * height * 4 + 4 else { return nil }
        var pixels = [UInt32](repeating: 0, count: width * height)
        var checksum = [UInt8](repeating: 0, count: 4)
        guard readFully(fd, into: &pixels, at: headerSize), readFully(fd, into: &checksum, at: headerSize + width * height * 4),
              pixels.withUnsafeBytes({ crc32c($0, continuing: crc32c(header)) }) == u32(checksum, 0) else { return nil }
        return CoverPicture(key: UInt64(u32(header, 24)) << 32 | UInt64(u32(header, 20)), width: width, height: height, pixels: pixels)
    }

    /// Fills `buffer` from `fd` at `offset`; false when the file ends first or reading fails.
    private static func readFully<T>(_ fd: Int32, into buffer: inout [T], at offset: Int) -> Bool {
        buffer.withUnsafeMutableBytes { raw in
            var done = 0
            while done < raw.count {
                guard let base = raw.baseAddress else { return false }
                let got = pread(fd, base + done, raw.count - done, off_t(offset + done))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { return false }
                done += got
            }
            return true
        }
    }

    /// Keeps the picture in `folder` through the safe writer (0600).
    func write(in folder: String) throws(ShelfError) {
        do {
            try AtomicFile.replace(folder + "/" + Self.fileName, with: encode(), mode: 0o600)
        } catch {
            throw ShelfError(error, failure: "cannot keep the cover picture")
        }
    }

    /// Removes a kept picture that no longer belongs (the first sheet became blank).
    static func remove(in folder: String) {
        let path = folder + "/" + fileName
        if BookFiles.isRegularFile(path) { unlink(path) }
    }
}

extension UInt64 {
    /// 16 lowercase hex digits: how keys are written in `shelf.json`.
    var hexKey: String {
        let digits = String(self, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
