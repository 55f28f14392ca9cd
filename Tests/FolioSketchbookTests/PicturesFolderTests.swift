import Foundation
import XCTest
@testable import FolioSketchbook

final class PicturesFolderTests: XCTestCase {
    func testTheEnvironmentThenUserDirsThenNothing() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("folio-userdirs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: config) }
        XCTAssertEqual(PicturesFolder.resolve(environment: ["HOME": "/home/me", "XDG_PICTURES_DIR": "/data/pics/"]), "/data/pics")
        // No file: no pictures folder.
        XCTAssertNil(PicturesFolder.resolve(environment: ["HOME": "/home/me", "XDG_CONFIG_HOME": config.path]))
        try Data("""
        # written by xdg-user-dirs-update
        XDG_DESKTOP_DIR="$HOME/Desktop"
        XDG_PICTURES_DIR="$HOME/Bilder"
        """.utf8).write(to: config.appendingPathComponent("user-dirs.dirs"))
        XCTAssertEqual(PicturesFolder.resolve(environment: ["HOME": "/home/me", "XDG_CONFIG_HOME": config.path]), "/home/me/Bilder")
        // A relative XDG_PICTURES_DIR is not one: the file decides.
        XCTAssertEqual(PicturesFolder.resolve(environment: ["HOME": "/home/me", "XDG_CONFIG_HOME": config.path, "XDG_PICTURES_DIR": "pics"]),
                       "/home/me/Bilder")
        XCTAssertEqual(PicturesFolder.parse("\"/srv/art\"", home: "/h"), "/srv/art")
        XCTAssertNil(PicturesFolder.parse("$HOME/Pictures", home: "/h"), "unquoted")
        XCTAssertNil(PicturesFolder.parse("\"Pictures\"", home: "/h"), "relative")
        // The home folder itself means the folder is disabled.
        try Data("XDG_PICTURES_DIR=\"$HOME/\"\n".utf8).write(to: config.appendingPathComponent("user-dirs.dirs"))
        XCTAssertNil(PicturesFolder.resolve(environment: ["HOME": "/home/me", "XDG_CONFIG_HOME": config.path]))
    }
}
