import FolioFiles
import Foundation
import FolioSketchbook

/// The fields before a picture's pixels (docs/book-format.md), checked: magic, version, the
/// canvas size within 1–16384, and at most `SheetPictureCache.tilesKept` tiles.
struct PictureHeader {
    static let size = 40

    var width: Int
    var height: Int
    var scale: Double
    var key: UInt64
    var tileCount: Int

    /// Nil when the header is short or a field is wrong.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= Self.size, Array(bytes[0..<8]) == SheetPictureCache.magic,
              PictureBytes.u32(bytes, 8) == SheetPictureCache.version else { return nil }
        width = Int(PictureBytes.u32(bytes, 12))
        height = Int(PictureBytes.u32(bytes, 16))
        scale = Double(bitPattern: PictureBytes.u64(bytes, 20))
        key = PictureBytes.u64(bytes, 28)
        tileCount = Int(PictureBytes.u32(bytes, 36))
        guard (1...16384).contains(width), (1...16384).contains(height), tileCount <= SheetPictureCache.tilesKept else { return nil }
    }

    /// Bytes of the canvas's pixels, which follow the header.
    var pixelBytes: Int { 4 * width * height }
}

/// Little-endian fields of a picture file.
enum PictureBytes {
    static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
    }

    static func u64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        UInt64(u32(bytes, offset + 4)) << 32 | UInt64(u32(bytes, offset))
    }
}

/// Which file a damaged picture was: said once, however often the sheet is shown again, and
/// again only when another file takes its place.
struct PictureFileIdentity: Hashable, Sendable {
    var file: FileIdentity
    var size: Int64
    var modified: Int64
    var modifiedNanoseconds: Int

    init(_ status: stat) {
        file = FileIdentity(status)
        size = Int64(status.st_size)
        modified = Int64(status.st_mtim.tv_sec)
        modifiedNanoseconds = Int(status.st_mtim.tv_nsec)
    }
}

extension SheetPictureCache {
    /// What reading a picture file gave.
    enum Reading {
        /// Missing, a link, not a regular file or unreadable: not used, and nothing said (a cache).
        case unusable
        /// Of another canvas size or scale: not used, and nothing said.
        case otherCanvas
        case damaged(PictureFileIdentity)
        case picture(SheetPicture)
    }

    /// The picture at `path` if it is the one named `key` for this canvas. The sizes its header
    /// and tiles give must add up to the file's size before a pixel is read, so a file grown or
    /// cut short is refused at the cost of its headers, not of its bytes.
    static func read(_ path: String, key: UInt64, width: Int, height: Int, scale: Double) -> Reading {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .unusable }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return .unusable }
        let identity = PictureFileIdentity(status), size = Int(status.st_size)
        guard let start = bytes(fd, at: 0, count: PictureHeader.size), let header = PictureHeader(start), header.key == key else {
            return .damaged(identity)
        }
        guard header.width == width, header.height == height, header.scale == scale else { return .otherCanvas }
        var end = PictureHeader.size + header.pixelBytes
        for _ in 0..<header.tileCount {
            // A tile: x, y, width, height within the canvas, then its pixels; the checksum follows the last.
            guard end + 16 + 4 <= size, let area = bytes(fd, at: end, count: 16) else { return .damaged(identity) }
            let x = Int(PictureBytes.u32(area, 0)), y = Int(PictureBytes.u32(area, 4))
            let w = Int(PictureBytes.u32(area, 8)), h = Int(PictureBytes.u32(area, 12))
            guard x + w <= width, y + h <= height else { return .damaged(identity) }
            end += 16 + 4 * w * h
        }
        guard end + 4 == size, let whole = bytes(fd, at: 0, count: size), let picture = decode(whole), picture.key == key else {
            return .damaged(identity)
        }
        return .picture(picture)
    }

    /// `count` bytes of `fd` from `offset`, or nil when the file ends first or reading fails.
    private static func bytes(_ fd: Int32, at offset: Int, count: Int) -> [UInt8]? {
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            while initialized < count {
                let got = pread(fd, buffer.baseAddress.map { $0 + initialized }, count - initialized, off_t(offset + initialized))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { break }
                initialized += got
            }
            failed = initialized < count
        }
        return failed ? nil : bytes
    }
}
