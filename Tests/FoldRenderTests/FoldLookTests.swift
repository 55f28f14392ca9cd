import XCTest
import FolioRender

final class FoldLookTests: XCTestCase {
    func testDumpFrames() {
        guard ProcessInfo.processInfo.environment["FOLD_DUMP"] != nil else { return }
        let r = FoldRenderer(pixelWidth: 960, pixelHeight: 600)
        r.prepare(canvas: makeTestCanvas(width: 960, height: 600))
        let target = Bitmap(width: 960, height: 600)
        for s in [1.0, 0.9, 0.75, 0.6, 0.48] {
            r.render(foldScale: s, into: target)
            dump(target, name: "fold-\(s)")
        }
    }
}
extension FoldLookTests {
    func testPrintRow() {
        guard ProcessInfo.processInfo.environment["FOLD_DUMP"] != nil else { return }
        let r = FoldRenderer(pixelWidth: 960, pixelHeight: 600)
        r.prepare(canvas: Bitmap(width: 960, height: 600, color: 0xFFFFFFFF))
        let target = Bitmap(width: 960, height: 600)
        r.render(foldScale: 0.9, into: target, options: .init(background: .flat(0x808080)))
        print((400..<500).map { String(target.pixel(x: $0, y: 280) & 0xFF) }.joined(separator: " "))
        print((0..<60).map { String(target.pixel(x: 300, y: $0) & 0xFF) }.joined(separator: " "))
        dump(target, name: "grey")
    }
}
extension FoldLookTests {
    func testPrintEdge() {
        guard ProcessInfo.processInfo.environment["FOLD_DUMP"] != nil else { return }
        let r = FoldRenderer(pixelWidth: 2560, pixelHeight: 1600)
        r.prepare(canvas: Bitmap(width: 2560, height: 1600, color: 0xFFFFFFFF))
        let target = Bitmap(width: 2560, height: 1600)
        r.render(foldScale: 0.48, into: target, options: .init(background: .flat(0), shadows: false))
        let full = Double(target.pixel(x: 1300, y: 800) & 0xFF)
        r.scene.setScale(0.48)
        let m = r.scene.pages[0].contentLayer.transformToRoot
        for x in stride(from: 1281, to: 1332, by: 3) {
            var above = 0.0
            for y in 0..<800 { above += 1 - Double(target.pixel(x: x, y: y) & 0xFF) / full }
            // exact: the top edge at this column centre
            let sx = Double(x) + 0.5
            let lx = (m.m41 - sx * m.m44) / (sx * m.m14 - m.m11)
            let w = lx * m.m14 + m.m44
            print(x, above, (m.m42) / w)
        }
    }
}
