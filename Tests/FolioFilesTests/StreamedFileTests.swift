import FolioFiles
import Foundation
import XCTest

/// A file written in pieces (a video): the target is as it was until `commit()`, a discarded or
/// dropped writer leaves nothing behind, and what `AtomicFile` refuses is refused here too.
final class StreamedFileTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "folio-streamed-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder).sorted() }

    private func write(_ text: String, to file: StreamedFile, at offset: off_t = 0) {
        let bytes = Array(text.utf8)
        XCTAssertEqual(pwrite(file.descriptor, bytes, bytes.count, offset), bytes.count)
    }

    func testTheTargetChangesOnlyAtCommitAndKeepsItsMode() throws {
        let path = folder + "/video.mp4"
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o640)
        let file = try StreamedFile(path, mode: nil)
        write("new video", to: file)
        // The writer reads back what it wrote, as a muxer moving its index does.
        var back = [UInt8](repeating: 0, count: 3)
        XCTAssertEqual(pread(file.descriptor, &back, 3, 4), 3)
        XCTAssertEqual(String(decoding: back, as: UTF8.self), "vid")
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "old")
        XCTAssertEqual(try names().count, 2)
        XCTAssertTrue(TemporaryName.isTemporary((file.temporaryPath as NSString).lastPathComponent, for: "video.mp4"))
        try file.commit()
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "new video")
        XCTAssertEqual(try names(), ["video.mp4"])
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int, 0o640)
    }

    func testADiscardedOrDroppedWriterLeavesNothing() throws {
        let path = folder + "/video.mp4"
        let file = try StreamedFile(path, mode: 0o600)
        write("half a video", to: file)
        file.discard()
        XCTAssertEqual(try names(), [])
        do {
            let dropped = try StreamedFile(path, mode: nil)
            write("half", to: dropped)
        }
        XCTAssertEqual(try names(), [])
    }

    func testALinkOrAFolderAtTheTargetIsRefusedBeforeAnythingIsWritten() throws {
        let link = folder + "/link.mp4", target = folder + "/target"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        XCTAssertThrowsError(try StreamedFile(link, mode: nil)) { error in
            XCTAssertEqual((error as? FileWriteError)?.kind, .symbolicLink)
        }
        let taken = folder + "/taken.mp4"
        try FileManager.default.createDirectory(atPath: taken, withIntermediateDirectories: false)
        XCTAssertThrowsError(try StreamedFile(taken, mode: nil)) { error in
            XCTAssertEqual((error as? FileWriteError)?.kind, .notRegularFile)
        }
        XCTAssertEqual(try names(), ["link.mp4", "taken.mp4", "target"])
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "keep")
    }
}
