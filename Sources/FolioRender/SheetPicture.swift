import Foundation
import FolioFiles
import FolioPixels
import FolioSketchbook

/// A sheet's canvas as pixels, tied to its strokes by `key`: kept with the book so that a big
/// sheet shows at once instead of being drawn stroke by stroke, with the undo tiles of its
/// newest strokes so that the first undos are instant too.
public struct SheetPicture: Sendable, Equatable {
    /// `key(of:paper:)` of the strokes drawn and their paper.
    public var key: UInt64
    public var width: Int
    public var height: Int
    /// Buffer pixels per logical pixel.
    public var scale: Double
    /// Premultiplied 0xAARRGGBB, row by row.
    public var pixels: [UInt32]
    public var tiles: [UndoTiles.Tile]

    /// How many strokes the picture covers: the first `coveredCount` of its sheet.
    public var coveredCount: Int { Self.count(inKey: key) }

    /// A checksum of strokes (CRC-32C of their points, widths, colours and point counts, and a
    /// pen's pressure curve, pressures and tilts) on `paper`, and their count: a picture whose
    /// key differs is of other strokes or another paper and is drawn again.
    public static func key(of strokes: some Collection<Stroke>, paper: Paper) -> UInt64 {
        prefixKeys(of: strokes, paper: paper, counts: [strokes.count])[strokes.count] ?? 0
    }

    /// The keys of the first `count` strokes on `paper` for each of `counts` (those beyond the
    /// strokes left out), in one pass over them.
    public static func prefixKeys(of strokes: some Collection<Stroke>, paper: Paper, counts: Set<Int>) -> [Int: UInt64] {
        var keys: [Int: UInt64] = [:]
        var crc: UInt32 = 0
        // Plain paper adds nothing, so pictures kept before papers stay good.
        if paper != .plain {
            let fields = [UInt64(paper.kind.code) << 32 | UInt64(paper.color), paper.spacing.bitPattern]
            crc = fields.withUnsafeBytes { crc32c($0, continuing: crc) }
        }
        func note(_ count: Int) {
            if counts.contains(count) { keys[count] = UInt64(crc) << 32 | UInt64(UInt32(truncatingIfNeeded: count)) }
        }
        note(0)
        for (index, stroke) in strokes.enumerated() {
            crc = stroke.points.withUnsafeBytes { crc32c($0, continuing: crc) }
            let fields = [stroke.style.width.bitPattern, UInt64(stroke.style.color) << 32 | UInt64(stroke.points.count)]
            crc = fields.withUnsafeBytes { crc32c($0, continuing: crc) }
            // A pen's samples change its ink: a stroke without them checks as it always did.
            if let pressures = stroke.pressures {
                let curve = [stroke.pressureCurve.minimum, stroke.pressureCurve.maximum, stroke.pressureCurve.exponent]
                crc = curve.withUnsafeBytes { crc32c($0, continuing: crc) }
                crc = pressures.withUnsafeBytes { crc32c($0, continuing: crc) }
            }
            if let tilts = stroke.tilts {
                let angles = tilts.flatMap { [$0.x, $0.y] }
                crc = angles.withUnsafeBytes { crc32c($0, continuing: crc) }
            }
            note(index + 1)
        }
        return keys
    }

    /// The stroke count a key holds (its low 32 bits).
    public static func count(inKey key: UInt64) -> Int {
        Int(UInt32(truncatingIfNeeded: key))
    }
}

/// The pictures of a book's big sheets, as files in the book folder (`sheet-KEY.picture`, 0600,
/// written atomically; docs/book-format.md): a cache, so a file that is missing, damaged or of
/// other strokes is simply not used, and the sheet is drawn from its strokes. A picture covers
/// the first strokes of its sheet (its key says how many): the strokes drawn after it are drawn
/// over it, so a picture left behind by a crash still saves most of the work.
public struct SheetPictureCache: Sendable {
    public let store: BookStore
    /// Sheets with fewer strokes draw quickly enough (a few ms each): no picture is kept.
    public static let worthKeeping = 256
    /// At most this many undo tiles are kept in a file (the canvas keeps more while it runs).
    public static let tilesKept = 64
    /// Told when a picture that should have been used is damaged (it is then not used).
    private let warning: @Sendable (String) -> Void
    /// The damaged files told already, shared by every copy of this cache (the canvas's and the
    /// keeper's ask for the same sheet).
    private let told = Locked<Set<PictureFileIdentity>>([])

    static let magic = Array("FolioPc\n".utf8)
    static let version: UInt32 = 1

    public init(store: BookStore, warning: @escaping @Sendable (String) -> Void = { _ in }) {
        self.store = store
        self.warning = warning
    }

