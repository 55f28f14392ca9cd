import FolioSketchbook

extension ShelfEntry {
    /// Changes the entry in `folder` as it is on disk now and writes it back, all under its
    /// lock, so what another process wrote since the caller read it is kept. `fallback` stands in
    /// for an entry that is missing or damaged; when it is nil, nothing is written and nil is
    /// returned. A `shelf.json` that is a link is refused, never replaced.
    static func rewrite(in folder: String, fallback: ShelfEntry?, patience: Double,
                        change: (inout ShelfEntry) -> Void) throws(ShelfError) -> ShelfEntry? {
        let lock = try EntryLock(folder, patience: patience)
        var entry: ShelfEntry
        do {
            guard let found = try read(in: folder) ?? fallback else { return nil }
            entry = found
        } catch BookError.symlink(let link) {
            throw .io(path: link, reason: "is a symbolic link, which Folio neither follows nor replaces")
        } catch {
            guard let fallback else { return nil }
            entry = fallback
        }
        change(&entry)
        try entry.write(in: folder)
        _ = consume lock
        return entry
    }
}
