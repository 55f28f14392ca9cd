import FolioCore
import FolioGeometry
import FolioInput
import FolioPixels
import FolioRender
import FolioTestSupport
import FolioToolbar
import XCTest
@testable import FolioReplay

/// A surface the test plays compositor for, by hand: it configures, fires frame callbacks and
/// releases buffers when told, and keeps a copy of every frame committed.
private final class ScriptedSurface: FrameSurface {
    var isConfigured = false
    var isFrameInFlight = false
    var freeBuffers = 2
    var hasFreeBuffer: Bool { freeBuffers > 0 }
    private(set) var frames: [Bitmap] = []
    /// The input time each commit said its frame contains.
    private(set) var inputs: [Double?] = []
    private(set) var frameRequests = 0
    /// The delays (ms) of `requestFrame(after:)` calls, in order.
    private(set) var wakeRequests: [Double] = []

    /// The buffer handed out for the frame being drawn: a new one each time, lacking everything.
    private var acquired: Bitmap?

    func acquireBuffer(width: Int, height: Int) throws -> FrameTarget? {
        guard hasFreeBuffer else { return nil }
        let buffer = Bitmap(width: width, height: height, color: 0xFF12_3456)
        acquired = buffer
        return FrameTarget(bitmap: buffer, missing: Region(buffer.bounds))
    }

    func present(damage: Region, input: Double?) throws {
        XCTAssertTrue(isConfigured, "committed before configure")
        XCTAssertFalse(isFrameInFlight, "committed with a frame in flight")
        XCTAssertTrue(hasFreeBuffer, "drew with every buffer busy")
        let frame = try XCTUnwrap(acquired, "committed without a buffer drawn into")
        acquired = nil
        frames.append(frame)
        inputs.append(input)
        freeBuffers -= 1
        isFrameInFlight = true
    }

    func presentToolbar(_ image: Bitmap, at origin: Point, barShown: Bool) throws {
        XCTAssertTrue(isConfigured, "toolbar committed before configure")
    }

    func requestFrame() {
        frameRequests += 1
        isFrameInFlight = true
    }

    func requestFrame(after milliseconds: Double) {
        wakeRequests.append(milliseconds)
    }

    func fireFrame(_ loop: FrameLoop, at time: Double) throws {
        isFrameInFlight = false
        try loop.frameCallback(at: time)
    }

    func release(_ loop: FrameLoop) throws {
        freeBuffers += 1
        try loop.bufferReleased()
    }
}

final class FrameLoopTests: XCTestCase {
    private let width = 320, height = 200

    private func makeLoop() -> (FrameLoop, ScriptedSurface) {
        let surface = ScriptedSurface()
        return (FrameLoop(session: Session(width: width, height: height), surface: surface), surface)
    }

    private func tap(_ loop: FrameLoop, at time: Double, x: Double = 100) throws {
        try loop.inputArrived(.touchDown(id: 1, at: Point(x: x, y: 100)), at: time)
        try loop.inputArrived(.touchFrame, at: time)
        try loop.inputArrived(.touchUp(id: 1), at: time)
        try loop.inputArrived(.touchFrame, at: time)
    }

    func testNothingIsDrawnBeforeTheFirstConfigure() throws {
        let (loop, surface) = makeLoop()
        try tap(loop, at: 0)
        XCTAssertEqual(surface.frames.count, 0)
        surface.isConfigured = true
        try loop.configured(width: width, height: height, scale: 1)
        XCTAssertEqual(surface.frames.count, 1, "the configure draws the canvas with the tap on it")
        XCTAssertEqual(surface.frames.last?.pixel(x: 100, y: 100), 0xFF00_00FF)
    }

    /// Pinch updates while a frame is in flight do not queue: the next frame callback draws one
    /// frame, from the newest scale.
    func testInputDuringAFrameInFlightIsCoalescedIntoTheNextFrame() throws {
        let (loop, surface) = makeLoop()
        surface.isConfigured = true
        try loop.configured(width: width, height: height, scale: 1)
        try surface.fireFrame(loop, at: 16)
        try surface.release(loop)
        try loop.inputArrived(.pinchBegin(fingers: 2), at: 20)
        XCTAssertEqual(surface.frames.count, 2, "idle: the pinch's first frame goes at once")
        for (i, scale) in [0.95, 0.9, 0.8].enumerated() {
            try loop.inputArrived(.pinchUpdate(scale: scale, dx: 0, dy: 0, rotation: 0), at: 21 + Double(i))
        }
        XCTAssertEqual(surface.frames.count, 2, "a frame is in flight: nothing more is committed")
        try surface.release(loop)
        XCTAssertEqual(surface.frames.count, 2, "a free buffer is not a frame callback")
        try surface.fireFrame(loop, at: 33)
        XCTAssertEqual(surface.frames.count, 3, "one frame for three updates")
        XCTAssertEqual(loop.session.foldScale, 0.8, accuracy: 1e-9)

        // The same session state reached in one update draws the same picture.
        let reference = Session(width: width, height: height)
        reference.handle(.pinchBegin(fingers: 2), at: 20)
        reference.handle(.pinchUpdate(scale: 0.8, dx: 0, dy: 0, rotation: 0), at: 23)
        reference.advance(to: 33)
        _ = reference.renderFrame()
        let shown = try XCTUnwrap(surface.frames.last)
        XCTAssertEqual(differingPixels(shown, reference.frame), 0, "the frame shows the newest scale")
        XCTAssertEqual(surface.inputs, [nil, 20, 23], "each commit names the newest input drawn into it")
    }

