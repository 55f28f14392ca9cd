import FolioFiles
import Foundation

/// What can go wrong with a sketchbook on disk; each says what and where in one line.
public enum BookError: Error, CustomStringConvertible, Equatable {
    /// The file exists but cannot be read as a book. It is left exactly as it is.
    case damaged(path: String, reason: String)
    /// Reading or writing failed (permissions, a full disk, …); the saved book is unchanged.
    case io(path: String, reason: String)
    /// A symbolic link where Folio keeps a file: refused, never followed or replaced.
    case symlink(path: String)
    /// Another Folio holds the book's write lock; `pid` is nil when it could not be read.
    case inUse(path: String, pid: Int32?)

    public var description: String {
        switch self {
        case let .damaged(path, reason): "\(path) is damaged and was left untouched: \(reason)"
        case let .io(path, reason): "\(path): \(reason)"
        case let .symlink(path): "\(path) is a symbolic link, which Folio neither follows nor replaces"
        case let .inUse(path, pid): "\(path) is in use by another Folio (pid \(pid.map(String.init) ?? "unknown"))"
        }
    }
}

/// A sketchbook folder (`$XDG_DATA_HOME/folio/` by default) holding `book.folio`, the book as
/// a snapshot followed by a journal of saves (docs/book-format.md), or a `book.json` written by
/// an earlier Folio, which the first writer migrates.
/// Anyone may read it (`load`); writing goes through `openForWriting`, which locks the book.
public struct BookStore: Sendable {
    public let directory: URL
    /// The book: a snapshot record, then one record per save.
    public var file: URL { directory.appendingPathComponent(BookJournal.fileName) }
    /// The whole-book JSON of format version 1, read and migrated, never written.
    public var legacyFile: URL { directory.appendingPathComponent("book.json") }
    /// Locked with `flock` by the one Folio writing the book; holds that Folio's pid.
    public var lockFile: URL { directory.appendingPathComponent(".folio.lock") }

    public init(directory: URL) {
        self.directory = directory
    }

    /// The default folder: `folio` in the data home, `$XDG_DATA_HOME` or `~/.local/share`.
    public static func defaultDirectory(in folders: UserFolders) throws(UserFolderError) -> URL {
        URL(fileURLWithPath: try folders.dataHome()).appendingPathComponent("folio")
    }

    /// Where the kept picture of the strokes with `key` (`SheetPicture.key`) goes.
    public func pictureFile(key: UInt64) -> URL {
        let digits = String(key, radix: 16)
        return directory.appendingPathComponent("sheet-\(String(repeating: "0", count: 16 - digits.count))\(digits).picture")
    }

    /// The picture files in the folder, with their keys.
    public func pictureFiles() -> [(name: String, key: UInt64)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.compactMap { name in Self.pictureKey(name).map { (name, $0) } }
    }

    /// `sheet-KEY.picture` for a temporary file `.sheet-KEY.picture.R.tmp`.
    private static func pictureTarget(ofTemporary name: String) -> String? {
        guard name.hasPrefix("."), name.count > 1 + 30 else { return nil }
        let target = String(name.dropFirst().prefix(30))
        return pictureKey(target) != nil ? target : nil
    }

    static func pictureKey(_ name: String) -> UInt64? {
        guard name.hasPrefix("sheet-"), name.hasSuffix(".picture"), name.count == 6 + 16 + 8 else { return nil }
        return UInt64(name.dropFirst(6).dropLast(8), radix: 16)
    }

    /// The saved book; a new empty one when the folder holds none yet. Reads without locking and
    /// writes nothing: a writer only appends whole records and renames whole snapshots into
    /// place, so this sees every save that finished. An incomplete last record (a crash, or a
    /// save being written right now) is left out and said through `warning`.
    public func load(warning: (String) -> Void = { _ in }) throws -> Sketchbook {
        if let bytes = try Self.readFile(file.path) {
            let (pages, torn, _) = try Self.decodeJournal(bytes, path: file.path)
            if let torn { warning(Self.tornMessage(file.path, torn, dropped: false)) }
            return pages.book
        }
        if let bytes = try Self.readFile(legacyFile.path) {
            return try BookFile.decode(Data(bytes), path: legacyFile.path)
        }
        return Sketchbook()
    }