    /// The kept picture covering the most of the first `strokes` on `paper` at this canvas size, or nil. A
    /// picture of strokes that differ from these (an undo, an erased stroke) is never one.
    public func picture(of strokes: [Stroke], paper: Paper, width: Int, height: Int, scale: Double) -> SheetPicture? {
        guard strokes.count >= Self.worthKeeping else { return nil }
        let files = store.pictureFiles().filter { (Self.worthKeeping...strokes.count).contains(SheetPicture.count(inKey: $0.key)) }
        let keys = SheetPicture.prefixKeys(of: strokes, paper: paper, counts: Set(files.map { SheetPicture.count(inKey: $0.key) }))
        let matching = files.filter { keys[SheetPicture.count(inKey: $0.key)] == $0.key }
            .sorted { SheetPicture.count(inKey: $0.key) > SheetPicture.count(inKey: $1.key) }
        for (name, key) in matching {
            let path = store.directory.appendingPathComponent(name).path
            switch Self.read(path, key: key, width: width, height: height, scale: scale) {
            case .unusable, .otherCanvas:
                continue
            case let .damaged(file):
                if told.withLock({ $0.insert(file).inserted }) {
                    warning("\(path) is damaged; the sheet is drawn from its strokes (the picture is only a cache, kept again later)")
                }
            case let .picture(picture):
                return picture
            }
        }
        return nil
    }

    /// Keeps `picture` (nil: none worth keeping) and removes every other picture but the one
    /// covering the most of each big sheet in `book`.
    public func keep(_ picture: SheetPicture?, book: Sketchbook) throws {
        if let picture, picture.coveredCount >= Self.worthKeeping,
           book.sheets.contains(where: { SheetPicture.key(of: $0.strokes.prefix(picture.coveredCount), paper: $0.paper) == picture.key }) {
            do {
                try AtomicFile.replace(store.pictureFile(key: picture.key).path, with: Self.encode(picture), mode: 0o600)
            } catch {
                throw BookError(error, failure: "cannot keep the sheet's picture")
            }
        }
        let files = store.pictureFiles()
        let counts = Set(files.map { SheetPicture.count(inKey: $0.key) })
        var wanted = Set<UInt64>()
        for sheet in book.sheets where sheet.strokes.count >= Self.worthKeeping {
            let keys = SheetPicture.prefixKeys(of: sheet.strokes, paper: sheet.paper, counts: counts)
            if let best = files.filter({ keys[SheetPicture.count(inKey: $0.key)] == $0.key })
                .max(by: { SheetPicture.count(inKey: $0.key) < SheetPicture.count(inKey: $1.key) }) {
                wanted.insert(best.key)
            }
        }
        for (name, key) in files where !wanted.contains(key) {
            let path = store.directory.appendingPathComponent(name).path
            if Self.isKeptPicture(path) { unlink(path) }
        }
    }

    /// Whether `path` is a picture Folio kept: a regular file of this user's that starts as a
    /// picture does. Anything else under a picture's name (a link, a folder, someone's file) is
    /// not Folio's to remove.
    static func isKeptPicture(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var status = stat()
        var head = [UInt8](repeating: 0, count: magic.count)
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() else { return false }
        return head.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } == magic.count && head == magic
    }

    /// Header (magic, version, width, height, scale, key, tile count), the pixels, the tiles
    /// (x, y, width, height, pixels), then a CRC-32C of everything before it; little-endian.
    static func encode(_ picture: SheetPicture) -> Data {
        let tiles = picture.tiles.suffix(tilesKept)
        var data = Data(magic)
        func u32(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { data.append(contentsOf: $0) } }
        func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        u32(Int(version))
        u32(picture.width)
        u32(picture.height)
        u64(picture.scale.bitPattern)
        u64(picture.key)
        u32(tiles.count)
        func pixels(_ values: [UInt32]) { values.withUnsafeBytes { data.append(contentsOf: $0) } }
        pixels(picture.pixels)
        for tile in tiles {
            [tile.area.x, tile.area.y, tile.area.width, tile.area.height].forEach(u32)
            pixels(tile.pixels)
        }
        u32(Int(crc32c(data)))
        return data
    }

    static func decode(_ bytes: [UInt8]) -> SheetPicture? {
        guard bytes.count >= PictureHeader.size + 4, let header = PictureHeader(bytes),
              crc32c(bytes[..<(bytes.count - 4)]) == PictureBytes.u32(bytes, bytes.count - 4) else { return nil }
        let width = header.width, height = header.height
        var offset = PictureHeader.size
        func u32() -> Int? {
            guard offset + 4 <= bytes.count - 4 else { return nil }
            defer { offset += 4 }
            return Int(PictureBytes.u32(bytes, offset))
        }
        func pixels(_ count: Int) -> [UInt32]? {
            guard count >= 0, count <= (bytes.count - 4 - offset) / 4 else { return nil }
            defer { offset += count * 4 }
            return [UInt32](unsafeUninitializedCapacity: count) { buffer, initialized in
                bytes.withUnsafeBytes { UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + count * 4)])) }
                initialized = count
            }
        }
        guard let canvas = pixels(width * height) else { return nil }
        var tiles: [UndoTiles.Tile] = []
        for _ in 0..<header.tileCount {
            guard let x = u32(), let y = u32(), let w = u32(), let h = u32(), x + w <= width, y + h <= height,
                  let tilePixels = pixels(w * h) else { return nil }
            tiles.append(UndoTiles.Tile(area: PixelRect(x: x, y: y, width: w, height: h), pixels: tilePixels))
        }
        guard offset == bytes.count - 4 else { return nil }
        return SheetPicture(key: header.key, width: width, height: height, scale: header.scale, pixels: canvas, tiles: tiles)
    }
}
