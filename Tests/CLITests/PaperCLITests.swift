import FolioGeometry
import FolioPixels
import FolioRender
import FolioSketchbook
import Foundation
import XCTest

/// Paper through the command line: `replay --config` gives new sheets the configured paper,
/// `info` names each sheet's, and exports draw it under the ink (vector lines in SVG and PDF).
extension CLITests {
    /// A stroke on the first sheet, then Ctrl+N and a stroke on the new sheet.
    private var twoSheetsTrace: String {
        """
        {"t": 0, "kind": "touch.down", "id": 1, "x": 100, "y": 100}
        {"t": 0, "kind": "touch.frame"}
        {"t": 16, "kind": "touch.motion", "id": 1, "x": 300, "y": 200}
        {"t": 16, "kind": "touch.frame"}
        {"t": 33, "kind": "touch.up", "id": 1}
        {"t": 33, "kind": "touch.frame"}
        {"t": 500, "kind": "key", "keys": "ctrl+n", "state": "pressed"}
        {"t": 510, "kind": "key", "keys": "ctrl+n", "state": "released"}
        {"t": 1000, "kind": "touch.down", "id": 1, "x": 100, "y": 300}
        {"t": 1000, "kind": "touch.frame"}
        {"t": 1016, "kind": "touch.motion", "id": 1, "x": 300, "y": 250}
        {"t": 1016, "kind": "touch.frame"}
        {"t": 1033, "kind": "touch.up", "id": 1}
        {"t": 1033, "kind": "touch.frame"}
        """
    }

