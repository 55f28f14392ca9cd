import FolioCore
import FolioGeometry
import FolioPixels
@testable import FolioRender
import XCTest

/// The shelf bar at every width a window can have: no two buttons, nor their labels or icons,
/// overlap, nothing is drawn outside a button, and every control stays on the bar to be tapped.
final class ShelfBarFitTests: XCTestCase {
    private let controls = ShelfControl.allCases

    private func encloses(_ outer: Rect, _ inner: Rect) -> Bool {
        inner.minX >= outer.minX && inner.maxX <= outer.maxX && inner.minY >= outer.minY && inner.maxY <= outer.maxY
    }

    private func art(_ bar: ShelfBar, width: Double, scale: Double) -> Bitmap {
        ShelfBarArt.draw(faces: bar.slots.map(\.control.face), rects: bar.slots.map(\.rect), chosen: nil, disabled: [],
                         origin: Point(x: 0, y: 0), size: Size(width: width, height: bar.bounds.maxY + 4), scale: scale)
    }

    /// Pixels of `art` with any ink that lie outside every button (a pixel's centre, the
    /// buttons grown by one pixel for antialiasing).
    private func inkOutside(_ art: Bitmap, _ bar: ShelfBar, scale: Double) -> Int {
        var count = 0
        for y in 0..<art.height {
            for x in 0..<art.width where art.pixel(x: x, y: y) >> 24 != 0 {
                let p = Point(x: (Double(x) + 0.5) / scale, y: (Double(y) + 0.5) / scale)
                if !bar.slots.contains(where: { $0.rect.insetBy(dx: -1 / scale, dy: -1 / scale).contains(p) }) { count += 1 }
            }
        }
        return count
    }

    /// White pixels (a label's or an icon's ink on an unlit button) in `rect`, buffer px.
    private func inkInside(_ art: Bitmap, _ rect: Rect, scale: Double) -> (count: Int, box: Rect) {
        var count = 0, box = Rect.null
        let x0 = max(0, Int(rect.minX * scale)), x1 = min(art.width, Int((rect.maxX * scale).rounded(.up)))
        let y0 = max(0, Int(rect.minY * scale)), y1 = min(art.height, Int((rect.maxY * scale).rounded(.up)))
        for y in y0..<y1 {
            for x in x0..<x1 where art.pixel(x: x, y: y) & 0xFF > 0x80 {
                count += 1
                box = box.union(Rect(x: Double(x) / scale, y: Double(y) / scale, width: 1 / scale, height: 1 / scale))
            }
        }
        return (count, box)
    }

    func testNothingOverlapsAndEveryControlStaysReachableFrom200To1920() {
        for scale in [1.0, 1.5, 2.0] {
            // Every other width where the style changes, sparser beyond.
            let widths = scale == 1 ? Array(stride(from: 200.0, to: 700, by: 2)) + Array(stride(from: 700.0, through: 1920, by: 20))
                : Array(stride(from: 200.0, through: 1920, by: 29))
            for width in widths {
                let bar = ShelfBar(width: width)
                let rects = bar.slots.map(\.rect)
                XCTAssertEqual(bar.slots.map(\.control), controls, "every control on the bar at \(width)")
                let boxes = ShelfBarArt.contentBoxes(faces: bar.slots.map(\.control.face), rects: rects, scale: scale)
                for (i, (control, r)) in bar.slots.enumerated() {
                    XCTAssertGreaterThanOrEqual(r.minX, 0, "\(control) off the left at \(width)")
                    XCTAssertLessThanOrEqual(r.maxX, width, "\(control) off the right at \(width)")
                    XCTAssertGreaterThanOrEqual(r.width, 32, "\(control) too narrow to tap at \(width)")
                    XCTAssertEqual(bar.control(at: Point(x: r.minX + r.width / 2, y: r.minY + r.height / 2)), control, "at \(width)")
                    XCTAssertFalse(boxes[i].isEmpty, "\(control) shows nothing at \(width)")
                    XCTAssertTrue(encloses(r.insetBy(dx: ShelfBarArt.padding - 0.01, dy: ShelfBarArt.padding - 0.01), boxes[i]),
                                  "\(control)'s label or icon \(boxes[i]) leaves its button \(r) at \(width)×\(scale)")
                    for j in (i + 1)..<rects.count {
                        XCTAssertTrue(r.intersection(rects[j]).isEmpty, "buttons \(i) and \(j) overlap at \(width)")
                        XCTAssertTrue(boxes[i].intersection(boxes[j]).isEmpty, "labels \(i) and \(j) overlap at \(width)")
                    }
                }
                let drawn = art(bar, width: width, scale: scale)
                XCTAssertEqual(inkOutside(drawn, bar, scale: scale), 0, "ink outside the buttons at \(width)×\(scale)")
                for (i, r) in rects.enumerated() {
                    let ink = inkInside(drawn, r, scale: scale)
                    XCTAssertGreaterThan(ink.count, 10, "button \(i) blank at \(width)×\(scale)")
                    XCTAssertTrue(encloses(boxes[i].insetBy(dx: -1.5, dy: -1.5), ink.box),
                                  "button \(i)'s ink \(ink.box) outside its label box \(boxes[i]) at \(width)×\(scale)")
                }
            }
        }
    }

    func testTheBarFallsBackFromLabelsToShortLabelsToIcons() throws {
        func style(_ width: Double) -> ShelfBarArt.Style {
            let bar = ShelfBar(width: width)
            return ShelfBarArt.style(for: bar.slots.map(\.control.face), in: bar.slots.map(\.rect), scale: 1)
        }
        XCTAssertEqual(style(1920), .labels)
        XCTAssertEqual(style(608), .labels)
        XCTAssertEqual(style(260), .icons)
        let styles = stride(from: 200.0, through: 1920, by: 1).map(style)
        XCTAssertTrue(styles.contains(.shortLabels))
        // Wider never shows less.
        let rank: [ShelfBarArt.Style: Int] = [.icons: 0, .shortLabels: 1, .labels: 2]
        XCTAssertEqual(styles.map { rank[$0] ?? -1 }, styles.map { rank[$0] ?? -1 }.sorted())
        for width in [260.0, 420, 480, 800] {
            let bar = ShelfBar(width: width)
            try PNG.write(art(bar, width: width, scale: 2), to: "\(ShelfFixture.pngFolder())/shelf-bar-\(Int(width)).png")
        }
    }

    func testANarrowShelfShowsEveryControlAsAnIconOnItsButton() throws {
        let view = ShelfView(shelf: ShelfFixture.shelf(count: 3), width: 260, height: 520, pixelWidth: 520, pixelHeight: 1040, scale: 2)
        _ = view.render()
        try PNG.write(view.frame, to: "\(ShelfFixture.pngFolder())/shelf-narrow-260.png")
        // Each button has its icon's white ink, centred on it.
        for (control, r) in view.bar.slots {
            let ink = inkInside(view.frame, r.insetBy(dx: 2, dy: 2), scale: 2)
            XCTAssertGreaterThan(ink.count, 40, "\(control) shows nothing")
            let centre = Point(x: ink.box.minX + ink.box.width / 2, y: ink.box.minY + ink.box.height / 2)
            XCTAssertEqual(centre.x, r.minX + r.width / 2, accuracy: 3, "\(control)")
            XCTAssertLessThanOrEqual(ink.box.width, ShelfBarArt.iconSize + 2, "\(control)")
        }
    }
}
