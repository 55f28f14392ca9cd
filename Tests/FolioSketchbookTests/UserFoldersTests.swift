import FolioFiles
import Foundation
import XCTest

/// HOME and the XDG folders as the XDG Base Directory specification reads them, and nothing
/// read with its bytes replaced.
final class UserFoldersTests: XCTestCase {
    func testHomeMustBeAnAbsoluteFolderThatExists() throws {
        let home = FileManager.default.temporaryDirectory.path
        let file = home + "/folio-home-\(UUID().uuidString)"
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: file) }
        XCTAssertEqual(try UserFolders(environment: ["HOME": home]).dataHome(), home + "/.local/share")
        XCTAssertEqual(try UserFolders(environment: ["HOME": home]).configHome(), home + "/.config")
        for (value, message) in [("", "HOME is empty"), ("rel/home", "HOME (rel/home) is not an absolute path"),
                                 ("/no/such/home", "HOME (/no/such/home) is not a folder that exists"),
                                 (file, "HOME (\(file)) is not a folder that exists")] {
            XCTAssertThrowsError(try UserFolders(environment: ["HOME": value]).dataHome()) { error in
                XCTAssertEqual("\(error)", message)
            }
        }
        // An absolute XDG folder needs no HOME (Folio may make it); a relative one is ignored.
        XCTAssertEqual(try UserFolders(environment: ["HOME": "", "XDG_DATA_HOME": "/data"]).dataHome(), "/data")
        XCTAssertEqual(try UserFolders(environment: ["HOME": home, "XDG_CONFIG_HOME": "cfg"]).configHome(), home + "/.config")
    }

    func testBytesThatAreNotUTF8AreRefusedByName() {
        let folders = UserFolders(bytes: ["HOME": Array("/tmp/h".utf8) + [0xE9], "XDG_DATA_HOME": Array("/d".utf8) + [0xFF]])
        XCTAssertThrowsError(try folders.home()) { XCTAssertEqual("\($0)", "HOME is not UTF-8 text (Folio takes folders in UTF-8 only)") }
        XCTAssertThrowsError(try folders.dataHome()) { XCTAssertEqual("\($0)", "XDG_DATA_HOME is not UTF-8 text (Folio takes folders in UTF-8 only)") }
        XCTAssertEqual(try UserFolders(bytes: ["HOME": Array("/tmp".utf8)]).value("HOME"), "/tmp")
    }
}