    func testNoFrameWhileEveryBufferIsBusyThenOneOnRelease() throws {
        let (loop, surface) = makeLoop()
        surface.isConfigured = true
        surface.freeBuffers = 1
        try loop.configured(width: width, height: height, scale: 1)
        try surface.fireFrame(loop, at: 16)
        try tap(loop, at: 20)
        XCTAssertEqual(surface.frames.count, 1, "the only buffer is still on screen")
        try surface.release(loop)
        XCTAssertEqual(surface.frames.count, 2, "the release draws the waiting frame")
        XCTAssertEqual(surface.frames.last?.pixel(x: 100, y: 100), 0xFF00_00FF)
    }

    func testFrameCallbacksKeepComingWhileTheBookAnimatesOpen() throws {
        let (loop, surface) = makeLoop()
        surface.isConfigured = true
        surface.freeBuffers = 3
        try loop.configured(width: width, height: height, scale: 1)
        try surface.fireFrame(loop, at: 16)
        try loop.inputArrived(.pinchBegin(fingers: 2), at: 20)
        try loop.inputArrived(.pinchUpdate(scale: 0.8, dx: 0, dy: 0, rotation: 0), at: 21)
        try surface.fireFrame(loop, at: 33)
        try surface.fireFrame(loop, at: 50)  // nothing changed: no frame, and no tick asked for
        XCTAssertEqual(surface.frameRequests, 0)
        XCTAssertFalse(surface.isFrameInFlight)
        let framesBeforeRelease = surface.frames.count
        try loop.inputArrived(.pinchEnd(cancelled: false), at: 60)
        XCTAssertEqual(surface.frames.count, framesBeforeRelease, "letting go changes nothing on screen yet")
        XCTAssertEqual(surface.frameRequests, 1, "but the animation needs a tick")
        XCTAssertTrue(surface.isFrameInFlight)
        var time = 66.0
        while loop.session.isAnimating, time < 2000 {
            try surface.fireFrame(loop, at: time)
            try surface.release(loop)
            time += 16
        }
        XCTAssertEqual(loop.session.mode, .idle)
        XCTAssertGreaterThan(surface.frames.count, framesBeforeRelease + 30, "an unfold of 0.625 s at 60 Hz")
        try surface.fireFrame(loop, at: time)
        XCTAssertTrue(loop.isIdle, "the book is open: no more frames asked for")
    }

    /// The shown toolbar hides after 4 s untouched: the loop asks the surface for one wake-up
    /// then, not a frame callback every refresh; the wake's frame callback hides the bar.
    func testTheShownToolbarSleepsUntilItHides() throws {
        let (loop, surface) = makeLoop()
        surface.isConfigured = true
        try loop.configured(width: width, height: height, scale: 1)
        try surface.fireFrame(loop, at: 16)
        try surface.release(loop)
        let handle = loop.session.toolbar.layout.handle
        let p = Point(x: handle.minX + handle.width / 2, y: handle.minY + handle.height / 2)
        try loop.inputArrived(.touchDown(id: 1, at: p), at: 100)
        try loop.inputArrived(.touchFrame, at: 100)
        try loop.inputArrived(.touchUp(id: 1), at: 150)
        try loop.inputArrived(.touchFrame, at: 150)
        XCTAssertTrue(loop.session.toolbar.isShown)
        XCTAssertEqual(surface.wakeRequests, [4000], "one wake-up, when the bar is due to hide")
        let ticks = surface.frameRequests
        XCTAssertFalse(loop.isIdle, "the bar is still to hide")

        try surface.fireFrame(loop, at: 4150)
        XCTAssertFalse(loop.session.toolbar.isShown)
        XCTAssertEqual(surface.frameRequests, ticks, "no frame callback was asked for meanwhile")
        XCTAssertTrue(loop.isIdle)
    }

