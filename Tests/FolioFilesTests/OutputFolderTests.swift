import FolioFiles
import Foundation
import XCTest

/// `--out DIR`: made when missing; a link, a file, or a folder others may change is refused.
final class OutputFolderTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "folio-out-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    func testMissingFoldersAreMade() throws {
        let nested = folder + "/a/b/c/"
        try OutputFolder.prepare(nested)
        var isFolder: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: nested, isDirectory: &isFolder) && isFolder.boolValue)
        try OutputFolder.prepare(nested)
    }

    func testALinkOrAFileIsRefused() throws {
        let real = folder + "/real", link = folder + "/link", file = folder + "/file"
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        for path in [link, link + "/"] {
            XCTAssertThrowsError(try OutputFolder.prepare(path)) {
                XCTAssertEqual($0 as? FileWriteError, FileWriteError(path: path, kind: .symbolicLink))
            }
        }
        XCTAssertThrowsError(try OutputFolder.prepare(file)) {
            XCTAssertEqual("\($0)", "\(file) is not a folder")
        }
    }

    /// Group or world writable: only when it is the user's own. `user` stands in for another user.
    func testAFolderOthersMayChangeIsRefusedUnlessItIsTheUsers() throws {
        let shared = folder + "/shared", open = folder + "/open"
        for (path, mode) in [(shared, mode_t(0o777)), (open, mode_t(0o755)), (folder + "/group", mode_t(0o770))] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            XCTAssertEqual(chmod(path, mode), 0)
        }
        let me = geteuid(), someoneElse = geteuid() &+ 1
        try OutputFolder.check(shared, user: me)
        try OutputFolder.check(open, user: someoneElse)
        for path in [shared, folder + "/group"] {
            XCTAssertThrowsError(try OutputFolder.check(path, user: someoneElse)) {
                XCTAssertEqual($0 as? FileWriteError, FileWriteError(path: path, kind: .sharedFolder(owner: UInt32(me))))
            }
        }
    }

    func testFoldersAreKnownByDeviceAndInode() throws {
        let inner = folder + "/a/b"
        try FileManager.default.createDirectory(atPath: inner, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/alias", withDestinationPath: inner)
        let a = try XCTUnwrap(FileIdentity(folder + "/a"))
        XCTAssertEqual(FileIdentity(folder + "/alias"), FileIdentity(inner))
        XCTAssertTrue(FileIdentity.folders(containing: folder + "/alias/x.png").contains(a), "through a link, up by ..")
        XCTAssertFalse(FileIdentity.folders(containing: folder + "/x.png").contains(a))
        XCTAssertEqual(FileIdentity.folders(containing: folder + "/missing/x.png"), [])
    }
}
