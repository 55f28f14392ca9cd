import Dispatch
import FolioFiles
import FolioPixels
import FolioRender
import FolioSketchbook
import Foundation

/// The shelf of books on disk: `books/` in Folio's data folder (`$XDG_DATA_HOME/folio`), one
/// folder per book named by its id, each with its `shelf.json` (docs/book-format.md). Opening
/// it moves the single book of Folio 0.1 onto it. Listing reads only the `shelf.json` files;
/// a book whose index is stale is read once to take it again. Cover pictures are drawn on a
/// background queue, never on the caller's, and `coverRefreshed` says when one is new.
public final class Library: BookShelf, Sendable {
    /// The data folder: where Folio 0.1 kept its single book.
    public let dataFolder: String
    /// The shelf: `dataFolder/books`.
    public let folder: String
    /// Where deleted books wait for undo: `folder/.trash`, never listed.
    public var trashFolder: String { folder + "/" + Self.trash }

    static let trash = ".trash"
    /// Held shared by every open library, exclusively by one cleaning up: emptying the trash at
    /// start would otherwise take away the undo of a Folio still running.
    static let shelfLockName = ".shelf.lock"
    static let blankKey = SheetPicture.key(of: [Stroke](), paper: .plain).hexKey

    struct State {
        var entries: [String: ShelfEntry] = [:]
        var covers: [String: CoverPicture] = [:]
        /// The cover key last drawn or tried for each book (empty for a book never indexed), so
        /// a book that cannot be read is not tried again at every frame.
        var tried: [String: String] = [:]
        var pending: Set<String> = []
        /// Deleted books, latest last.
        var deleted: [String] = []
        var shelfLock: Int32 = -1
        var closed = false
    }

    let state = Locked(State())
    /// Held while a book's files are written or moved, so those changes follow one another.
    let writes = SerialLock()
    let queue = DispatchQueue(label: "folio.covers", qos: .utility)
    private let now: @Sendable () -> Date
    let warning: @Sendable (String) -> Void
    let coverRefreshed: @Sendable (String) -> Void

    /// The shelf in Folio's data folder (`$XDG_DATA_HOME/folio`, else `~/.local/share/folio`).
    public convenience init(folders: UserFolders, warning: @escaping @Sendable (String) -> Void = { _ in },
                            coverRefreshed: @escaping @Sendable (String) -> Void = { _ in }) throws {
        let data: URL
        do {
            data = try BookStore.defaultDirectory(in: folders)
        } catch {
            throw ShelfError.io(path: "$XDG_DATA_HOME", reason: "\(error), so there is no shelf of books")
        }
        try self.init(dataFolder: data.path, warning: warning, coverRefreshed: coverRefreshed)
    }

    /// The shelf in `dataFolder/books`, made if missing, with the single book of `dataFolder`
    /// moved onto it. `warning` hears of books that cannot be read (they are listed, not
    /// changed); `coverRefreshed` gets a book's id, on a background queue, when its cover is new.
    public convenience init(dataFolder: String, warning: @escaping @Sendable (String) -> Void = { _ in },
                            coverRefreshed: @escaping @Sendable (String) -> Void = { _ in }) throws {
        try self.init(dataFolder: dataFolder, now: Date.init, warning: warning, coverRefreshed: coverRefreshed, migrationStep: { _ in })
    }

    /// With the clock and the step hook of the move, for tests.
    init(dataFolder: String, now: @escaping @Sendable () -> Date, warning: @escaping @Sendable (String) -> Void,
         coverRefreshed: @escaping @Sendable (String) -> Void, migrationStep: (Migration.Step) throws -> Void) throws {
        self.dataFolder = dataFolder
        folder = dataFolder + "/books"
        self.now = now
        self.warning = warning
        self.coverRefreshed = coverRefreshed
        do {
            try Folders.make(dataFolder, mode: 0o700)
        } catch {
            throw ShelfError(error, failure: "cannot make the data folder")
        }
        try BookFiles.makeFolder(folder)
        let (lock, alone) = try takeShelfLock()
        state.withLock { $0.shelfLock = lock }
        var entries = scan()
        if alone {
            // Only libraries write these files, and no other has the shelf open.
            for id in entries.keys { BookFiles.removeTemporaries(in: path(id), for: [ShelfEntry.fileName, CoverPicture.fileName]) }
        }
        let migrated = try Migration.run(from: dataFolder, into: folder, id: { makeID() }, entry: {
            newEntry(created: now(), among: Array(entries.values))
        }, step: migrationStep)
        if let migrated, let entry = loadEntry(migrated) { entries[migrated] = entry }
        state.withLock { $0.entries = entries }
    }

    deinit {
        state.withLock { if $0.shelfLock >= 0 { Glibc.close($0.shelfLock) } }
    }

    // MARK: - BookShelf

    public var books: [ShelfBook] {
        state.withLock { state in
            state.entries.sorted { ($0.value.created, $0.key) > ($1.value.created, $1.key) }.map { book($0.key, $0.value) }
        }
    }

