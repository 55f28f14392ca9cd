import Foundation
import FolioSketchbook
import XCTest
@testable import FolioSettings

/// `[paper]` in config.toml: the paper new sheets get, each field checked on its own.
final class PaperSettingsTests: XCTestCase {
    func testPaperIsPlainByDefaultAndRoundTrips() throws {
        XCTAssertEqual(Settings().paper, .plain)
        XCTAssertTrue(SettingsFile.render(Settings()).contains("[paper]\n"))
        for kind in Paper.Kind.allCases {
            var settings = Settings()
            settings.paper = Paper(kind: kind, spacing: 12.5, color: 0x123456)
            let (read, problems) = SettingsFile.parse(SettingsFile.render(settings), name: "c.toml")
            XCTAssertEqual(problems, [])
            XCTAssertEqual(read.paper, settings.paper, "\(kind)")
        }
        let text = "[paper]\nkind = \"dotted\"\nspacing = 4\ncolor = \"#FF0000\"\n"
        XCTAssertEqual(SettingsFile.parse(text, name: "c.toml").settings.paper, Paper(kind: .dotted, spacing: 4, color: 0xFF0000))
        XCTAssertEqual(SettingsFile.parse("[paper]\nspacing = 400.0\n", name: "c.toml").settings.paper.spacing, 400)
    }

    /// A bad field is one line naming its line and range; the others still count.
    func testBadPaperValuesAreOneLineEachAndTheStandardIsUsed() {
        let text = """
        [paper]
        kind = "graph"
        spacing = 3.5
        color = "blue"
        """
        let (settings, problems) = SettingsFile.parse(text, name: "config.toml")
        XCTAssertEqual(problems, [
            "config.toml:2: paper.kind must be \"plain\", \"ruled\", \"squared\" or \"dotted\"; using \"plain\"",
            "config.toml:3: paper.spacing must be a number from 4 to 400; using 32",
            "config.toml:4: paper.color must be a colour like \"#B4C8DC\"; using \"#B4C8DC\"",
        ])
        XCTAssertEqual(settings.paper, .plain)
        let mixed = SettingsFile.parse("[paper]\nkind = \"ruled\"\nspacing = 1e9\nmargin = 3\n", name: "c.toml")
        XCTAssertEqual(mixed.problems, [
            "c.toml:4: unknown setting \"paper.margin\" (ignored)",
            "c.toml:3: paper.spacing must be a number from 4 to 400; using 32",
        ])
        XCTAssertEqual(mixed.settings.paper, Paper(kind: .ruled), "a good kind beside a bad spacing still counts")
        for bad in ["spacing = nan", "spacing = inf", "spacing = -32", "spacing = \"32\"", "kind = 1", "color = 11223344"] {
            let (read, problems) = SettingsFile.parse("[paper]\n\(bad)\n", name: "c.toml")
            XCTAssertEqual(problems.count, 1, bad)
            XCTAssertEqual(read.paper, .plain, bad)
        }
        XCTAssertEqual(SettingsFile.parse("paper = \"ruled\"\n", name: "c.toml").problems,
                       ["c.toml:1: \"paper\" must be a table ([paper]); using the defaults"])
    }
}
