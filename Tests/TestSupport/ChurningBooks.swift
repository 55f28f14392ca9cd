import FolioSketchbook

/// Valid `book.folio` files whose change records churn at one end of a big book
/// (docs/book-format.md): small files that cost their size times the book's size to read where
/// a change moves every sheet or stroke after it.
public enum ChurningBooks {
    /// `sheets` blank sheets, then one record that inserts a blank sheet before the first and
    /// removes it again, `pairs` times: 4 × `sheets` + 10 × `pairs` bytes and a little more.
    public static func sheets(_ sheets: Int, pairs: Int) -> [UInt8] {
        var snapshot = words(0, UInt32(sheets))
        snapshot += [UInt8](repeating: 0, count: 4 * sheets)
        var changes = words(UInt32(2 * pairs))
        changes.reserveCapacity(4 + 10 * pairs)
        for _ in 0..<pairs { changes += [1, 0, 0, 0, 0, 2, 0, 0, 0, 0] }
        return file(snapshot: snapshot, changes: changes)
    }

    /// One sheet of `strokes` one-point strokes, then one record that takes its last stroke back
    /// and draws it again, `pairs` times.
    public static func strokes(_ strokes: Int, pairs: Int) -> [UInt8] {
        let stroke = words(0, 0) + [0, 0, 0, 0, 0, 0, 0x18, 0x40] + words(1) + [UInt8](repeating: 0, count: 16)
        var snapshot = words(0, 1, UInt32(strokes))
        snapshot.reserveCapacity(snapshot.count + strokes * stroke.count)
        for _ in 0..<strokes { snapshot += stroke }
        var changes = words(UInt32(2 * pairs))
        for _ in 0..<pairs { changes += [3] + words(0, UInt32(strokes - 1)) + [4] + words(0, 1) + stroke }
        return file(snapshot: snapshot, changes: changes)
    }

    /// The file header, a snapshot record and a changes record, checksums and all.
    private static func file(snapshot: [UInt8], changes: [UInt8]) -> [UInt8] {
        var header = Array("FolioBk\n".utf8) + words(2)
        header += words(crc32c(header))
        return header + record(kind: 1, snapshot) + record(kind: 2, changes)
    }

    private static func record(kind: UInt8, _ payload: [UInt8]) -> [UInt8] {
        var head = words(UInt32(payload.count)) + [kind, 0, 0, 0]
        head += words(crc32c(head))
        return head + payload + words(crc32c(payload))
    }

    private static func words(_ values: UInt32...) -> [UInt8] {
        values.flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    }
}