    /// The whole file at `path`, or nil when there is none. Links and anything but a regular file
    /// are refused; a FIFO planted here does not hang the open (O_NONBLOCK).
    public static func readFile(_ path: String) throws -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            var status = stat()
            if code == ELOOP, lstat(path, &status) == 0, isLink(status) { throw BookError.symlink(path: path) }
            if code == ENOENT { return nil }
            throw BookError.io(path: path, reason: "cannot read: \(String(cString: strerror(code)))")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw BookError.io(path: path, reason: "cannot read: fstat: \(errnoText())") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw BookError.io(path: path, reason: "cannot read: not a regular file") }
        do {
            return try readFully(fd, sizeHint: Int(status.st_size))
        } catch {
            throw BookError.io(path: path, reason: "cannot read: \(error.words)")
        }
    }

    /// The book the bytes of a `book.folio` hold (a torn last record left out), or `.damaged`
    /// naming `path` and the offset: what every reader does, for the fuzzer.
    public static func decode(journal bytes: [UInt8], path: String) throws -> Sketchbook {
        try decodeJournal(bytes, path: path).0.book
    }

    /// The book a journal holds, with its torn tail (if any) and the size of its snapshot record.
    static func decodeJournal(_ bytes: [UInt8], path: String) throws -> (BookRecords.Pages, BookJournal.TornTail?, Int) {
        try bytes.withUnsafeBytes { buffer in
            let (records, torn) = try BookJournal.scan(buffer, path: path)
            var pages = BookRecords.Pages()
            for record in records {
                var reader = ByteReader(UnsafeRawBufferPointer(rebasing: buffer[record.payload]))
                do throws(BookRecords.Damage) {
                    switch record.kind {
                    case .snapshot: pages = try BookRecords.readSnapshot(&reader)
                    case .change: try BookRecords.applyChanges(&reader, to: &pages)
                    }
                } catch {
                    throw BookError.damaged(path: path, reason: "byte \(record.offset): \(error.reason)")
                }
            }
            let snapshot = records[0]
            return (pages, torn, snapshot.payload.count + BookJournal.recordOverhead)
        }
    }

    static func tornMessage(_ path: String, _ torn: BookJournal.TornTail, dropped: Bool) -> String {
        "\(path): the last save was cut short (\(torn.count) bytes from byte \(torn.offset) do not make a whole record); "
            + (dropped ? "it was dropped and the book opened as saved before it" : "read the book as saved before it")
    }

    /// Whether `path` names a file in this book's folder or in a folder within it, or one of the
    /// book's own files, by whatever path (links, `..`, a bind mount): compared by device and
    /// inode. An export must never go there, since it could replace the book.
    public func holds(_ path: String) -> Bool {
        if let book = FileIdentity(directory.path), FileIdentity.folders(containing: path).contains(book) { return true }
        guard let target = FileIdentity(path) else { return false }
        return [file, legacyFile, lockFile].contains { FileIdentity($0.path) == target }
    }

    /// Takes the book for writing: creates the folder (0700) if missing, takes its lock — or fails
    /// at once with `.inUse` — removes temporary files a crashed save left behind, drops an
    /// incomplete last record (said through `warning`), and migrates a version-1 `book.json`.
    public func openForWriting(warning: (String) -> Void = { _ in }) throws -> BookWriter {
        try openForWriting(warning: warning, sync: { fdatasync($0) })
    }

    /// `openForWriting` with the call that makes appended records durable and the one that writes
    /// the pid at the start of the lock file (returning what `pwrite` does): tests give ones that fail.
    func openForWriting(warning: (String) -> Void = { _ in }, sync: @escaping @Sendable (Int32) -> Int32,
                        writePid: ([UInt8], Int32) -> Int = { bytes, fd in bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } })
        throws -> BookWriter {
        try createFolder()
        let lock = try lock(writePid: writePid)
        do {
            try removeOrphanedTemporaries()
            return try BookWriter(store: self, lock: lock, sync: sync, warning: warning)
        } catch {
            close(lock)
            throw error
        }
    }

    private func createFolder() throws {
        let path = directory.path
        do {
            try Folders.make(directory.deletingLastPathComponent().path)
        } catch {
            throw BookError.io(path: path, reason: error.reason)
        }
        if mkdir(path, 0o700) == 0 {
            // chmod, not mkdir's mode alone: the umask may have removed bits.
            guard chmod(path, 0o700) == 0 else { throw BookError.io(path: path, reason: "chmod: \(errnoText())") }
        } else if errno != EEXIST {
            throw BookError.io(path: path, reason: "cannot create the folder: \(errnoText())")
        }
    }

    /// The locked lock file's descriptor, with this process's pid written in it if it can be.
    private func lock(writePid: ([UInt8], Int32) -> Int) throws -> Int32 {
        let path = lockFile.path
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == ELOOP { throw BookError.symlink(path: path) }
            throw BookError.io(path: path, reason: "cannot open the lock file: \(errnoText())")
        }
        var failure: String?
        var status = stat()
        if fstat(fd, &status) != 0 {
            failure = "fstat: \(errnoText())"
        } else if status.st_mode & S_IFMT != S_IFREG {
            failure = "not a regular file"
        } else if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EWOULDBLOCK {
                let holder = Self.holder(of: fd)
                close(fd)
                throw BookError.inUse(path: directory.path, pid: holder)
            }
            failure = "flock: \(errnoText())"
        } else if fchmod(fd, 0o600) != 0 {
            failure = "fchmod: \(errnoText())"
        } else {
            // The flock is what keeps a second Folio out; the pid only names the holder. So a
            // full disk does not keep the book from opening. The pid there is that of a Folio
            // gone (this one holds the flock): when ours cannot be written, none is left rather
            // than a wrong one, and a second Folio says the holder is unknown.
            let pid = Array("\(getpid())\n".utf8)
            _ = ftruncate(fd, writePid(pid, fd) == pid.count ? off_t(pid.count) : 0)
        }
        if let failure {
            close(fd)
            throw BookError.io(path: path, reason: failure)
        }
        return fd
    }

    /// The pid in a lock file another Folio holds. It writes the pid just after locking, so an
    /// empty file is read again for a moment before giving up.
    private static func holder(of fd: Int32) -> Int32? {
        for _ in 0..<50 {
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
            if count > 0, let pid = Int32(String(decoding: buffer[..<count], as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)) {
                return pid
            }
            usleep(10_000)
        }
        return nil
    }

    /// Removes the temporary files of saves that never finished (a crash, kill -9). Only regular
    /// files with Folio's temporary names; links are left alone. Called with the lock held, so no
    /// save is under way.
    private func removeOrphanedTemporaries() throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw BookError.io(path: directory.path, reason: "cannot list the folder: \(error.localizedDescription)")
        }
        let targets = [file.lastPathComponent, legacyFile.lastPathComponent] + names.filter { Self.pictureKey($0) != nil }
            + names.compactMap { Self.pictureTarget(ofTemporary: $0) }
        for name in names where targets.contains(where: {
            TemporaryName.isTemporary(name, for: $0, earlierPID: $0 == legacyFile.lastPathComponent)
        }) {
            let path = directory.appendingPathComponent(name).path
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            guard unlink(path) == 0 else {
                throw BookError.io(path: path, reason: "cannot remove this temporary file of an unfinished save: \(errnoText())")
            }
        }
    }
}

