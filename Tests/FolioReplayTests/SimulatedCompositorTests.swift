import FolioCore
import FolioGeometry
import FolioInput
import FolioPixels
import FolioRender
import FolioTestSupport
import XCTest
@testable import FolioReplay

final class SimulatedCompositorTests: XCTestCase {
    func testQuietRefreshesBeforeAnEventPassAtOnce() {
        let compositor = SimulatedCompositor()
        compositor.configure()
        compositor.skipRefreshes(before: 999_999_999)
        XCTAssertGreaterThan(compositor.nextRefresh, 999_999_999, "the next refresh is the first after the event")
        XCTAssertLessThanOrEqual(compositor.nextRefresh, 999_999_999 + compositor.clock.interval)
    }

    func testRefreshesWithSomethingPendingAreNotSkipped() throws {
        let compositor = SimulatedCompositor()
        compositor.configure()
        compositor.requestFrame()
        compositor.skipRefreshes(before: 10_000)
        XCTAssertEqual(compositor.nextRefresh, compositor.clock.interval, "a frame callback is due at the first refresh")
    }

    /// A display on `clock` whose client has drawn its first frame and has nothing more to draw:
    /// the test commits buffers by hand and the loop only hears the callbacks.
    private func display(_ clock: DisplayClock) throws -> (SimulatedCompositor, FrameLoop) {
        let compositor = SimulatedCompositor(clock: clock)
        let loop = FrameLoop(session: Session(width: 64, height: 48), surface: compositor)
        compositor.configure()
        try loop.configured(width: 64, height: 48, scale: 1)
        XCTAssertEqual(compositor.framesCommitted, 1, "the first frame is committed at the configure")
        XCTAssertEqual(try compositor.refresh(loop)?.presented, clock.vblank(1), "and presented at the first vblank")
        return (compositor, loop)
    }

    /// Commits a buffer at `time` and refreshes until it is presented.
    private func commit(at time: Double, _ compositor: SimulatedCompositor, _ loop: FrameLoop) throws -> SimulatedCompositor.Presentation {
        // Vblanks before `time` happen first; one at its very instant comes after (events first).
        while compositor.nextRefresh < time { try compositor.refresh(loop) }
        compositor.advance(to: time)
        XCTAssertFalse(compositor.isFrameInFlight)
        XCTAssertNotNil(try compositor.acquireBuffer(width: 64, height: 48))
        try compositor.present(damage: .empty, input: time)
        while true {
            if let shown = try compositor.refresh(loop) {
                XCTAssertEqual(loop.session.now, shown.presented, "the frame callback carries the vblank's time")
                return shown
            }
        }
    }

    func testACommitBeforeTheDeadlineIsPresentedAtThatVblankALaterOneAtTheNext() throws {
        for (rate, window) in [(60.0, 7.0), (90, 7), (120, 7), (60, 3), (120, 0.5)] {
            let clock = try DisplayClock(refreshRate: rate, repaintWindow: window)
            let (compositor, loop) = try display(clock)
            for vblank in [5, 12, 40] {
                let deadline = clock.vblank(vblank) - window
                for (time, expected) in [(deadline - 0.25, vblank), (deadline, vblank + 1), (deadline + 0.25, vblank + 1),
                                         (clock.vblank(vblank) - 0.01, vblank + 1)] where time > compositor.nextRefresh - clock.interval {
                    let shown = try commit(at: time, compositor, loop)
                    XCTAssertEqual(shown.presented, clock.vblank(expected), "\(rate) Hz, \(window) ms: committed at \(time)")
                    XCTAssertEqual(shown.committed, time)
                    XCTAssertEqual(shown.input, time, "the input time the commit carried")
                }
            }
        }
    }

    func testWithNoWindowEveryCommitBeforeAVblankIsPresentedAtIt() throws {
        let clock = try DisplayClock(refreshRate: 60, repaintWindow: 0)
        let (compositor, loop) = try display(clock)
        for (time, vblank) in [(20.0, 2), (49.99, 3), (50.01, 4), (83.32, 5), (100, 7), (130, 8)] {
            let shown = try commit(at: time, compositor, loop)
            XCTAssertEqual(shown.presented, clock.vblank(vblank), "committed at \(time)")
        }
    }

