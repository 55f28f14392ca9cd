import Foundation
import FolioFiles
import FolioToolbar
import FolioTools
import XCTest
@testable import FolioSettings

final class SettingsFileTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testRoundTripPrivatelyAndAtomically() throws {
        var settings = Settings()
        settings.palette = Palette(colors: [0x112233, 0x0000FF, 0xABCDEF, 0x000000, 0xFF0000, 0x00FF00], widths: [2, 4.5, 20])
        settings.ink = InkChoice(colorIndex: 2, widthIndex: 0)
        settings.perspective = 3500
        settings.edgeTurn = false
        settings.pinch = false
        settings.tapUndo = false
        settings.holdToShape = false
        settings.penOnly = true
        settings.barrelButton = .none
        let file = SettingsFile(path: folder.appendingPathComponent("folio/config.toml").path)
        try file.save(settings)
        let (loaded, problems) = file.load()
        XCTAssertEqual(problems, [])
        XCTAssertEqual(loaded, settings)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let folderAttributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("folio").path)
        XCTAssertEqual((folderAttributes[.posixPermissions] as? NSNumber)?.intValue, 0o700)
        // Written again, nothing is left beside it.
        try file.save(Settings())
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("folio").path), ["config.toml"])
        XCTAssertEqual(file.load().settings, Settings())
    }

    func testBadValuesAreReportedWithTheirLineAndTheDefaultIsUsed() {
        let text = """
        [ink]
        color = "#00FF00"
        width = 6

        [palette]
        widths = [1, 2, 900]

        [fold]
        perspective = "far"

        [gestures]
        pinch = "yes"
        edge_turn = false

        [pen]
        barrel_button = "rubber"
        """
        let (settings, problems) = SettingsFile.parse(text, name: "config.toml")
        XCTAssertEqual(problems, [
            "config.toml:6: palette.widths must be 3 numbers from 0.5 to 64; using the standard widths",
            "config.toml:2: ink.color must be one of palette.colors; using the first",
            "config.toml:9: fold.perspective must be a number from 500 to 20000; using 2000",
            "config.toml:12: gestures.pinch must be true or false; using true",
            "config.toml:16: pen.barrel_button must be \"eraser\" or \"none\"; using \"eraser\"",
        ])
        XCTAssertEqual(settings.ink.colorIndex, 0)
        XCTAssertEqual(settings.ink.widthIndex, 1, "6 (an integer) is the middle width")
        XCTAssertEqual(settings.palette, .standard)
        XCTAssertEqual(settings.perspective, 2000)
        XCTAssertTrue(settings.pinch)
        XCTAssertFalse(settings.edgeTurn, "good values beside bad ones still count")
        XCTAssertEqual(settings.barrelButton, .eraser)
        XCTAssertEqual(SettingsFile.parse("[pen]\nbarrel_button = \"none\"\n", name: "c.toml").settings.barrelButton, .none)
    }

    /// `gestures.tap_undo`: on unless set false, written back as read, and anything but a
    /// boolean is one line and the default.
    func testTapUndoIsOnByDefaultAndRoundTrips() {
        assertOnByDefaultAndRoundTrips("gestures", "tap_undo", \.tapUndo, bad: "1")
    }

    func testHoldToShapeIsOnByDefaultAndRoundTrips() {
        assertOnByDefaultAndRoundTrips("gestures", "hold_to_shape", \.holdToShape, bad: "\"yes\"")
    }

    func testInkPredictionIsOnByDefaultAndRoundTrips() {
        assertOnByDefaultAndRoundTrips("ink", "prediction", \.prediction, bad: "\"no\"")
    }

    func testLateCommitsAreOnByDefaultAndRoundTrip() {
        assertOnByDefaultAndRoundTrips("ink", "late_commits", \.lateCommits, bad: "0")
    }

    /// The boolean `table.key` (read into `flag`) is on by default and in the file written, off
    /// when set false and written back so, and `bad` is one problem line and the default.
    private func assertOnByDefaultAndRoundTrips(_ table: String, _ key: String, _ flag: KeyPath<Settings, Bool>, bad: String,
                                                file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(Settings()[keyPath: flag], file: file, line: line)
        XCTAssertTrue(SettingsFile.render(Settings()).contains("\(key) = true"), file: file, line: line)
        let off = SettingsFile.parse("[\(table)]\n\(key) = false\n", name: "c.toml")
        XCTAssertEqual(off.problems, [], file: file, line: line)
        XCTAssertFalse(off.settings[keyPath: flag], file: file, line: line)
        XCTAssertEqual(SettingsFile.parse(SettingsFile.render(off.settings), name: "c.toml").settings, off.settings, file: file, line: line)
        let wrong = SettingsFile.parse("[\(table)]\n\(key) = \(bad)\n", name: "c.toml")
        XCTAssertEqual(wrong.problems, ["c.toml:2: \(table).\(key) must be true or false; using true"], file: file, line: line)
        XCTAssertTrue(wrong.settings[keyPath: flag], file: file, line: line)
    }

    func testUnknownKeysAndTablesAreReportedAndIgnored() {
        let text = """
        theme = "dark"
        [ink]
        colour = "#0000FF"
        [toolbar]
        side = "left"
        """
        let (settings, problems) = SettingsFile.parse(text, name: "c.toml")
        XCTAssertEqual(problems, [
            "c.toml:3: unknown setting \"ink.colour\" (ignored)",
            "c.toml:1: unknown setting \"theme\" (ignored)",
            "c.toml:4: unknown setting \"toolbar\" (ignored)",
        ])
        XCTAssertEqual(settings, Settings())
    }

    func testBrokenMissingAndUnreadableFilesGiveTheDefaults() throws {
        let broken = SettingsFile.parse("[ink]\ncolor = \"#0000FF\"\nwidth = = 3\n", name: "c.toml")
        XCTAssertEqual(broken.settings, Settings())
        XCTAssertEqual(broken.problems.count, 1)
        XCTAssertTrue(broken.problems[0].hasPrefix("c.toml:3: "), broken.problems[0])
        XCTAssertTrue(broken.problems[0].hasSuffix("; using the default settings"), broken.problems[0])

        let missing = SettingsFile(path: folder.appendingPathComponent("none/config.toml").path).load()
        XCTAssertEqual(missing.settings, Settings())
        XCTAssertEqual(missing.problems, [])

        // A folder where the file should be cannot be read: one line, the defaults.
        let directory = folder.appendingPathComponent("config.toml")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let unreadable = SettingsFile(path: directory.path).load()
        XCTAssertEqual(unreadable.settings, Settings())
        XCTAssertEqual(unreadable.problems.count, 1)
        XCTAssertEqual(unreadable.problems[0], "\(directory.path) is a folder, not a file; using the default settings")
        // Saving over a folder fails with a line, and leaves no temporary file.
        XCTAssertThrowsError(try SettingsFile(path: directory.path).save(Settings()))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["config.toml"])
    }

    /// TOMLKit reads text only up to a NUL: the rest of the file would be lost unseen, and the
    /// file written back without it. A NUL is invalid TOML, named with its line.
    func testANulIsInvalidTOMLNamedWithItsLine() {
        let text = "[ink]\ncolor = \"#D81B1B\"\n# a note\u{0}\n[fold]\nperspective = 4000.0\n"
        let (settings, problems) = SettingsFile.parse(text, name: "c.toml")
        XCTAssertEqual(settings, Settings())
        XCTAssertEqual(problems, ["c.toml:3: invalid TOML: a NUL character, which TOML does not allow; using the default settings"])
    }

    /// A FIFO where the file should be is refused by its kind, never opened to wait for a writer.
    func testAFIFOIsNotReadAndNotWaitedFor() {
        let fifo = folder.appendingPathComponent("config.toml").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let (settings, problems) = SettingsFile(path: fifo).load()
        XCTAssertEqual(settings, Settings())
        XCTAssertEqual(problems, ["\(fifo) is a FIFO, not a regular file; using the default settings"])
    }

    func testTheDefaultPathFollowsXDGConfigHome() throws {
        XCTAssertEqual(try SettingsFile.defaultPath(in: UserFolders(environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/h"])),
                       "/cfg/folio/config.toml")
        XCTAssertEqual(try SettingsFile.defaultPath(in: UserFolders(environment: ["XDG_CONFIG_HOME": "rel", "HOME": folder.path])),
                       folder.path + "/.config/folio/config.toml")
        XCTAssertThrowsError(try SettingsFile.defaultPath(in: UserFolders(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/no/such/home"])))
    }
}
