import FolioSketchbook

/// `bytes` with the file header's and every record's checksums recomputed (docs/book-format.md):
/// damage made on purpose then reaches the reader's checks past the checksums.
public func withChecksumsFixed(_ bytes: [UInt8]) -> [UInt8] {
    var fixed = bytes
    func put(_ value: UInt32, at offset: Int) {
        for i in 0..<4 { fixed[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) }
    }
    guard fixed.count >= 16 else { return fixed }
    put(crc32c(fixed[0..<12]), at: 12)
    var offset = 16
    while offset + 12 <= fixed.count {
        let length = (0..<4).reduce(0) { $0 | Int(fixed[offset + $1]) << (8 * $1) }
        put(crc32c(fixed[offset..<(offset + 8)]), at: offset + 8)
        guard length <= fixed.count - offset - 16 else { break }
        put(crc32c(fixed[(offset + 12)..<(offset + 12 + length)]), at: offset + 12 + length)
        offset += 16 + length
    }
    return fixed
}