    public func createBook() throws -> ShelfBook {
        try writes.withLock {
            let entries = state.withLock { Array($0.entries.values) }
            let entry = newEntry(created: now(), among: entries)
            let id = try makeBookFolder()
            do {
                try entry.write(in: path(id))
                try BookFiles.sync(folder)
            } catch {
                try? BookFiles.removeTree(path(id))
                throw error
            }
            state.withLock { $0.entries[id] = entry }
            return book(id, entry)
        }
    }

    public func deleteBook(id: String) throws {
        try writes.withLock {
            guard state.withLock({ $0.entries[id] }) != nil else { throw ShelfError.noSuchBook(id: id) }
            let lock = try BookLock(path(id), action: "deleted")
            try BookFiles.makeFolder(trashFolder)
            // A book of the same id left in the trash by a run that ended before emptying it.
            try BookFiles.removeTree(trashFolder + "/" + id)
            try BookFiles.move(path(id), to: trashFolder + "/" + id)
            _ = consume lock
            state.withLock { state in
                state.entries[id] = nil
                state.covers[id] = nil
                state.tried[id] = nil
                state.deleted.append(id)
            }
        }
    }

    public func undoDelete() throws -> ShelfBook? {
        try writes.withLock {
            guard let id = state.withLock({ $0.deleted.last }) else { return nil }
            guard !BookFiles.isFolder(path(id)) else {
                throw ShelfError.io(path: path(id), reason: "is taken, so the deleted book stays in \(trashFolder)/\(id)")
            }
            try BookFiles.move(trashFolder + "/" + id, to: path(id))
            state.withLock { _ = $0.deleted.popLast() }
            guard let entry = loadEntry(id) else { throw ShelfError.noSuchBook(id: id) }
            state.withLock { $0.entries[id] = entry }
            return book(id, entry)
        }
    }

    public func rename(id: String, to name: String) throws {
        let name = try BookName.validated(name)
        try update(id) { $0.name = name }
    }

    public func setCoverColor(id: String, _ color: UInt32) throws {
        guard color <= 0xFF_FFFF else { throw ShelfError.badColor(color) }
        try update(id) { $0.coverColor = color }
    }

    public func coverPicture(id: String) -> Bitmap? {
        guard let (wanted, cached) = state.withLock({ state in state.entries[id].map { ($0.index?.coverKey, state.covers[id]) } }),
              wanted != Self.blankKey else { return nil }
        var picture = cached
        if picture == nil, let kept = CoverPicture.read(in: path(id)) {
            picture = kept
            state.withLock { $0.covers[id] = kept }
        }
        if picture?.key.hexKey != wanted || wanted == nil, state.withLock({ $0.tried[id] }) != wanted ?? "" { refreshSoon(id) }
        // A picture a few strokes behind is still the book's: it shows until the new one is drawn.
        return picture?.bitmap()
    }

    public func bookOpened(id: String) {
        // Later than every other book's even if the clock went back: the order is what counts.
        let latest = state.withLock { $0.entries.values.compactMap(\.opened).max() } ?? 0
        let opened = max(Int64((now().timeIntervalSince1970 * 1000).rounded(.down)), latest + 1)
        do {
            try update(id) { $0.opened = opened }
        } catch {
            warning("\(error); the next start may open another book")
        }
    }

    public func bookChanged(id: String) {
        state.withLock { $0.tried[id] = nil }
        refreshSoon(id)
    }

    public func close() {
        let deleted = state.withLock { state -> [String] in
            guard !state.closed else { return [] }
            state.closed = true
            return state.deleted
        }
        // The refresh under way finishes; those queued after it see `closed` and do nothing.
        queue.sync {}
        writes.withLock {
            for id in deleted {
                do {
                    try BookFiles.removeTree(trashFolder + "/" + id)
                } catch {
                    warning("\(error); it is removed at the next start")
                }
            }
        }
        state.withLock { state in
            state.deleted.removeAll()
            if state.shelfLock >= 0 { Glibc.close(state.shelfLock) }
            state.shelfLock = -1
        }
    }

    /// The folder of book `id`.
    public func path(_ id: String) -> String {
        folder + "/" + id
    }

    /// Waits until every cover refresh asked for so far is done (for `folio books`, benchmarks and tests).
    public func waitForCovers() {
        queue.sync {}
    }

    // MARK: - The books' folders

    private func book(_ id: String, _ entry: ShelfEntry) -> ShelfBook {
        ShelfBook(id: id, name: entry.name, coverColor: entry.coverColor, path: path(id),
                  sheets: entry.index?.sheets ?? 0, strokes: entry.index?.strokes ?? 0, opened: entry.opened)
    }

    /// Changes book `id`'s entry as it is on disk (another Folio may have changed it) and writes
    /// it; the shelf changes only once it is written.
    private func update(_ id: String, _ change: (inout ShelfEntry) -> Void) throws {
        try writes.withLock {
            guard let known = state.withLock({ $0.entries[id] }) else { throw ShelfError.noSuchBook(id: id) }
            let entry = try ShelfEntry.rewrite(in: path(id), fallback: known, patience: EntryLock.changePatience, change: change)
            state.withLock { $0.entries[id] = entry ?? known }
        }
    }

