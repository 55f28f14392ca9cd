import FolioFiles
import Foundation
import XCTest
@testable import FolioSketchbook

final class PicturesFolderTests: XCTestCase {
    func testTheEnvironmentThenUserDirsThenNothing() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("folio-userdirs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: config) }
        let home = config.path
        func resolve(_ environment: [String: String]) throws -> String? {
            try PicturesFolder.resolve(in: UserFolders(environment: environment))
        }
        XCTAssertEqual(try resolve(["HOME": home, "XDG_PICTURES_DIR": "/data/pics/"]), "/data/pics")
        // No file: no pictures folder.
        XCTAssertNil(try resolve(["HOME": home, "XDG_CONFIG_HOME": config.path]))
        try Data("""
        # written by xdg-user-dirs-update
        XDG_DESKTOP_DIR="$HOME/Desktop"
        XDG_PICTURES_DIR="$HOME/Bilder"
        """.utf8).write(to: config.appendingPathComponent("user-dirs.dirs"))
        XCTAssertEqual(try resolve(["HOME": home, "XDG_CONFIG_HOME": config.path]), home + "/Bilder")
        // A relative XDG_PICTURES_DIR is not one: the file decides.
        XCTAssertEqual(try resolve(["HOME": home, "XDG_CONFIG_HOME": config.path, "XDG_PICTURES_DIR": "pics"]), home + "/Bilder")
        XCTAssertEqual(PicturesFolder.parse("\"/srv/art\"", home: "/h"), "/srv/art")
        XCTAssertNil(PicturesFolder.parse("$HOME/Pictures", home: "/h"), "unquoted")
        XCTAssertNil(PicturesFolder.parse("\"Pictures\"", home: "/h"), "relative")
        // "$HOME/…" with a HOME that does not exist names no folder to make: refused by name.
        XCTAssertThrowsError(try resolve(["HOME": home + "/missing", "XDG_CONFIG_HOME": config.path])) { error in
            XCTAssertEqual("\(error)", "HOME (\(home)/missing) is not a folder that exists")
        }
        // The home folder itself means the folder is disabled.
        try Data("XDG_PICTURES_DIR=\"$HOME/\"\n".utf8).write(to: config.appendingPathComponent("user-dirs.dirs"))
        XCTAssertNil(try resolve(["HOME": home, "XDG_CONFIG_HOME": config.path]))
    }
}
