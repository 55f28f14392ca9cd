import Foundation
import FolioGeometry
import FolioPixels
import XCTest
import FolioRender

/// Reviewed frames kept as PNGs in Tests/FoldReferences (outside the target: not resources): the fold at three scales, with the backdrop
/// texture, shadows, lighting and (at 0.48) the paper backs; and a 320×200 window at buffer scale
/// 1.5 (`fold-S@1.5.png`), where shadows, corners and the weave are drawn at that scale. A change
/// that moves the picture fails here; after looking at the new frames, FOLD_UPDATE_REFERENCES=1 rewrites them.
final class FoldReferenceImageTests: XCTestCase {
    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("FoldReferences")

    func testFramesMatchTheReviewedReferences() throws {
        try compare(width: 480, height: 300, scale: 1, foldScales: [0.9, 0.6, 0.48])
    }

    func testFramesAtAFractionalScaleMatchTheReviewedReferences() throws {
        try compare(width: 320, height: 200, scale: BufferScale(numerator: 180), foldScales: [0.75, 0.48])
    }

    private func compare(width lw: Int, height lh: Int, scale: BufferScale, foldScales: [Double]) throws {
        let (w, h) = (scale.pixels(lw), scale.pixels(lh))
        let renderer = FoldFixture(width: lw, height: lh, scale: scale)
        renderer.prepare(canvas: makeTestCanvas(width: w, height: h))
        let frame = Bitmap(width: w, height: h)
        let update = ProcessInfo.processInfo.environment["FOLD_UPDATE_REFERENCES"] == "1"
        for s in foldScales {
            renderer.render(foldScale: s, into: frame)
            let name = scale == 1 ? "fold-\(s).png" : "fold-\(s)@\(scale).png"
            let path = Self.folder.appendingPathComponent(name).path
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
