import CCRC32C
import Foundation
import FolioGeometry

/// CRC-32C (Castagnoli) of `bytes`, continuing from `crc` (0 to start).
public func crc32c<Bytes: ContiguousBytes>(_ bytes: Bytes, continuing crc: UInt32 = 0) -> UInt32 {
    bytes.withUnsafeBytes { folio_crc32c(crc, $0.baseAddress, $0.count) }
}

/// Little-endian fields appended to a byte buffer: how every record of a book is written.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func f64(_ value: Double) { u64(value.bitPattern) }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }

    /// `points` as x, y float64 pairs, in one copy where the machine's layout already is that.
    mutating func points(_ points: [Point]) {
        #if _endian(little)
        if MemoryLayout<Point>.stride == 16 {
            points.withUnsafeBytes { bytes.append(contentsOf: $0) }
            return
        }
        #endif
        for p in points {
            f64(p.x)
            f64(p.y)
        }
    }

    /// Overwrites a u32 written earlier at `offset` (a count known only later).
    mutating func patch(u32 value: UInt32, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { for (i, byte) in $0.enumerated() { bytes[offset + i] = byte } }
    }
}

/// Reads little-endian fields from a record's bytes; running past the end is `Truncated`.
struct ByteReader {
    struct Truncated: Error {}

    let bytes: UnsafeRawBufferPointer
    private(set) var offset: Int

    init(_ bytes: UnsafeRawBufferPointer, offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var remaining: Int { bytes.count - offset }

    mutating func u8() throws -> UInt8 {
        guard remaining >= 1 else { throw Truncated() }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u16() throws -> UInt16 { UInt16(littleEndian: try load()) }
    mutating func u32() throws -> UInt32 { UInt32(littleEndian: try load()) }
    mutating func u64() throws -> UInt64 { UInt64(littleEndian: try load()) }
    mutating func f64() throws -> Double { Double(bitPattern: try u64()) }

    /// `count` x, y float64 pairs; the caller has checked that `count` fits in what remains.
    mutating func points(_ count: Int) throws -> [Point] {
        guard count <= remaining / 16 else { throw Truncated() }
        let start = offset
        offset += count * 16
        #if _endian(little)
        if MemoryLayout<Point>.stride == 16 {
            return [Point](unsafeUninitializedCapacity: count) { buffer, initialized in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count * 16)]))
                initialized = count
            }
        }
        #endif
        var reader = ByteReader(bytes, offset: start)
        var points: [Point] = []
        points.reserveCapacity(count)
        for _ in 0..<count { points.append(Point(x: try reader.f64(), y: try reader.f64())) }
        return points
    }

    private mutating func load<T: FixedWidthInteger>() throws -> T {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { throw Truncated() }
        defer { offset += size }
        return bytes.loadUnaligned(fromByteOffset: offset, as: T.self)
    }
}
