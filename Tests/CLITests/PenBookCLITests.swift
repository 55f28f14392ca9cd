import FolioGeometry
import FolioPixels
import FolioRender
import FolioSketchbook
import Foundation
import XCTest

/// A pen book through the command line: `folio replay --book` saves a pen's pressure, and
/// `folio export` draws it from the book as pressure ink in PNG, SVG and PDF.
extension CLITests {
    /// A level pen stroke at y = 200 from x = 40 to 600, its pressure rising from 0 to 1.
    private var rampTrace: String {
        var lines = [#"{"t": 0, "kind": "tablet.proximity_in", "tool": "pen"}"#,
                     #"{"t": 0, "kind": "tablet.motion", "x": 40, "y": 200, "pressure": 0, "tilt_x": 30, "tilt_y": -12.5}"#,
                     #"{"t": 0, "kind": "tablet.frame"}"#, #"{"t": 4, "kind": "tablet.down"}"#, #"{"t": 4, "kind": "tablet.frame"}"#]
        for i in 1...140 {
            lines.append(#"{"t": \#(4 + 4 * i), "kind": "tablet.motion", "x": \#(40 + 4 * i), "y": 200, "pressure": \#(Double(i) / 140)}"#)
            lines.append(#"{"t": \#(4 + 4 * i), "kind": "tablet.frame"}"#)
        }
        lines += [#"{"t": 600, "kind": "tablet.up"}"#, #"{"t": 600, "kind": "tablet.frame"}"#,
                  #"{"t": 610, "kind": "tablet.proximity_out"}"#, #"{"t": 610, "kind": "tablet.frame"}"#]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Rows in column `x` that are at least half ink (blue over white).
    private func inkHeight(_ bitmap: Bitmap, x: Int) -> Int {
        (0..<bitmap.height).filter { (bitmap.pixel(x: x, y: $0) >> 16 & 0xFF) < 0x80 && (bitmap.pixel(x: x, y: $0) & 0xFF) > 0x80 }.count
    }

    /// Ink widths along the ramp follow the default curve (2 px to 9 px), within a pixel.
    private func checkWidths(_ bitmap: Bitmap, scale: Double = 1, _ what: String, line: UInt = #line) {
        for x in stride(from: 80, through: 560, by: 80) {
            let expected = PressureCurve.standard.width(at: (Double(x) - 40) / 560) * scale
            XCTAssertEqual(Double(inkHeight(bitmap, x: Int(Double(x) * scale))), expected, accuracy: 1.0 * scale,
                           "\(what) at x = \(x)", line: line)
        }
    }

    func testAPenBookExportsItsPressureInk() throws {
        let book = folder.appendingPathComponent("book").path
        let trace = folder.appendingPathComponent("pen.jsonl")
        try Data(rampTrace.utf8).write(to: trace)
        let replay = try run(["replay", trace.path, "--size", "640x400", "--book", book])
        XCTAssertEqual(replay.status, 0, replay.stderr)
        let saved = try BookStore(directory: URL(fileURLWithPath: book)).load().sheet
        XCTAssertEqual(saved.strokes.count, 1)
        XCTAssertEqual(saved.strokes.first?.pressures?.count, 141, "the book keeps a pressure per point")
        XCTAssertEqual(saved.strokes.first?.tilts?.first, PenTilt(x: 30, y: -12.5))

        let png = folder.appendingPathComponent("sheet.png").path
        XCTAssertEqual(try run(["export", "--book", book, "--sheet", "1", "--png", png, "--size", "640x400"]).status, 0)
        checkWidths(try PNG.read(from: png), "PNG")

        let svg = folder.appendingPathComponent("sheet.svg").path
        XCTAssertEqual(try run(["export", "--book", book, "--sheet", "1", "--svg", svg, "--size", "640x400"]).status, 0)
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        XCTAssertTrue(text.contains("fill=\"#0000FF\" fill-rule=\"nonzero\""), "a filled outline, not a stroked path")
        XCTAssertFalse(text.contains("stroke-width"))
        XCTAssertEqual(text, SVGExport.document(for: saved, size: Size(width: 640, height: 400)))

        let pdf = folder.appendingPathComponent("book.pdf").path
        XCTAssertEqual(try run(["export", "--book", book, "--pdf", pdf, "--size", "640x400"]).status, 0)
        let prefix = folder.appendingPathComponent("page").path
        _ = try runTool(try poppler("pdftoppm"), ["-r", "192", "-png", "-singlefile", pdf, prefix])
        checkWidths(try PNG.read(from: prefix + ".png"), scale: 2, "PDF at 192 dpi")
    }
}