    /// A new book's entry: dated today (with a number when another book has that name), in the
    /// palette colour after the newest book's, with the index of an empty book.
    private func newEntry(created: Date, among entries: [ShelfEntry]) -> ShelfEntry {
        let newest = entries.max { $0.created < $1.created }
        return ShelfEntry(name: BookName.unique(BookName.dated(created), among: Set(entries.map(\.name))),
                          coverColor: CoverPalette.next(after: newest?.coverColor),
                          created: Int64((created.timeIntervalSince1970 * 1000).rounded(.down)),
                          index: ShelfEntry.Index(journal: .none, sheets: 1, strokes: 0, coverKey: Self.blankKey))
    }

    /// A new id: the time in UTC and random digits (`20261127-153000-1a2b3c4d`), readable and unique.
    private func makeID() -> String {
        var seconds = time_t(now().timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let stamp = String(format: "%04d%02d%02d-%02d%02d%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                           parts.tm_hour, parts.tm_min, parts.tm_sec)
        return stamp + "-" + String(format: "%08x", UInt32.random(in: .min ... .max))
    }

    /// Makes the folder of a new book under a new id.
    private func makeBookFolder() throws(ShelfError) -> String {
        for _ in 0..<8 {
            let id = makeID()
            if mkdir(path(id), 0o700) == 0 { return id }
            guard errno == EEXIST else { throw .io(path: path(id), reason: "cannot create the book's folder: \(errnoText())") }
        }
        throw .io(path: folder, reason: "every new book id tried was taken")
    }

    /// The books in the shelf folder: folders only (a link is never followed), hidden names left out.
    private func scan() -> [String: ShelfEntry] {
        var entries: [String: ShelfEntry] = [:]
        for id in BookFiles.names(in: folder) where !id.hasPrefix(".") && BookFiles.isFolder(path(id)) {
            entries[id] = loadEntry(id)
        }
        return entries
    }

    /// Book `id`'s entry, its index taken again when stale (and written back); a book without
    /// one gets a dated name and the first colour. Nil, with a warning, when its `shelf.json`
    /// is a link: such a book is left off the shelf.
    private func loadEntry(_ id: String) -> ShelfEntry? {
        let folder = path(id)
        var entry: ShelfEntry
        var hasEntry = true
        do {
            if let read = try ShelfEntry.read(in: folder) {
                entry = read
            } else {
                entry = defaultEntry(folder)
                hasEntry = false
            }
        } catch BookError.symlink(let link) {
            warning("\(link) is a symbolic link, which Folio neither follows nor replaces; the book is left off the shelf")
            return nil
        } catch {
            warning("\(error); the book is listed with a new name")
            entry = defaultEntry(folder)
        }
        guard entry.index?.journal != BookStamp.of(folder) else { return entry }
        let index: ShelfEntry.Index
        do {
            index = try BookIndex.take(in: folder).0
        } catch {
            warning("\(error); the book is listed as it was last read")
            return entry
        }
        entry.index = index
        // Neither an entry nor a book: a book another Folio is making, its entry on the way. One
        // written here could land after it and replace its name and colour.
        let fallback = hasEntry || BookStamp.of(folder) != .none ? entry : nil
        do {
            // Only the index is this listing's to write: the name and colour are as they are now.
            return try ShelfEntry.rewrite(in: folder, fallback: fallback, patience: EntryLock.repairPatience) {
                $0.index = index
            } ?? entry
        } catch {
            warning("\(error); the book's counts are taken again next time")
        }
        return entry
    }

    /// The entry of a book folder that has none (made by hand, or by an older Folio).
    private func defaultEntry(_ folder: String) -> ShelfEntry {
        var status = stat()
        let made = lstat(folder, &status) == 0 ? Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec)) : now()
        return ShelfEntry(name: BookName.dated(made), coverColor: CoverPalette.colors[0],
                          created: Int64(made.timeIntervalSince1970 * 1000), index: nil)
    }

    // MARK: - The shelf's lock and trash

    /// Takes the shelf lock shared; when no other library holds it, first empties the trash a
    /// run that ended without closing left behind. Returns the lock and whether it was alone.
    private func takeShelfLock() throws(ShelfError) -> (Int32, Bool) {
        let path = folder + "/" + Self.shelfLockName
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io(path: path, reason: "cannot open the shelf's lock file: \(errnoText())") }
        let alone = flock(fd, LOCK_EX | LOCK_NB) == 0
        if alone {
            do {
                try BookFiles.removeTree(trashFolder)
            } catch {
                warning("\(error); the trash is emptied at the next start")
            }
        }
        guard flock(fd, LOCK_SH) == 0 else {
            let text = errnoText()
            Glibc.close(fd)
            throw .io(path: path, reason: "flock: \(text)")
        }
        return (fd, alone)
    }
}
