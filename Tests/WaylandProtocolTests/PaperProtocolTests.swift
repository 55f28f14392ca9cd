import Foundation
import FolioGeometry
import FolioToolbar
import TestCompositor
import XCTest

/// Paper in the live app over a real socket: a new book's sheet takes config.toml's paper, a tap
/// on the toolbar's paper gives the blank sheet the next kind, and both the book and the
/// settings keep it when the app quits.
final class PaperProtocolTests: XCTestCase {
    private let line: UInt32 = 0xFFCC_3333

    func testTheAppDrawsTheConfiguredPaperAndThePaperControlChangesIt() throws {
        let folio = try FolioUnderTest(width: 640, height: 480, subsurfaces: true,
                                       settings: "[paper]\nkind = \"ruled\"\nspacing = 40\ncolor = \"#CC3333\"\n")
        let layout = ToolbarLayout(width: 640, height: 480)
        // Ruled: every 40 px down, none across.
        let ruled = try folio.waitForImage("the ruled sheet") { image in
            (1...10).allSatisfy { image.pixel(x: 20, y: 40 * $0) == line } && image.pixel(x: 20, y: 41) != line
        }
        XCTAssertNotEqual(ruled.pixel(x: 40, y: 20), line, "no column on ruled paper")

        guard let paper = layout.slot(for: .paper) else { return XCTFail("the layout has no paper control") }
        try tap(center(layout.handle), folio)
        try folio.settle()
        try tap(center(paper.rect), folio)
        _ = try folio.waitForImage("the squared sheet") { image in
            image.pixel(x: 40, y: 20) == line && image.pixel(x: 80, y: 20) == line && image.pixel(x: 20, y: 40) == line
        }

        XCTAssertEqual(kill(folio.client.processIdentifier, SIGTERM), 0)
        XCTAssertEqual(try folio.client.waitForExit(), 0, folio.client.standardError)
        XCTAssertEqual(try bookInfo(folio.book).filter { !$0.isWhitespace }, #"{"sheets":[{"strokes":0,"paper":"squared"}]}"#)
        let settings = try String(contentsOfFile: folio.dataHome + "/config/folio/config.toml", encoding: .utf8)
        XCTAssertTrue(settings.contains("kind = \"squared\"\n") && settings.contains("spacing = 40.0\n")
                      && settings.contains("color = \"#CC3333\"\n"), settings)
    }

    private func center(_ r: Rect) -> Point { Point(x: r.minX + r.width / 2, y: r.minY + r.height / 2) }

    private func tap(_ p: Point, _ folio: FolioUnderTest) throws {
        try folio.compositor.sendTouch([.down(id: 7, x: p.x, y: p.y), .frame])
        try folio.compositor.sendTouch([.up(id: 7), .frame])
    }
}
