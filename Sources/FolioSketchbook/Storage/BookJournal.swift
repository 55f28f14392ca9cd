/// The framing of `book.folio` (docs/book-format.md): a 16-byte header, then records, each
/// carrying its length and two CRC-32C checksums (one for its header, one for its payload).
/// The first record is a snapshot of the whole book; each later one is one save's changes.
enum BookJournal {
    static let fileName = "book.folio"
    static let magic = Array("FolioBk\n".utf8)
    static let version: UInt32 = 2
    static let headerSize = 16
    /// Record header (length, kind, 3 reserved bytes, header checksum) plus the payload checksum.
    static let recordOverhead = 16
    /// The largest payload a record may declare (1 GiB): a length beyond it is damage.
    static let maximumPayload = 1 << 30

    enum Kind: UInt8 {
        case snapshot = 1
        case change = 2
    }

    /// A record found in the file: its kind, where it starts, and where its payload lies.
    struct Record {
        var kind: Kind
        var offset: Int
        var payload: Range<Int>
    }

    /// An incomplete last record (a save cut short): where it starts and how many bytes it has.
    struct TornTail: Equatable {
        var offset: Int
        var count: Int
    }

    static func fileHeader() -> [UInt8] {
        var out = ByteWriter()
        out.bytes = magic
        out.u32(version)
        out.u32(crc32c(out.bytes))
        return out.bytes
    }

    static func record(_ kind: Kind, payload: [UInt8]) -> [UInt8] {
        var out = ByteWriter()
        out.bytes.reserveCapacity(payload.count + recordOverhead)
        out.u32(UInt32(payload.count))
        out.u8(kind.rawValue)
        out.u8(0)
        out.u16(0)
        out.u32(crc32c(out.bytes))
        out.bytes.append(contentsOf: payload)
        out.u32(crc32c(payload))
        return out.bytes
    }

    /// The records of a whole file, checked. A damaged header or record throws `.damaged` naming
    /// the byte offset; an incomplete last record (the file ends inside it, or only zero bytes
    /// follow the last whole record) is returned as `torn`, not thrown.
    static func scan(_ bytes: UnsafeRawBufferPointer, path: String) throws -> (records: [Record], torn: TornTail?) {
        func damaged(_ offset: Int, _ reason: String) -> BookError {
            .damaged(path: path, reason: "byte \(offset): \(reason)")
        }
        guard bytes.count >= headerSize else {
            throw damaged(0, "the file is \(bytes.count) bytes long, shorter than its \(headerSize)-byte header")
        }
        var header = ByteReader(bytes)
        let start = (0..<magic.count).map { _ in (try? header.u8()) ?? 0 }
        guard start == magic else { throw damaged(0, "not a Folio sketchbook (wrong magic number)") }
        let fileVersion = (try? header.u32()) ?? 0
        guard (try? header.u32()) == crc32c(UnsafeRawBufferPointer(rebasing: bytes[0..<12])) else {
            throw damaged(0, "the file header's checksum does not match")
        }
        guard fileVersion == version else {
            throw damaged(8, fileVersion > version ? "written by a newer Folio (format version \(fileVersion))"
                                                   : "format version \(fileVersion) is not one Folio writes")
        }
        var records: [Record] = []
        var offset = headerSize
        var torn: TornTail?
        scanning: while offset < bytes.count {
            let left = bytes.count - offset
            let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
            if left < 12 {
                torn = TornTail(offset: offset, count: left)
                break scanning
            }
            var reader = ByteReader(bytes, offset: offset)
            let length = Int(try reader.u32())
            let kindByte = try reader.u8()
            let reserved = [try reader.u8(), try reader.u8(), try reader.u8()]
            let checksum = try reader.u32()
            guard checksum == crc32c(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + 8)])) else {
                // Space the file system gave the file but a crash never filled reads as zeros.
                if rest.allSatisfy({ $0 == 0 }) {
                    torn = TornTail(offset: offset, count: left)
                    break scanning
                }
                throw damaged(offset, "a record's header checksum does not match")
            }
            guard let kind = Kind(rawValue: kindByte) else {
                throw damaged(offset, "a record of unknown kind \(kindByte) (written by a newer Folio?)")
            }
            // Reserved bytes are zero in every version: in a known record they are damage.
            guard reserved == [0, 0, 0] else {
                throw damaged(offset, "a record's reserved bytes are \(reserved.map { String($0) }.joined(separator: ", ")), not zero")
            }
            guard length <= maximumPayload else { throw damaged(offset, "a record claims \(length) bytes") }
            guard left >= length + recordOverhead else {
                torn = TornTail(offset: offset, count: left)
                break scanning
            }
            let payload = (offset + 12)..<(offset + 12 + length)
            var tail = ByteReader(bytes, offset: payload.upperBound)
            guard try tail.u32() == crc32c(UnsafeRawBufferPointer(rebasing: bytes[payload])) else {
                throw damaged(offset, "a record's checksum does not match its \(length) bytes")
            }
            guard (kind == .snapshot) == records.isEmpty else {
                throw damaged(offset, records.isEmpty ? "the first record is not a snapshot" : "a second snapshot")
            }
            records.append(Record(kind: kind, offset: offset, payload: payload))
            offset = payload.upperBound + 4
        }
        // Snapshots are written whole and renamed into place: a file without one is damaged, torn or not.
        guard !records.isEmpty else { throw damaged(headerSize, "no whole snapshot record") }
        return (records, torn)
    }
}
