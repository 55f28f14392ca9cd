import FolioSettings
import Foundation
import XCTest

/// Writing the settings back goes through the one writer: a link at `config.toml` is refused and
/// where it points is untouched; a write that works leaves a private file and no temporary.
final class SettingsSaveTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-settings-save-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testALinkAtTheFileIsRefusedAndItsTargetKept() throws {
        let victim = folder.appendingPathComponent("victim"), link = folder.appendingPathComponent("config.toml")
        try Data("precious".utf8).write(to: victim)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim)
        XCTAssertThrowsError(try SettingsFile(path: link.path).save(Settings())) {
            XCTAssertEqual("\($0)", "\(link.path) is a symbolic link, which Folio neither follows nor replaces")
        }
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "precious")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), victim.path)
    }

    func testASavedFileIsPrivateWithNoTemporaryLeft() throws {
        let path = folder.appendingPathComponent("folio/config.toml").path
        try SettingsFile(path: path).save(Settings())
        XCTAssertEqual(SettingsFile(path: path).load().settings, Settings())
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int, 0o600)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("folio").path), ["config.toml"])
    }

    func testAFolderThatCannotBeMadeIsOneLineInTheSystemsWords() throws {
        let blocker = folder.appendingPathComponent("folio")
        try Data("a file where the folder goes".utf8).write(to: blocker)
        let path = blocker.appendingPathComponent("sub/config.toml").path
        XCTAssertThrowsError(try SettingsFile(path: path).save(Settings())) {
            let message = "\($0)"
            XCTAssertTrue(message.hasSuffix("cannot create the folder: Not a directory"), message)
            XCTAssertFalse(message.contains("NSCocoaErrorDomain") || message.contains("\n"), message)
        }
        XCTAssertEqual(try String(contentsOf: blocker, encoding: .utf8), "a file where the folder goes")
    }
}