    func testTheBufferOnScreenComesBackWhenANewerOneIsPresented() throws {
        let (compositor, loop) = try display(.standard)
        XCTAssertTrue(compositor.hasFreeBuffer, "one buffer on screen, one free")
        compositor.advance(to: 30)
        XCTAssertNotNil(try compositor.acquireBuffer(width: 64, height: 48))
        try compositor.present(damage: .empty, input: nil)
        XCTAssertFalse(compositor.hasFreeBuffer, "one on screen, one waiting for its vblank")
        XCTAssertNil(try compositor.acquireBuffer(width: 64, height: 48), "no buffer is handed out while every one is busy")
        XCTAssertThrowsError(try compositor.present(damage: .empty, input: nil),
                             "a second commit with a frame in flight is a protocol error")
        XCTAssertNil(try compositor.refresh(loop), "30 ms is after the deadline of the vblank at 33.3")
        XCTAssertFalse(compositor.hasFreeBuffer)
        XCTAssertEqual(try compositor.refresh(loop)?.presented, 50)
        XCTAssertTrue(compositor.hasFreeBuffer, "the frame it replaced came back")
        XCTAssertEqual(compositor.framesPresented, 2)
    }

    func testAFrameRequestWithoutABufferFiresAtTheVblankThatTakesIt() throws {
        let (compositor, loop) = try display(.standard)
        compositor.advance(to: 30)
        compositor.requestFrame()
        XCTAssertTrue(compositor.isFrameInFlight)
        XCTAssertNil(try compositor.refresh(loop), "no buffer: nothing presented")
        XCTAssertTrue(compositor.isFrameInFlight, "30 ms misses the deadline of the vblank at 33.3")
        XCTAssertNil(try compositor.refresh(loop))
        XCTAssertFalse(compositor.isFrameInFlight)
        XCTAssertEqual(loop.session.now, 50, accuracy: 1e-9, "its callback came at the vblank at 50")
        XCTAssertEqual(compositor.framesPresented, 1)
    }

    func testRatesAndWindowsOutsideTheirRangesAreRefused() {
        for (rate, window) in [(29.9, 7.0), (241, 1), (0, 0), (-60, 7), (.nan, 7), (.infinity, 7),
                               (60, -0.5), (60, 1000.0 / 60), (60, .nan), (240, 7), (120, 8.4)] {
            XCTAssertThrowsError(try DisplayClock(refreshRate: rate, repaintWindow: window), "\(rate) Hz, \(window) ms")
        }
        for (rate, window) in [(30.0, 0.0), (60, 7), (90, 11), (120, 8.3), (240, 4)] {
            XCTAssertNoThrow(try DisplayClock(refreshRate: rate, repaintWindow: window), "\(rate) Hz, \(window) ms")
        }
        XCTAssertEqual(DisplayClock.standard, try DisplayClock(refreshRate: 60, repaintWindow: 7))
    }
}

/// The display's clock decides when frames are shown, never what the screen and the book end up as.
final class DisplayClockReplayTests: XCTestCase {
    private func replay(_ clock: DisplayClock) throws -> (Replay, [SimulatedCompositor.Presentation]) {
        let replay = Replay(trace: try Trace(parsing: ExampleTrace.smallFold), options: .init(width: 640, height: 400, display: clock))
        var shown: [SimulatedCompositor.Presentation] = []
        try replay.run { frame, _ in shown.append(frame) }
        return (replay, shown)
    }

    func testEveryClockEndsWithTheSameScreenAndBook() throws {
        let (reference, _) = try replay(try DisplayClock(refreshRate: 60, repaintWindow: 0))
        for (rate, window) in [(60.0, 7.0), (90, 10), (120, 3), (30, 20), (240, 4)] {
            let clock = try DisplayClock(refreshRate: rate, repaintWindow: window)
            let (other, shown) = try replay(clock)
            XCTAssertEqual(other.session.book, reference.session.book, "\(rate) Hz, \(window) ms")
            XCTAssertEqual(try PNG.encode(other.screen), try PNG.encode(reference.screen), "\(rate) Hz, \(window) ms")
            XCTAssertEqual(other.session.timeline.last?.name, "unfold.completed")
            // Each frame at the first vblank whose deadline its commit met; input never after it.
            for frame in shown {
                XCTAssertEqual(frame.presented, clock.vblank(clock.vblankIndex(atOrBefore: frame.committed + window) + 1))
                XCTAssertLessThanOrEqual(frame.input ?? 0, frame.committed)
            }
            XCTAssertEqual(shown.map(\.index), Array(0..<shown.count))
        }
    }
}
