import XCTest
@testable import FolioRender

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
extension FoldLookTests {
    func testPrintDiffs() {
        guard ProcessInfo.processInfo.environment["FOLD_DUMP"] != nil else { return }
        let (w, h) = (640, 400)
        let canvas = makeTestCanvas(width: w, height: h)
        let renderer = FoldRenderer(pixelWidth: w, pixelHeight: h)
        renderer.prepare(canvas: canvas)
        let target = Bitmap(width: w, height: h)
        renderer.render(foldScale: 1, into: target, options: .init(background: .flat(0), shadows: false))
        var n = 0
        for y in 30..<h { for x in 0..<w where target.pixel(x: x, y: y) != canvas.pixel(x: x, y: y) && n < 5 {
            n += 1; print("s1", x, y, String(target.pixel(x: x, y: y), radix: 16), String(canvas.pixel(x: x, y: y), radix: 16)) } }
        for s in [0.9, 0.75, 0.6, 0.48] {
            renderer.render(foldScale: s, into: target, options: .init(background: .flat(0), shadows: false))
            let reference = ReferenceFold(renderer: renderer, scale: s)
            var m = 0
            for y in 0..<h { for x in 0..<w {
                guard let exact = reference.interiorPixel(x: x, y: y) else { continue }
                let got = target.pixel(x: x, y: y)
                var e = 0
                for shift: UInt32 in [0, 8, 16] { e = max(e, abs(Int((got >> shift) & 0xFF) - Int((exact >> shift) & 0xFF))) }
                if e > 8 && m < 6 { m += 1; print(s, x, y, String(got, radix: 16), String(exact, radix: 16)) }
            } }
        }
    }
}
extension FoldLookTests {
    func testPrintShade() {
        guard ProcessInfo.processInfo.environment["FOLD_DUMP"] != nil else { return }
        let renderer = FoldRenderer(pixelWidth: 640, pixelHeight: 400)
        renderer.prepare(canvas: makeTestCanvas(width: 640, height: 400))
        renderer.scene.setScale(1)
        let n = renderer.scene.pages[0].shadowLayer.transformToRoot
        print(n, n.normal)
        print(String(renderer.pageImage(index: 0, back: false).pixel(canvasColumn: 0, row: 30), radix: 16))
    }
}
extension FoldLookTests {
    func testPrintColumn() {
        guard ProcessInfo.processInfo.environment["FOLD_DUMP"] != nil else { return }
        let (w, h) = (640, 400)
        let renderer = FoldRenderer(pixelWidth: w, pixelHeight: h)
        renderer.prepare(canvas: makeTestCanvas(width: w, height: h))
        let target = Bitmap(width: w, height: h)
        renderer.render(foldScale: 0.9, into: target, options: .init(background: .flat(0), shadows: false))
        let reference = ReferenceFold(renderer: renderer, scale: 0.9)
        print((0..<30).map { y in "\(y):\(String(target.pixel(x: 184, y: y) & 0xFF, radix: 16))/\(reference.interiorPixel(x: 184, y: y).map { String($0 & 0xFF, radix: 16) } ?? "-")" }.joined(separator: " "))
        let img = renderer.pageImage(index: 0, back: false)
        print((0..<30).map { String(img.row(185)[$0] & 0xFF, radix: 16) }.joined(separator: " "))
    }
}
