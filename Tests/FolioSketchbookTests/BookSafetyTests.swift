import FolioFiles
import FolioGeometry
import Foundation
import XCTest
@testable import FolioSketchbook

/// Privacy, links, crashes and concurrent writers (docs/book-format.md, "Saving").
final class BookSafetyTests: XCTestCase {
    private var scratch: URL!
    private var folder: URL!
    private var store: BookStore { BookStore(directory: folder) }

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("folio-safety-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        folder = scratch.appendingPathComponent("book")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    private func book(strokes: Int) -> Sketchbook {
        var sheet = Sheet()
        for index in 0..<strokes {
            sheet.append(Stroke(points: [Point(x: Double(index), y: 1), Point(x: 5, y: 9)]))
        }
        return Sketchbook(sheets: [sheet], currentSheet: 0)
    }

    private func mode(_ url: URL) throws -> Int {
        var status = stat()
        guard lstat(url.path, &status) == 0 else { throw BookError.io(path: url.path, reason: "lstat failed") }
        return Int(status.st_mode & 0o7777)
    }

    private func isLink(_ url: URL) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) != nil
    }

    /// A victim file outside the book that a planted link points at.
    private func victim() throws -> URL {
        let url = scratch.appendingPathComponent("victim.txt")
        try Data("precious".utf8).write(to: url)
        return url
    }

    func testAFolderThatCannotBeMadeIsOneLineInTheSystemsWords() throws {
        let blocker = scratch.appendingPathComponent("shelf")
        try Data("a file where a folder goes".utf8).write(to: blocker)
        let nested = BookStore(directory: blocker.appendingPathComponent("inner/book"))
        XCTAssertThrowsError(try nested.openForWriting()) {
            let message = "\($0)"
            XCTAssertTrue(message.hasSuffix("cannot create the folder: Not a directory"), message)
            XCTAssertFalse(message.contains("NSCocoaErrorDomain") || message.contains("\n"), message)
        }
    }

    func testFoldersAre0700AndFiles0600UnderAnyUmask() throws {
        for mask: mode_t in [0o022, 0o077, 0o000] {
            let previous = umask(mask)
            defer { umask(previous) }
            try? FileManager.default.removeItem(at: folder)
            let writer = try store.openForWriting()
            try writer.save(book(strokes: 1))
            XCTAssertEqual(try mode(folder), 0o700, "umask \(String(mask, radix: 8))")
            XCTAssertEqual(try mode(store.file), 0o600, "umask \(String(mask, radix: 8))")
            XCTAssertEqual(try mode(store.lockFile), 0o600, "umask \(String(mask, radix: 8))")
            try writer.save(book(strokes: 2))
            XCTAssertEqual(try mode(store.file), 0o600, "a 0600 book stays 0600 at the next save")
        }
    }

    func testAnOlderWorldReadableBookBecomesPrivateAtTheNextSave() throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try VersionOneBooks.encode(book(strokes: 1)).write(to: store.legacyFile)
        XCTAssertEqual(chmod(store.legacyFile.path, 0o644), 0)
        try store.openForWriting().save(book(strokes: 1))
        XCTAssertEqual(try mode(store.file), 0o600)
    }

    func testABookFileThatIsALinkIsRefusedAndKept() throws {
        let target = try victim()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: store.file, withDestinationURL: target)
        XCTAssertThrowsError(try store.load()) { XCTAssertEqual($0 as? BookError, .symlink(path: self.store.file.path)) }
        XCTAssertThrowsError(try store.openForWriting().save(book(strokes: 1))) {
            XCTAssertEqual($0 as? BookError, .symlink(path: self.store.file.path))
            XCTAssertTrue("\($0)".contains("\(self.store.file.path) is a symbolic link"), "\($0)")
        }
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "precious", "never followed")
        XCTAssertTrue(isLink(store.file), "never replaced")
    }

    func testADanglingBookLinkIsRefusedNotANewBook() throws {
        let target = scratch.appendingPathComponent("elsewhere.json")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: store.file.path, withDestinationPath: target.path)
        XCTAssertThrowsError(try store.load()) { XCTAssertEqual($0 as? BookError, .symlink(path: self.store.file.path)) }
        XCTAssertThrowsError(try store.openForWriting().save(book(strokes: 1)))
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.path), "nothing written through the link")
        XCTAssertTrue(isLink(store.file))
    }

    func testALinkAtTheLockFileIsRefused() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = try victim()
        let dangling = scratch.appendingPathComponent("no-such-lock")
        for destination in [target.path, dangling.path] {
            try? FileManager.default.removeItem(at: store.lockFile)
            try FileManager.default.createSymbolicLink(atPath: store.lockFile.path, withDestinationPath: destination)
            XCTAssertThrowsError(try store.openForWriting()) {
                XCTAssertEqual($0 as? BookError, .symlink(path: self.store.lockFile.path))
            }
        }
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "precious")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dangling.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.file.path), "no book written")
    }

    func testALinkAtATemporaryNameCannotRedirectASave() throws {
        let target = try victim()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // The name earlier Folios used, and any name: an exclusive, no-follow create refuses both.
        let oldName = folder.appendingPathComponent(".book.json.\(getpid()).tmp")
        try FileManager.default.createSymbolicLink(at: oldName, withDestinationURL: target)
        let planted = folder.appendingPathComponent(TemporaryName.make(for: "book.json"))
        let dangling = scratch.appendingPathComponent("created-through-link")
        try FileManager.default.createSymbolicLink(atPath: planted.path, withDestinationPath: dangling.path)
        for link in [oldName, planted] {
            XCTAssertEqual(AtomicFile.createExclusive(link.path, mode: 0o600), -1)
            XCTAssertEqual(errno, EEXIST)
        }
        try store.openForWriting().save(book(strokes: 3))
        XCTAssertEqual(try store.load().sheet.strokes.count, 3)
        XCTAssertFalse(isLink(store.file))
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "precious")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dangling.path))
    }

    func testOrphanedTemporariesAreRemovedAtOpen() throws {
        let target = try victim()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try VersionOneBooks.encode(book(strokes: 2)).write(to: store.legacyFile)
        let orphans = [".book.json.0123456789abcdef.tmp", ".book.json.4242.tmp", ".book.folio.00000000deadbeef.tmp",
                       ".sheet-0123456789abcdef.picture.fedcba9876543210.tmp"]
        for name in orphans { try Data(repeating: 7, count: 4096).write(to: folder.appendingPathComponent(name)) }
        // Only the documented names: 16 hex digits, and a pid for book.json alone.
        let kept = [".book.json.notes.tmp", "notes.txt", ".book.folio.deadbeef.tmp", ".book.folio.4242.tmp",
                    ".book.folio.0123456789ABCDEF.tmp", ".book.json.0123456789abcdef0.tmp", ".book.json.04242.tmp",
                    ".sheet-0123456789abcdef.picture.1234.tmp"]
        for name in kept { try Data("mine".utf8).write(to: folder.appendingPathComponent(name)) }
        let link = ".book.json.fedcba9876543210.tmp"
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent(link), withDestinationURL: target)

        _ = try store.load()
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent(orphans[0]).path), "reading changes nothing")
        let writer = try store.openForWriting()
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(left, ([".folio.lock", "book.folio", link] + kept).sorted(), "migrated, orphans gone")
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "precious", "links are not followed")
        XCTAssertEqual(try store.load().sheet.strokes.count, 2, "the book itself is untouched")
        withExtendedLifetime(writer) {}
    }

    func testASecondWriterIsRefusedWithThePid() throws {
        var first: BookWriter? = try store.openForWriting()
        try first?.save(book(strokes: 1))
        let saved = try Data(contentsOf: store.file)
        XCTAssertThrowsError(try store.openForWriting()) { error in
            XCTAssertEqual(error as? BookError, .inUse(path: self.folder.path, pid: getpid()))
            XCTAssertEqual("\(error)", "\(self.folder.path) is in use by another Folio (pid \(getpid()))")
        }
        XCTAssertEqual(try Data(contentsOf: store.file), saved, "the refused writer touched nothing")
        try first?.save(book(strokes: 2))
        XCTAssertEqual(try store.load().sheet.strokes.count, 2, "the first writer keeps saving")
        first = nil
        try store.openForWriting().save(book(strokes: 3))
        XCTAssertEqual(try store.load().sheet.strokes.count, 3, "released at the end, the book opens again")
    }

    /// The lock is the flock; the pid in it only names the holder. A disk too full to write the
    /// pid does not keep the book from opening, and leaves no pid of a Folio gone to be blamed.
    func testAPidThatCannotBeWrittenDoesNotKeepTheBookFromOpening() throws {
        try store.openForWriting().save(book(strokes: 2))
        try Data("4242\n".utf8).write(to: store.lockFile)
        let full = try store.openForWriting(sync: { fdatasync($0) }, writePid: { _, _ in
            errno = ENOSPC
            return -1
        })
        XCTAssertEqual(full.book.sheet.strokes.count, 2, "opened for reading and drawing")
        XCTAssertEqual(try String(contentsOf: store.lockFile, encoding: .utf8), "", "no stale pid names the holder")
        XCTAssertThrowsError(try store.openForWriting(), "the flock still keeps a second Folio out") {
            XCTAssertEqual($0 as? BookError, .inUse(path: self.folder.path, pid: nil))
        }
        withExtendedLifetime(full) {}
    }

    /// A pid shorter than the one before it leaves nothing of the old one behind.
    func testThePidReplacesALongerOne() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("1234567890123\n".utf8).write(to: store.lockFile)
        let writer = try store.openForWriting()
        XCTAssertEqual(try String(contentsOf: store.lockFile, encoding: .utf8), "\(getpid())\n")
        withExtendedLifetime(writer) {}
    }

    func testExportsIntoTheBookFolderAreRecognised() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        XCTAssertTrue(store.holds(store.file.path))
        XCTAssertTrue(store.holds(folder.path + "/../book/sheet.png"))
        XCTAssertFalse(store.holds(scratch.appendingPathComponent("sheet.png").path))
        let alias = scratch.appendingPathComponent("alias")
        try FileManager.default.createSymbolicLink(at: alias, withDestinationURL: folder)
        XCTAssertTrue(store.holds(alias.appendingPathComponent("book.json").path), "through a linked folder too")
    }

    func testReplacingAFileKeepsItsPermissionsUnlessToldOtherwise() throws {
        let target = scratch.appendingPathComponent("sheet.svg")
        try Data("old".utf8).write(to: target)
        XCTAssertEqual(chmod(target.path, 0o640), 0)
        try AtomicFile.replace(target.path, with: Data("new".utf8), mode: nil)
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "new")
        XCTAssertEqual(try mode(target), 0o640)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path), ["sheet.svg"])
    }
}
