import FolioFiles
import Foundation
import XCTest

/// A disk that fails one step with `code`, as a full or failing disk would.
private struct FailingSteps: WriteSteps {
    var failWrite: Int32?
    var failSync: Int32?

    func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> String? {
        // Part of the file reaches the disk before it fills.
        if let failWrite {
            _ = Glibc.write(fd, bytes.baseAddress, min(bytes.count, 3))
            return String(cString: strerror(failWrite))
        }
        return SystemWriteSteps().write(bytes, to: fd)
    }

    func sync(_ fd: Int32) -> String? {
        failSync.map { String(cString: strerror($0)) }
    }
}

/// The one writer of every file Folio writes: a failure or a refusal leaves what was there as
/// it was, and the only thing it ever removes is its own temporary.
final class AtomicFileTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "folio-files-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    func testAFailedWriteOrSyncKeepsTheFileAndLeavesNoTemporary() throws {
        let target = folder + "/final.png"
        let good = Data("the good file".utf8)
        try good.write(to: URL(fileURLWithPath: target))
        let cases: [(FailingSteps, String)] = [(FailingSteps(failWrite: ENOSPC), "write: No space left on device"),
                                               (FailingSteps(failWrite: EFBIG), "write: File too large"),
                                               (FailingSteps(failSync: EIO), "fsync: Input/output error")]
        for (steps, reason) in cases {
            XCTAssertThrowsError(try AtomicFile.replace(target, with: Data(repeating: 7, count: 100_000), mode: nil, steps: steps)) {
                let error = $0 as? FileWriteError
                XCTAssertEqual(error, FileWriteError(path: target, kind: .failed, reason: reason))
                XCTAssertEqual("\($0)", "\(target): cannot write (nothing was replaced): \(reason)")
            }
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: target)), good)
            XCTAssertEqual(try contents(), ["final.png"], "no temporary is left")
        }
        try AtomicFile.replace(target, with: Data("new".utf8), mode: nil)
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "new")
    }

    func testALinkAtTheTargetIsRefusedAndWhereItPointsIsUntouched() throws {
        let victim = folder + "/victim", link = folder + "/out.png", dangling = folder + "/dangling.png"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: folder + "/created-through-link")
        for path in [link, dangling] {
            XCTAssertThrowsError(try AtomicFile.replace(path, with: Data("png".utf8), mode: nil)) {
                XCTAssertEqual($0 as? FileWriteError, FileWriteError(path: path, kind: .symbolicLink))
                XCTAssertEqual("\($0)", "\(path) is a symbolic link, which Folio neither follows nor replaces")
            }
        }
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), victim)
        XCTAssertEqual(try contents(), ["dangling.png", "out.png", "victim"])
    }

    /// A FIFO or a folder at the target is refused before anything is made, and stays.
    func testAnythingButARegularFileIsRefusedAndKept() throws {
        let fifo = folder + "/fifo.png", directory = folder + "/folder.png"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        for path in [fifo, directory] {
            XCTAssertThrowsError(try AtomicFile.replace(path, with: Data("png".utf8), mode: nil)) {
                XCTAssertEqual($0 as? FileWriteError, FileWriteError(path: path, kind: .notRegularFile))
                XCTAssertEqual("\($0)", "\(path): cannot write (nothing was replaced): not a regular file, which Folio never replaces")
            }
        }
        var status = stat()
        XCTAssertEqual(lstat(fifo, &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFIFO)
        XCTAssertEqual(lstat(directory, &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFDIR)
        XCTAssertEqual(try contents(), ["fifo.png", "folder.png"])
    }

    /// The longest names a file may have (255 bytes, in ASCII or not) can be written.
    func testEveryValidNameCanBeWritten() throws {
        let names = [String(repeating: "a", count: 251) + ".png", String(repeating: "é", count: 125) + ".png",
                     String(repeating: "x", count: 248) + "€.svg"]
        for name in names {
            XCTAssertLessThanOrEqual(name.utf8.count, 255)
            try AtomicFile.replace(folder + "/" + name, with: Data(name.utf8), mode: nil)
            XCTAssertEqual(try String(contentsOfFile: folder + "/" + name, encoding: .utf8), name)
        }
        XCTAssertEqual(try contents(), names.sorted())
    }

    func testTemporaryNamesAreShortUnpredictableAndRecognised() {
        let names = (0..<100).map { _ in TemporaryName.make(for: "book.json") }
        XCTAssertEqual(Set(names).count, 100)
        XCTAssertTrue(names.allSatisfy { TemporaryName.isTemporary($0, for: "book.json") })
        XCTAssertTrue(names.allSatisfy { $0.hasPrefix(".book.json.") && $0.utf8.count == 31 })
        let long = String(repeating: "é", count: 127) + "x"
        let temporary = TemporaryName.make(for: long)
        XCTAssertLessThanOrEqual(temporary.utf8.count, 255)
        XCTAssertTrue(temporary.hasPrefix("." + String(repeating: "é", count: 116) + "."), temporary)
        XCTAssertTrue(TemporaryName.isTemporary(temporary, for: long))

        XCTAssertTrue(TemporaryName.isTemporary(".book.json.4242.tmp", for: "book.json", earlierPID: true), "the first Folios' names")
        XCTAssertFalse(TemporaryName.isTemporary(".book.json.4242.tmp", for: "book.json"), "a pid only where one was used")
        for other in ["book.json", ".book.json..tmp", ".book.json.notes.tmp", ".book.json.12.tmp.bak", ".sheet.png.1234.tmp",
                      ".book.json.deadbeef.tmp", ".book.json.0123456789ABCDEF.tmp", ".book.json.0123456789abcdef0.tmp",
                      ".book.json.0123456789abcde.tmp", ".book.json.04242.tmp", ".book.json.12345678.tmp", ".book.json.-1.tmp"] {
            XCTAssertFalse(TemporaryName.isTemporary(other, for: "book.json", earlierPID: true), other)
        }
    }
}