/// A book open for writing: holds the book's lock until it is released (at exit at the latest),
/// so no other Folio writes the book meanwhile, and the book as last saved, so each save appends
/// only what changed since.
///
/// Appending and syncing are separate steps: `append` writes a save's record at once (it then
/// survives the process being killed: the kernel holds it), `sync` makes every record appended
/// since the last sync durable with one `fdatasync` (it then survives a power cut). `save` does both.
public final class BookWriter: Sendable {
    public let store: BookStore
    private let lockDescriptor: Int32
    private let state: Locked<State>
    /// `fdatasync`, or what a test puts in its place.
    private let syncFile: @Sendable (Int32) -> Int32

    private struct State: ~Copyable {
        /// The book as `book.folio` holds it now (synced or not).
        var saved: Sketchbook
        /// The book as far as it is durable: what a failed sync falls back to.
        var synced: Sketchbook
        /// `book.folio` open for writing; -1 while the book has never been saved.
        var journal: Int32 = -1
        /// Where the next record goes: the end of the last whole record.
        var size = 0
        /// The end of the last durable record; below `size` while appended records await a sync.
        var syncedSize = 0
        /// Bytes of the snapshot record: the journal is compacted once its changes outgrow it.
        var snapshotSize = 0

        deinit {
            if journal >= 0 { close(journal) }
        }
    }

