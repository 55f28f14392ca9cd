import Foundation
import FolioPixels
import XCTest
import FolioRender

/// Reviewed frames kept as PNGs in Tests/FoldReferences (outside the target: not resources): the fold at three scales, with the backdrop
/// texture, shadows, lighting and (at 0.48) the paper backs. A change that moves the picture
/// fails here; after looking at the new frames, FOLD_UPDATE_REFERENCES=1 rewrites them.
final class FoldReferenceImageTests: XCTestCase {
    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("FoldReferences")

    func testFramesMatchTheReviewedReferences() throws {
        let (w, h) = (480, 300)
        let renderer = FoldFixture(pixelWidth: w, pixelHeight: h)
        renderer.prepare(canvas: makeTestCanvas(width: w, height: h))
        let frame = Bitmap(width: w, height: h)
        let update = ProcessInfo.processInfo.environment["FOLD_UPDATE_REFERENCES"] == "1"
        for s in [0.9, 0.6, 0.48] {
            renderer.render(foldScale: s, into: frame)
            let path = Self.folder.appendingPathComponent("fold-\(s).png").path
            if update {
                try PNG.write(frame, to: path)
                continue
            }
            let reference = try PNG.read(from: path)
            XCTAssertEqual(reference.width, w)
            XCTAssertEqual(reference.height, h)
            // Tolerance: small arithmetic changes pass, a moved edge or a lost shadow does not.
            var off = 0, worst = 0
            for y in 0..<h {
                for x in 0..<w {
                    let a = frame.pixel(x: x, y: y), b = reference.pixel(x: x, y: y)
                    var d = 0
                    for shift: UInt32 in [0, 8, 16] { d = max(d, abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF))) }
                    worst = max(worst, d)
                    if d > 8 { off += 1 }
                }
            }
            XCTAssertLessThanOrEqual(off, w * h / 500, "s=\(s): \(off) pixels differ by more than 8 (worst \(worst))")
        }
    }
}
