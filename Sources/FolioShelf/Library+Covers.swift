import FolioRender
import FolioSketchbook

extension Library {
    /// Refreshes book `id`'s index and cover on the background queue, once however often asked
    /// before it runs.
    func refreshSoon(_ id: String) {
        let queued = state.withLock { state in !state.closed && state.pending.insert(id).inserted }
        guard queued else { return }
        queue.async { self.refresh(id) }
    }

    /// Takes book `id`'s index again if its stamp changed, and draws its cover again if the
    /// kept one is of other strokes; then says so through `coverRefreshed`.
    func refresh(_ id: String) {
        guard let entry = state.withLock({ state -> ShelfEntry? in
            state.pending.remove(id)
            return state.closed ? nil : state.entries[id]
        }) else { return }
        let folder = path(id)
        let kept = state.withLock { $0.covers[id] } ?? CoverPicture.read(in: folder)
        let fresh = entry.index.map { $0.journal == BookStamp.of(folder) } ?? false
        if fresh, let index = entry.index, index.coverKey == Self.blankKey || kept?.key.hexKey == index.coverKey {
            state.withLock { $0.tried[id] = index.coverKey }
            return
        }
        let index: ShelfEntry.Index, sheet: Sheet
        do {
            (index, sheet) = try BookIndex.take(in: folder)
        } catch {
            state.withLock { $0.tried[id] = entry.index?.coverKey ?? "" }
            warning("\(error); its cover is left as it was")
            return
        }
        var cover = kept
        writes.withLock {
            guard state.withLock({ !$0.closed && $0.entries[id] != nil }) else { return }
            do {
                if index.coverKey == Self.blankKey {
                    CoverPicture.remove(in: folder)
                    cover = nil
                } else if kept?.key.hexKey != index.coverKey, let drawn = CoverPicture.render(sheet) {
                    try drawn.write(in: folder)
                    cover = drawn
                }
                if let current = state.withLock({ $0.entries[id] }), current.index != index,
                   let written = try ShelfEntry.rewrite(in: folder, fallback: current, patience: EntryLock.repairPatience, change: {
                       $0.index = index
                   }) {
                    state.withLock { $0.entries[id] = written }
                }
            } catch {
                warning("\(error); the cover is drawn again later")
            }
            state.withLock { state in
                state.covers[id] = cover
                state.tried[id] = index.coverKey
            }
        }
        coverRefreshed(id)
    }
}