    /// Journals smaller than this are never compacted, whatever their snapshot's size.
    static let compactionFloor = 1 << 20

    fileprivate init(store: BookStore, lock: Int32, sync: @escaping @Sendable (Int32) -> Int32, warning: (String) -> Void) throws {
        self.store = store
        lockDescriptor = lock
        syncFile = sync
        var state = State(saved: Sketchbook(), synced: Sketchbook())
        let path = store.file.path
        if let bytes = try BookStore.readFile(path) {
            let (pages, torn, snapshotSize) = try BookStore.decodeJournal(bytes, path: path)
            state.saved = pages.book
            state.snapshotSize = snapshotSize
            state.size = torn?.offset ?? bytes.count
            state.journal = try Self.openJournal(path)
            if let torn {
                // The journal's job: an incomplete last record goes, so the next one follows whole ones.
                guard ftruncate(state.journal, off_t(torn.offset)) == 0, fsync(state.journal) == 0 else {
                    throw BookError.io(path: path, reason: "cannot drop the incomplete last record: \(errnoText())")
                }
                warning(BookStore.tornMessage(path, torn, dropped: true))
            }
        } else if let bytes = try BookStore.readFile(store.legacyFile.path) {
            // Version 1: the new file is made durable first, and only then the old one removed.
            state.saved = try BookFile.decode(Data(bytes), path: store.legacyFile.path)
            try Self.writeSnapshot(state.saved, into: &state, path: path)
            guard unlink(store.legacyFile.path) == 0 else {
                throw BookError.io(path: store.legacyFile.path, reason: "migrated to \(path), but cannot remove the old file: \(errnoText())")
            }
            do {
                try AtomicFile.syncFolder(store.directory.path, for: path)
            } catch {
                throw BookError(error, failure: "cannot migrate")
            }
        }
        state.synced = state.saved
        state.syncedSize = state.size
        self.state = Locked(state)
    }

    deinit {
        // Closing the descriptor releases the flock; the lock file stays for the next writer.
        close(lockDescriptor)
    }

    /// The book as saved: what was on disk when the writer opened it, then what it last saved.
    public var book: Sketchbook { state.withLock { $0.saved } }

    /// Whether records were appended since the last sync (they would not survive a power cut yet).
    public var hasUnsyncedSaves: Bool { state.withLock { $0.size != $0.syncedSize } }

    /// Saves `book` and makes it durable: `append`, then `sync`.
    public func save(_ book: Sketchbook) throws {
        try append(book)
        try sync()
    }

