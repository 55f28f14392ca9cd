import FolioGeometry
import FolioPixels
import FolioRender
import FolioSketchbook
import Foundation
import XCTest
@testable import FolioToolbar
import FolioTools

/// The paper control shows the kind new sheets get: a sheet, with rules, a grid or dots on it.
final class PaperControlRenderTests: XCTestCase {
    func testThePaperControlShowsTheDefaultKind() throws {
        for scale in [1.0, 1.5, 2.0] {
            var toolbar = Toolbar(layout: ToolbarLayout(width: 1280, height: 800, scale: scale))
            let handle = toolbar.layout.handle
            toolbar.press(at: Point(x: handle.minX + 10, y: handle.minY + 10), time: 0)
            _ = toolbar.release(at: Point(x: handle.minX + 10, y: handle.minY + 10), cancelled: false, time: 0)
            let slot = try XCTUnwrap(toolbar.layout.slot(for: .paper))
            let origin = toolbar.layout.shownBounds.origin
            let area = PixelRect(covering: Rect(x: slot.rect.minX - origin.x, y: slot.rect.minY - origin.y,
                                                width: slot.rect.width, height: slot.rect.height), scale: scale)
            var icons: [[UInt32]] = []
            for kind in Paper.Kind.allCases {
                toolbar.paper = kind
                let image = ToolbarRenderer(scale: scale).render(toolbar, tools: ToolState())
                if let folder = ProcessInfo.processInfo.environment["FOLIO_TOOLBAR_RENDERS"] {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                    try PNG.write(image, to: "\(folder)/paper-\(kind.rawValue)-\(scale).png")
                }
                icons.append((area.y..<area.maxY).flatMap { y in (area.x..<area.maxX).map { image.pixel(x: $0, y: y) } })
            }
            XCTAssertEqual(Set(icons).count, 4, "each kind its own icon at \(scale)")
            // The icon's middle row: inked on ruled paper (a rule at its centre), not on plain.
            let dark = { (pixels: [UInt32]) in pixels.filter { ($0 >> 16) & 0xFF < 0x80 }.count }
            XCTAssertGreaterThan(dark(icons[1]), dark(icons[0]), "ruled draws more than plain at \(scale)")
            XCTAssertGreaterThan(dark(icons[2]), dark(icons[1]), "squared draws more than ruled at \(scale)")
        }
    }
}
