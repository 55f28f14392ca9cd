import Foundation
import FolioLayers
import FolioPixels
import XCTest
@testable import FolioRender

/// Drawing a page turn scene composes the leaf's back itself: the later sheet with the earlier
/// drawing showing through as strongly as the angle on screen says, the same bytes as a back
/// composed by hand and given to the scene's layers.
final class LeafBackTests: XCTestCase {
    private let (width, height) = (320, 200)

    private func sameBytes(_ a: Bitmap, _ b: Bitmap) -> Bool {
        memcmp(a.pixels, b.pixels, a.stride * a.height) == 0
    }

    func testTheRendererComposesTheBackAtTheStrengthTheAngleGives() {
        let earlier = makeTestCanvas(width: width, height: height)
        let later = Bitmap(width: width, height: height, color: 0xFFF4_EEDD)
        let byHand = PageTurnScene(width: Double(width), height: Double(height))
        let scene = PageTurnScene(width: Double(width), height: Double(height))
        scene.setContents(earlier: earlier, later: later, leafBack: nil)
        let seeThrough = SeeThrough(width: width, height: height, scale: 1)
        seeThrough.take(earlier)
        let reference = PageRenderer(pixelWidth: width, pixelHeight: height)
        let renderer = PageRenderer(pixelWidth: width, pixelHeight: height)
        let expected = Bitmap(width: width, height: height), frame = Bitmap(width: width, height: height)
        renderer.prepare(scene)
        for q in [0.2, 0.55, 0.7, 0.85, 1] {
            byHand.setAngle(-q * Double.pi)
            let strength = min(max((Double.pi - q * Double.pi) / (Double.pi / 2), 0), 1)
            byHand.setContents(earlier: earlier, later: later, leafBack: seeThrough.picture(over: later, strength: strength))
            reference.render(byHand.root, into: expected)
            scene.setAngle(-q * Double.pi)
            renderer.render(scene, into: frame)
            XCTAssertTrue(sameBytes(expected, frame), "q=\(q)")
        }
    }

    func testAFrameShowsTheLeafWhereItIsAtTheFramesTime() {
        let earlier = makeTestCanvas(width: width, height: height)
        let later = Bitmap(width: width, height: height, color: 0xFFFF_FFFF)
        let transaction = Transaction()
        let settling = PageTurnScene(width: Double(width), height: Double(height))
        settling.transaction = transaction
        settling.setContents(earlier: earlier, later: later, leafBack: nil)
        let still = PageTurnScene(width: Double(width), height: Double(height))
        still.setContents(earlier: earlier, later: later, leafBack: nil)
        let renderer = PageRenderer(pixelWidth: width, pixelHeight: height)
        let reference = PageRenderer(pixelWidth: width, pixelHeight: height)
        let expected = Bitmap(width: width, height: height), frame = Bitmap(width: width, height: height)
        transaction.perform(disableActions: true) { settling.setAngle(-0.4) }
        renderer.prepare(settling)
        transaction.perform { settling.setAngle(-Double.pi, duration: 300) }
        for time in stride(from: 0.0, through: 320, by: 40) {
            transaction.advance(to: time)
            renderer.render(settling, at: transaction.now, into: frame)
            still.setAngle(settling.presentationAngle(at: time))
            reference.render(still, into: expected)
            XCTAssertTrue(sameBytes(expected, frame), "t=\(time)")
        }
        XCTAssertEqual(settling.presentationAngle(at: transaction.now), -Double.pi)
    }
}