    /// Appends one record with what changed since the last save (nothing when nothing did), with
    /// `pwrite` and no sync: once this returns the save survives the process being killed, and
    /// `sync` makes it survive a power cut. The first save of a new book writes its snapshot
    /// atomically and durably (temporary file, fsync, rename, fsync of the folder), and so does
    /// compaction, when the journal has grown past its snapshot. On failure the file is as before
    /// the call, and the next save writes the same changes again.
    public func append(_ book: Sketchbook) throws {
        let path = store.file.path
        try state.withLock { state in
            guard state.journal >= 0 else { return try Self.writeSnapshot(book, into: &state, path: path) }
            let changes: [BookRecords.Change]
            do throws(BookRecords.OutOfRange) {
                changes = try BookRecords.changes(from: state.saved, to: book)
            } catch {
                throw BookError.io(path: path, reason: "cannot save (the previous save is kept): \(error.reason)")
            }
            guard !changes.isEmpty else {
                state.saved = book
                if state.size == state.syncedSize { state.synced = book }
                return
            }
            let record = BookJournal.record(.change, payload: BookRecords.payload(changes))
            if let problem = Self.write(record, to: state.journal, at: state.size) {
                // Whatever part reached the file goes again, so the journal ends on a whole record.
                _ = ftruncate(state.journal, off_t(state.size))
                throw BookError.io(path: path, reason: "cannot save (the previous save is kept): \(problem)")
            }
            state.size += record.count
            state.saved = book
            if state.size - BookJournal.headerSize - state.snapshotSize > max(Self.compactionFloor, state.snapshotSize) {
                // Best effort: the changes are in the journal already; a failure here is tried
                // again at the next save.
                try? Self.writeSnapshot(book, into: &state, path: path)
            }
        }
    }

    /// Makes every record appended since the last sync durable with one `fdatasync` (nothing to
    /// do when there is none). If it fails, the records since the last good sync are taken off
    /// the file and the next save appends their changes again: the error says so, and the book
    /// in memory, the caller's, is all there is of them until then.
    public func sync() throws {
        let path = store.file.path
        try state.withLock { state in
            guard state.size != state.syncedSize else { return }
            guard syncFile(state.journal) == 0 else {
                let text = errnoText()
                _ = ftruncate(state.journal, off_t(state.syncedSize))
                state.size = state.syncedSize
                state.saved = state.synced
                throw BookError.io(path: path, reason: "cannot make the latest saves durable (they are written again at the next save): fdatasync: \(text)")
            }
            state.syncedSize = state.size
            state.synced = state.saved
        }
    }

    /// Replaces `book.folio` with a header and one snapshot of `book`, atomically, and reopens it.
    /// Sheets' papers follow the snapshot in a changes record of the same write (none when every
    /// sheet is plain).
    private static func writeSnapshot(_ book: Sketchbook, into state: inout State, path: String) throws {
        var snapshot: [UInt8]
        do throws(BookRecords.OutOfRange) {
            snapshot = BookJournal.fileHeader() + BookJournal.record(.snapshot, payload: try BookRecords.snapshot(book))
            let papers = BookRecords.papers(of: book)
            if !papers.isEmpty { snapshot += BookJournal.record(.change, payload: BookRecords.payload(papers)) }
        } catch {
            throw BookError.io(path: path, reason: "cannot save (the previous save is kept): \(error.reason)")
        }
        do {
            try AtomicFile.replace(path, with: Data(snapshot), mode: 0o600)
        } catch {
            throw BookError(error, failure: "cannot save (the previous save is kept)")
        }
        let journal = try openJournal(path)
        if state.journal >= 0 { close(state.journal) }
        state.journal = journal
        state.size = snapshot.count
        // The papers' record counts with the snapshot: were it weighed as journal, a book of many
        // papered sheets would compact at every save.
        state.snapshotSize = snapshot.count - BookJournal.headerSize
        state.saved = book
        state.syncedSize = state.size
        state.synced = book
    }

    /// `book.folio` opened for writing records at explicit offsets, made 0600 whatever it was.
    private static func openJournal(_ path: String) throws -> Int32 {
        let fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ELOOP { throw BookError.symlink(path: path) }
            throw BookError.io(path: path, reason: "cannot open for writing: \(errnoText())")
        }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, fchmod(fd, 0o600) == 0 else {
            let text = errnoText()
            close(fd)
            throw BookError.io(path: path, reason: "cannot open for writing: \(text)")
        }
        return fd
    }

    /// Writes `record` at `offset`; the failure's words, or nil.
    private static func write(_ record: [UInt8], to fd: Int32, at offset: Int) -> String? {
        record.withUnsafeBytes { writeFully($0, to: fd, at: offset) }.map { "write: \($0)" }
    }
}