    func testTheFoldRendererIsPreparedOnceAtTheFirstFrameCallback() throws {
        let (loop, surface) = makeLoop()
        surface.isConfigured = true
        try loop.configured(width: width, height: height, scale: 1)
        try tap(loop, at: 5)
        XCTAssertNil(loop.foldPreparedAt, "not at configure, not on input")
        try surface.fireFrame(loop, at: 16)
        XCTAssertEqual(loop.foldPreparedAt, 16)
        try surface.release(loop)
        try tap(loop, at: 20, x: 200)
        try surface.fireFrame(loop, at: 33)
        XCTAssertEqual(loop.foldPreparedAt, 16, "not again")
    }

    // MARK: - Replay drives the same loop

    /// Touchpad pinch updates every 4 ms, four per refresh: the replay commits no more than one
    /// frame per refresh, as the live app does, and the last frame shows the last update.
    func testAReplayedPinchDrawsOneFramePerRefresh() throws {
        var lines = [#"{"t": 100, "kind": "pinch.begin", "fingers": 2}"#]
        var time = 100.0
        var scale = 1.0
        while scale > 0.6 {
            time += 4
            scale -= 0.01
            lines.append(#"{"t": \#(time), "kind": "pinch.update", "scale": \#(scale), "dx": 0, "dy": 0, "rotation": 0}"#)
        }
        // Long enough for the last commit's vblank: it comes within two refreshes of the last update.
        let replay = Replay(trace: try Trace(parsing: lines.joined(separator: "\n")),
                            options: .init(width: width, height: height, stopTime: time + 40))
        var shown: [SimulatedCompositor.Presentation] = []
        try replay.run { frame, _ in shown.append(frame) }
        let clock = DisplayClock.standard
        let refreshes = (1...100).map { clock.vblank($0) }.filter { $0 > 100 && $0 < time + clock.interval }
        // The configure draws at 0; the vblank at 16.7 presents it and finds nothing new. The pinch
        // draws at once (idle) at 100, then at each frame callback (each vblank: a commit at a
        // vblank meets the next one's deadline) until the one after its last update.
        let commits = [0.0, 100] + refreshes
        XCTAssertEqual(shown.map(\.committed), commits)
        // Each is presented at the first vblank whose deadline (7 ms before it) it was committed by.
        XCTAssertEqual(shown.map(\.presented), commits.map { clock.vblank(clock.vblankIndex(atOrBefore: $0 + clock.repaintWindow) + 1) })
        XCTAssertEqual(shown.map(\.index), Array(0..<commits.count))
        XCTAssertEqual(replay.frameCount, commits.count)
        XCTAssertEqual(replay.session.foldScale, scale, accuracy: 1e-9, "the last frame shows the last update")
    }

    /// The documented example, frame by frame: what the live app commits on a 60 Hz display
    /// with a 7 ms repaint window, and when the display shows it.
    func testTheDocumentedExampleCommitsWhereTheLiveAppWould() throws {
        let replay = Replay(trace: try Trace(parsing: ExampleTrace.text), options: .init(width: 1920, height: 1200))
        var shown: [SimulatedCompositor.Presentation] = []
        try replay.run { frame, _ in shown.append(frame) }
        let clock = DisplayClock.standard
        // The configure (0); the stroke's touch frames, coalesced while one frame is in flight:
        // the live stroke's frame drawn late, just before the deadline of the vblank at 33.3
        // (no render cost known yet: half a refresh before it, at 18), then the lift's at the
        // callback (33.3); the pinch landing and moving when idle (500, 600); letting go at 700
        // changes nothing yet, so it only asks for a tick, which the vblank at 716.7 answers; then
        // one frame per vblank until the book is open at 1366.7. Each is presented at the next
        // vblank: a commit at a vblank, at 500 or at 600 is ahead of the following deadline.
        let late = clock.vblank(2) - clock.repaintWindow - clock.interval / 2
        let commits = [0, late, clock.vblank(2), 500, 600] + (43...82).map { clock.vblank($0) }
        XCTAssertEqual(shown.map(\.committed), commits)
        XCTAssertEqual(shown.map(\.presented), [1, 2, 3, 31, 37].map { clock.vblank($0) } + (44...83).map { clock.vblank($0) })
        XCTAssertEqual(shown.map(\.input), [nil, 16, 33, 500, 600] + Array(repeating: 700, count: 40),
                       "each frame shows the input up to the newest event before it was drawn")
        XCTAssertEqual(replay.frameMilliseconds.count, shown.count)
    }

    private func differingPixels(_ a: Bitmap, _ b: Bitmap) -> Int {
        guard a.width == b.width, a.height == b.height else { return a.width * a.height }
        var count = 0
        for y in 0..<a.height { for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { count += 1 } }
        return count
    }
}