    func testReplayWithAConfiguredPaperSavesItAndInfoNamesIt() throws {
        let book = folder.appendingPathComponent("book").path
        let out = folder.appendingPathComponent("out").path
        let config = try write("config.toml", "[paper]\nkind = \"ruled\"\nspacing = 25\ncolor = \"#CC3333\"\n")
        let trace = try write("two.jsonl", twoSheetsTrace)
        let replay = try run(["replay", trace, "--size", "640x400", "--scale", "2", "--config", config, "--book", book, "--out", out])
        XCTAssertEqual(replay.status, 0, replay.stderr)
        XCTAssertEqual(replay.stderr, "")
        let info = try run(["info", "--book", book])
        XCTAssertEqual(info.stdout, #"{"sheets":[{"strokes":1,"paper":"ruled"},{"strokes":1,"paper":"ruled"}]}"# + "\n")
        XCTAssertEqual(try BookStore(directory: URL(fileURLWithPath: book)).load().sheets.map(\.paper),
                       Array(repeating: Paper(kind: .ruled, spacing: 25, color: 0xCC3333), count: 2))
        // The screen at scale 2: a line two buffer pixels thick at every 25 logical px.
        let screen = try PNG.read(from: out + "/final.png")
        for k in 1...6 {
            XCTAssertEqual(screen.pixel(x: 40, y: 50 * k), 0xFFCC_3333, "row \(k)")
            XCTAssertEqual(screen.pixel(x: 40, y: 50 * k + 1), 0xFFCC_3333, "row \(k)")
            XCTAssertEqual(screen.pixel(x: 40, y: 50 * k + 2), 0xFFFF_FFFF, "under row \(k)")
        }
        // Without --config the default paper is plain: a new book's sheets are plain.
        let plainBook = folder.appendingPathComponent("plain").path
        XCTAssertEqual(try run(["replay", trace, "--size", "640x400", "--book", plainBook]).status, 0)
        XCTAssertEqual(try run(["info", "--book", plainBook]).stdout,
                       #"{"sheets":[{"strokes":1,"paper":"plain"},{"strokes":1,"paper":"plain"}]}"# + "\n")
    }

    func testABadPaperSettingIsOneLineAndTheReplayGoesOn() throws {
        let config = try write("config.toml", "[paper]\nkind = \"lined\"\n")
        let trace = try write("two.jsonl", twoSheetsTrace)
        let book = folder.appendingPathComponent("book").path
        let replay = try run(["replay", trace, "--size", "640x400", "--config", config, "--book", book])
        XCTAssertEqual(replay.status, 0, replay.stderr)
        XCTAssertEqual(replay.stderr, "folio: \(config):2: paper.kind must be \"plain\", \"ruled\", \"squared\" or \"dotted\"; using \"plain\"\n")
        XCTAssertTrue(try run(["info", "--book", book]).stdout.contains(#""paper":"plain""#))
    }

    /// PNG, SVG and PDF of a squared sheet and a dotted one: the paper under the ink in each,
    /// as vector lines and dots in SVG and PDF (no image in the PDF).
    func testExportsDrawThePaperUnderTheInk() throws {
        let book = folder.appendingPathComponent("book").path
        var sketchbook = Sketchbook(sheets: [Sheet(paper: Paper(kind: .squared, spacing: 40, color: 0x2060C0)),
                                             Sheet(paper: Paper(kind: .dotted, spacing: 40, color: 0x2060C0))])
        sketchbook.append(Stroke(points: [Point(x: 20, y: 100), Point(x: 300, y: 100)]))
        try BookStore(directory: URL(fileURLWithPath: book)).openForWriting().save(sketchbook)

        let png = folder.appendingPathComponent("sheet.png").path
        XCTAssertEqual(try run(["export", "--book", book, "--sheet", "1", "--png", png, "--size", "320x200"]).status, 0)
        let picture = try PNG.read(from: png)
        XCTAssertEqual(picture.pixel(x: 10, y: 40), 0xFF20_60C0, "a row")
        XCTAssertEqual(picture.pixel(x: 80, y: 10), 0xFF20_60C0, "a column")
        XCTAssertEqual(picture.pixel(x: 80, y: 100), 0xFF00_00FF, "ink over the column")
        XCTAssertEqual(picture.pixel(x: 60, y: 60), 0xFFFF_FFFF)

        let svgPath = folder.appendingPathComponent("sheet.svg").path
        XCTAssertEqual(try run(["export", "--book", book, "--sheet", "1", "--svg", svgPath, "--size", "100x60"]).status, 0)
        let svg = try String(contentsOfFile: svgPath, encoding: .utf8)
        let lines = ##"<path d="M0 40.5L100 40.5M40.5 0L40.5 60M80.5 0L80.5 60" fill="none" stroke="#2060C0" stroke-width="1"/>"##
        XCTAssertTrue(svg.contains(lines), svg)
        XCTAssertLessThan(try XCTUnwrap(svg.range(of: lines)).lowerBound, try XCTUnwrap(svg.range(of: "#0000FF")).lowerBound,
                          "the paper lies under the ink")
        XCTAssertEqual(try run(["export", "--book", book, "--sheet", "2", "--svg", svgPath, "--size", "100x60"]).status, 0)
        XCTAssertTrue(try String(contentsOfFile: svgPath, encoding: .utf8).contains(
            ##"<path d="M40 40h0M80 40h0" fill="none" stroke="#2060C0" stroke-width="2" stroke-linecap="round"/>"##))

        let pdf = folder.appendingPathComponent("book.pdf").path
        XCTAssertEqual(try run(["export", "--book", book, "--pdf", pdf, "--size", "320x200"]).status, 0)
        let images = try runTool(try poppler("pdfimages"), ["-list", pdf]).split(separator: "\n")
        XCTAssertEqual(images.count, 2, "no image, only pdfimages' two header lines: \(images)")
        let prefix = folder.appendingPathComponent("page").path
        let pdftoppm = try poppler("pdftoppm")
        _ = try runTool(pdftoppm, ["-r", "192", "-png", "-f", "1", "-l", "1", "-singlefile", pdf, prefix])
        let page = try PNG.read(from: prefix + ".png")
        // 192 dpi is 2 pixels a logical pixel: the line at 40 covers rows 80 and 81.
        func blueish(_ v: UInt32) -> Bool { (v & 0xFF) > 0x90 && (v >> 16 & 0xFF) < 0x60 }
        XCTAssertTrue(blueish(page.pixel(x: 20, y: 80)) && blueish(page.pixel(x: 20, y: 81)), String(page.pixel(x: 20, y: 80), radix: 16))
        XCTAssertEqual(page.pixel(x: 20, y: 76), 0xFFFF_FFFF)
        XCTAssertTrue(blueish(page.pixel(x: 160, y: 20)), "a column at 80")
        _ = try runTool(pdftoppm, ["-r", "192", "-png", "-f", "2", "-l", "2", "-singlefile", pdf, prefix])
        let dots = try PNG.read(from: prefix + ".png")
        XCTAssertTrue(blueish(dots.pixel(x: 80, y: 80)), "a dot at (40, 40)")
        XCTAssertEqual(dots.pixel(x: 100, y: 80), 0xFFFF_FFFF, "paper between dots")
    }

    /// Taps on the places `folio controls` prints: the toolbar's paper moves the default on
    /// (written back to --config), papers the blank sheet, and Ctrl+Z takes one step back.
    func testTappingThePaperControlThroughATrace() throws {
        let printed = try run(["controls", "--size", "640x400"])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(printed.stdout.utf8)) as? [String: Any])
        let handle = try XCTUnwrap(object["handle"] as? [Double])
        let paper = try XCTUnwrap((object["controls"] as? [[String: Any]])?.first { $0["name"] as? String == "paper" }?["rect"] as? [Double])
        func tap(_ rect: [Double], at t: Int) -> String {
            let x = rect[0] + rect[2] / 2, y = rect[1] + rect[3] / 2
            return """
            {"t": \(t), "kind": "touch.down", "id": 1, "x": \(x), "y": \(y)}
            {"t": \(t), "kind": "touch.frame"}
            {"t": \(t + 50), "kind": "touch.up", "id": 1}
            {"t": \(t + 50), "kind": "touch.frame"}
            """
        }
        let undo = """
        {"t": 900, "kind": "key", "keys": "ctrl+z", "state": "pressed"}
        {"t": 910, "kind": "key", "keys": "ctrl+z", "state": "released"}
        """
        let trace = try write("paper.jsonl", [tap(handle, at: 0), tap(paper, at: 200), tap(paper, at: 400), undo].joined(separator: "\n"))
        let config = folder.appendingPathComponent("config.toml").path
        let book = folder.appendingPathComponent("book").path
        let result = try run(["replay", trace, "--size", "640x400", "--config", config, "--book", book])
        XCTAssertEqual(result.status, 0, result.stderr)
        let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((summary["toolbar"] as? [String: Any])?["paper"] as? String, "squared", "two taps: plain, ruled, squared")
        let events = (summary["events"] as? [[String: Any]] ?? []).compactMap { $0["event"] as? String }
        XCTAssertEqual(events.filter { $0 == "control.paper" }.count, 2)
        XCTAssertEqual(try run(["info", "--book", book]).stdout, #"{"sheets":[{"strokes":0,"paper":"ruled"}]}"# + "\n",
                       "the blank sheet took each paper; undo took the second back")
        let written = try String(contentsOfFile: config, encoding: .utf8)
        XCTAssertTrue(written.contains("[paper]\n") && written.contains("kind = \"squared\"\n"), written)
    }
}
