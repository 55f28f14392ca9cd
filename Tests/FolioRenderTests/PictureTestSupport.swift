import FolioGeometry
import FolioPixels
import FolioSketchbook
import FolioRandom
import Foundation
import XCTest

/// `count` strokes of 1–6 points on a 300×200 area, widths 6 and 14 and random colours, the same
/// for the same `seed`: the sheets the picture tests draw, keep and compare.
func pictureTestStrokes(_ count: Int, seed: UInt64 = 1) -> [Stroke] {
    var random = SeededRandom(state: seed)
    func next(_ bound: Int) -> Double { Double(random.next(bound)) }
    return (0..<count).map { index in
        let start = Point(x: next(300), y: next(200))
        let points = (0..<(1 + Int(next(6)))).map { Point(x: start.x + Double($0) * next(20), y: start.y + next(30) - 15) }
        return Stroke(points: points, style: InkStyle(width: index % 3 == 0 ? 14 : 6, color: UInt32(next(0x100_0000))))
    }
}

/// Fails unless `a` and `b` hold the same pixels, naming the first rows that differ.
func assertSamePixels(_ a: Bitmap, _ b: Bitmap, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
    let rows = (0..<a.height).filter { memcmp(a.pixels + $0 * a.stride, b.pixels + $0 * b.stride, a.width * 4) != 0 }
    XCTAssertEqual(rows.count, 0, "\(message): rows \(rows.prefix(5)) differ", file: file, line: line)
}
