import FolioCore
import FolioGeometry
import FolioInput
import FolioPixels
import XCTest
@testable import FolioReplay

/// Frames drawn straight into the simulated compositor's buffers: each buffer committed on the
/// flat canvas holds the whole frame, whichever older frame (a fold's, a smaller size's) it held
/// before, and no buffer the display still holds is ever handed out.
final class DirectDrawingTests: XCTestCase {
    private var time = 0.0

    func testEveryCommittedCanvasBufferHoldsTheWholeFrameThroughStrokesAFoldAndAResize() throws {
        let session = Session(width: 320, height: 200)
        let compositor = SimulatedCompositor(bufferCount: 3)
        let loop = FrameLoop(session: session, surface: compositor)
        // A frame at every callback: the most buffer hand-overs to check.
        loop.lateCommits = false
        var checked = 0
        // Tells `loop` one thing; a buffer it committed on the flat canvas must equal the canvas.
        func step(_ body: () throws -> Void) throws {
            let committed = compositor.framesCommitted
            try body()
            guard compositor.framesCommitted > committed, !session.mode.showsCurtain, !session.mode.isTurning else { return }
            let shown = try XCTUnwrap(compositor.committedScreen(scale: 1))
            let expected = compositor.screen(session.frame, scale: 1)
            XCTAssertEqual(differing(shown, expected), 0, "commit \(compositor.framesCommitted) at \(time) ms holds stale pixels")
            checked += 1
        }
        func input(_ event: InputEvent) throws {
            time += 5
            compositor.advance(to: time)
            try step { try loop.inputArrived(event, at: time) }
            while compositor.nextRefresh <= time { try step { try compositor.refresh(loop) } }
        }
        func settle() throws {
            while !loop.isIdle { try step { try compositor.refresh(loop) } }
            time = max(time, compositor.nextRefresh)
        }
        func stroke(from a: Point, to b: Point) throws {
            try input(.touchDown(id: 1, at: a))
            try input(.touchFrame)
            for i in 1...8 {
                try input(.touchMotion(id: 1, to: a + (b - a) * (Double(i) / 8)))
                try input(.touchFrame)
            }
            try input(.touchUp(id: 1))
            try input(.touchFrame)
            try settle()
        }

        compositor.configure()
        try step { try loop.configured(width: 320, height: 200, scale: 1) }
        try stroke(from: Point(x: 60, y: 50), to: Point(x: 260, y: 80))
        try input(.pinchBegin(fingers: 2))
        for scale in [0.95, 0.85, 0.75] { try input(.pinchUpdate(scale: scale, dx: 0, dy: 0, rotation: 0)) }
        XCTAssertTrue(session.mode.showsCurtain, "the pinch folds")
        try input(.pinchEnd(cancelled: false))
        try settle()
        XCTAssertFalse(session.mode.showsCurtain, "the fold was let go")
        try stroke(from: Point(x: 40, y: 150), to: Point(x: 280, y: 120))
        try step { try loop.configured(width: 360, height: 240, scale: 1) }
        try settle()
        try stroke(from: Point(x: 20, y: 220), to: Point(x: 340, y: 200))
        XCTAssertGreaterThan(checked, 10)
    }

    private func differing(_ a: Bitmap, _ b: Bitmap) -> Int {
        guard a.width == b.width, a.height == b.height else { return a.width * a.height }
        var count = 0
        for y in 0..<a.height { for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { count += 1 } }
        return count
    }
}
