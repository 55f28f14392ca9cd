import FolioCore
import FolioGeometry
import FolioInput
import FolioPixels
import XCTest
@testable import FolioReplay
import FolioTestSupport

/// Late commits: a live stroke's frame is drawn just before the repaint deadline of the vblank
/// it makes, against the simulated display (with render costs on the trace's clock), and at once
/// where the surface has no clock.
final class LateCommitTests: XCTestCase {
    /// A pen writing loops for `duration` ms, sampled every `step` ms, as a trace.
    private func handwriting(step: Double = 4, duration: Double) throws -> Trace {
        try Trace(parsing: handwritingTrace(cursiveLoops(period: 400, step: step, duration: duration), pen: true))
    }

    /// A pen tracing a figure of eight (a loop every 2 s) for `duration` ms, sampled every 4 ms:
    /// it stays on the 640x480 page however long it writes.
    private func figureOfEight(duration: Double) -> [(t: Double, p: Point)] {
        stride(from: 0, through: duration, by: 4).map { s in
            let across = 2 * Double.pi * s / 2000, down = 4 * Double.pi * s / 2000
            return (t: 10 + s, p: Point(x: 320 + 250 * sin(across), y: 240 + 150 * sin(down)))
        }
    }

    private func replay(_ trace: Trace, late: Bool, display: DisplayClock = .standard,
                        cost: ((Double) -> Double)? = nil) throws -> (Replay, [SimulatedCompositor.Presentation]) {
        let replay = Replay(trace: trace, options: .init(width: 640, height: 480, display: display, lateCommits: late))
        if let cost { replay.compositor.renderCost = cost }
        var shown: [SimulatedCompositor.Presentation] = []
        try replay.run { presentation, _ in shown.append(presentation) }
        return (replay, shown)
    }

    /// Sample time to the presentation of the first frame that drew it, for every pen sample.
    private func latencies(_ trace: Trace, _ shown: [SimulatedCompositor.Presentation]) -> [Double] {
        let samples = trace.events.filter { if case .tabletMotion = $0.event { true } else { false } }.map(\.time)
        return samples.compactMap { t in shown.first { ($0.input ?? -.infinity) >= t }.map { $0.presented - t } }.sorted()
    }

    /// The same vblanks show newer input: each frame presented at a time both runs present draws
    /// input at least as new with late commits, most a good part of a refresh newer.
    func testLateFramesCarryNewerInputToTheSamePresentations() throws {
        let trace = try handwriting(duration: 1500)
        let (_, before) = try replay(trace, late: false)
        let (after, shown) = try replay(trace, late: true)
        let earlier = Dictionary(before.compactMap { p in p.input.map { (p.presented, $0) } }, uniquingKeysWith: max)
        var gains: [Double] = []
        for frame in shown {
            guard let input = frame.input, let old = earlier[frame.presented] else { continue }
            XCTAssertGreaterThanOrEqual(input, old, "frame at \(frame.presented)")
            gains.append(input - old)
        }
        XCTAssertGreaterThan(gains.count, 80)
        XCTAssertGreaterThanOrEqual(percentile(gains.sorted(), 0.5), 6, "input newer by most of the time before the deadline")
        XCTAssertEqual(after.scheduler.missedFrames, 0)
        XCTAssertGreaterThan(after.scheduler.lateFrames, 80)

        // Sample to screen: half a refresh plus the window (15.3 ms), plus the 1 ms margin.
        let late = latencies(trace, shown), onCallback = latencies(trace, before)
        XCTAssertEqual(percentile(late, 0.5), 1000 / 120 + 7 + 1, accuracy: 1.5)
        XCTAssertLessThanOrEqual(percentile(late, 0.99), 1000 / 60 + 7 + 1 + 0.01)
        XCTAssertGreaterThan(percentile(onCallback, 0.5), percentile(late, 0.5) + 5)
    }

    /// A minute of writing with render costs that jump between 0.5 and 3 ms at random: a frame
    /// at every vblank of the stroke, none missed.
    func testNoVblankIsMissedOverALongTraceWithJitteryRenderCosts() throws {
        for display in [DisplayClock.standard, try DisplayClock(refreshRate: 120, repaintWindow: 3)] {
            var random = SplitMixCosts(seed: 29)
            let trace = try Trace(parsing: handwritingTrace(figureOfEight(duration: 60_000), pen: true))
            let (replay, shown) = try replay(trace, late: true, display: display) { _ in random.next(0.5...3) }
            let stroke = shown.filter { $0.input != nil && $0.presented < 60_000 }
            XCTAssertGreaterThan(stroke.count, Int(55 * display.refreshRate))
            for (a, b) in zip(stroke, stroke.dropFirst()) where b.presented - a.presented > display.interval + 1e-6 {
                XCTFail("\(display.refreshRate) Hz: no frame at the vblank after \(a.presented) (next at \(b.presented))")
                break
            }
            XCTAssertEqual(replay.scheduler.missedFrames, 0)
            XCTAssertGreaterThan(replay.scheduler.lateFrames, stroke.count - 5)
        }
    }

    /// One frame far slower than any before it misses its vblank: the miss is counted, and the
    /// margin grows so the next frames make theirs.
    func testAMissedVblankIsCountedAndWidensTheMargin() throws {
        var frame = 0
        let (replay, shown) = try replay(try handwriting(duration: 1000), late: true) { _ in
            frame += 1
            return frame == 30 ? 5 : 0.5
        }
        XCTAssertEqual(replay.scheduler.missedFrames, 1)
        let stroke = shown.filter { $0.input != nil && $0.presented < 1000 }
        let gaps = zip(stroke, stroke.dropFirst()).filter { $1.presented - $0.presented > DisplayClock.standard.interval + 1e-6 }
        XCTAssertEqual(gaps.count, 1, "one vblank without a new frame")
        XCTAssertEqual(replay.scheduler.margin(interval: DisplayClock.standard.interval), 5 + 1 + 2, accuracy: 1e-9)
    }

    /// Without a clock on the surface (no forecast, no wake-up) the frame goes at once, as
    /// before; with one it waits for the moment before the deadline.
    func testWithoutAClockFramesAreDrawnAtOnce() throws {
        for clocked in [false, true] {
            let surface = ClockSurface(clocked: clocked)
            let loop = FrameLoop(session: Session(width: 320, height: 200), surface: surface)
            try loop.configured(width: 320, height: 200, scale: 1)
            try surface.fireFrame(loop, at: 16)
            surface.now = 17
            try loop.inputArrived(.touchDown(id: 1, at: Point(x: 50, y: 50)), at: 17)
            try loop.inputArrived(.touchFrame, at: 17)
            surface.now = 18  // the first late frame keeps half a refresh: at 33.3 - 7 - 8.3
            if clocked { try loop.drawTimeReached() }
            try surface.fireFrame(loop, at: 18)
            XCTAssertEqual(surface.inputs.last, 17)
            let drawn = surface.inputs.count
            surface.now = 20
            try loop.inputArrived(.touchMotion(id: 1, to: Point(x: 80, y: 50)), at: 20)
            try loop.inputArrived(.touchFrame, at: 20)
            XCTAssertTrue(loop.session.isDrawing)
            if clocked {
                XCTAssertEqual(surface.inputs.count, drawn, "nothing drawn before the draw time")
                XCTAssertEqual(try XCTUnwrap(surface.wakes.last), 100.0 / 3 - 7 - 1, accuracy: 1e-9, "the deadline less the 1 ms margin")
                surface.now = 25
                try loop.inputArrived(.touchMotion(id: 1, to: Point(x: 90, y: 50)), at: 25)
                try loop.inputArrived(.touchFrame, at: 25)
                XCTAssertEqual(surface.inputs.count, drawn)
                surface.now = 100.0 / 3 - 8
                try loop.drawTimeReached()
                XCTAssertEqual(surface.inputs.count, drawn + 1, "one frame")
                XCTAssertEqual(surface.inputs.last, 25, "with the newest input")
            } else {
                XCTAssertEqual(surface.inputs.count, drawn + 1, "drawn at the motion, as before")
                XCTAssertEqual(surface.inputs.last, 20)
                XCTAssertTrue(surface.wakes.isEmpty)
            }
        }
    }

    /// Where presentation feedback comes (Weston sends the callback at its repaint, before the
    /// vblank), a late frame is judged by when it was presented, not by its callback.
    func testPresentationFeedbackJudgesALateFrame() throws {
        for presentedAt in [100.0 / 3, 50] {
            let surface = ClockSurface(clocked: true)
            let loop = FrameLoop(session: Session(width: 320, height: 200), surface: surface)
            try loop.configured(width: 320, height: 200, scale: 1)
            try surface.fireFrame(loop, at: 16)
            loop.framePresented(input: -1, at: 16.7)  // the feedback of a frame before: it only says feedback comes
            surface.now = 17
            try loop.inputArrived(.touchDown(id: 1, at: Point(x: 50, y: 50)), at: 17)
            try loop.inputArrived(.touchFrame, at: 17)
            surface.now = 18
            try loop.drawTimeReached()
            XCTAssertEqual(surface.inputs.last, 17, "the late frame for the vblank at 33.3")
            surface.now = 100.0 / 3 - 7
            try surface.fireFrame(loop, at: surface.now)
            XCTAssertEqual(loop.scheduler.missedFrames, 0, "a callback before the vblank judges nothing")
            loop.framePresented(input: 17, at: presentedAt)
            XCTAssertEqual(loop.scheduler.missedFrames, presentedAt > 40 ? 1 : 0, "presented at \(presentedAt)")
            XCTAssertEqual(loop.scheduler.lateFrames, 1)
        }
    }

    func testTheMarginIsTheSlowestRecentCostPlusOneMillisecondClamped() {
        var scheduler = FrameScheduler()
        XCTAssertEqual(scheduler.margin(interval: 16), 8, "no cost known yet: half a refresh")
        for cost in [0.5, 2.5, 1.0] { scheduler.rendered(cost: cost) }
        XCTAssertEqual(scheduler.margin(interval: 16), 3.5)
        for _ in 0..<64 { scheduler.rendered(cost: 0.2) }
        XCTAssertEqual(scheduler.margin(interval: 16), 1.2, accuracy: 1e-9, "only the last 64 count")
        scheduler.rendered(cost: 40)
        XCTAssertEqual(scheduler.margin(interval: 16), 8, "at most half a refresh")
        scheduler.rendered(cost: .nan)
        XCTAssertEqual(scheduler.margin(interval: 16), 8)
        let forecast = PresentationForecast(time: 100, refreshInterval: 16, repaintWindow: 7)
        XCTAssertEqual(scheduler.plan(for: forecast, now: 60).vblank, 100)
        XCTAssertEqual(scheduler.plan(for: forecast, now: 60).wake, 100 - 7 - 8)
        XCTAssertEqual(scheduler.plan(for: forecast, now: 85.5).vblank, 100, "within the wake-up's slack: now")
        XCTAssertNil(scheduler.plan(for: forecast, now: 85.5).wake)
        XCTAssertEqual(scheduler.plan(for: forecast, now: 87).vblank, 116, "too late for this vblank: the next")
        XCTAssertEqual(scheduler.plan(for: forecast, now: 87).wake, 116 - 7 - 8)
        scheduler.presented(target: 100, at: 100, interval: 16)
        scheduler.presented(target: 116, at: 132, interval: 16)
        XCTAssertEqual(scheduler.missedFrames, 1)
        XCTAssertEqual(scheduler.lateFrames, 2)
    }
}

/// Render costs in a range, the same on every run.
private struct SplitMixCosts {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ range: ClosedRange<Double>) -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return range.lowerBound + (range.upperBound - range.lowerBound) * Double(z >> 11) / Double(1 << 53)
    }
}

/// A surface with a display at 60 Hz and a 7 ms window (vblanks at 0, 16.7, 33.3, 50, …, the
/// forecast the first whose deadline is ahead), or, not clocked, with neither forecast nor timer.
private final class ClockSurface: FrameSurface {
    let clocked: Bool
    var now = 0.0
    var isConfigured = true
    var isFrameInFlight = false
    var hasFreeBuffer: Bool { true }
    private(set) var inputs: [Double?] = []
    private(set) var wakes: [Double] = []

    init(clocked: Bool) { self.clocked = clocked }

    func acquireBuffer(width: Int, height: Int) throws -> FrameTarget? {
        let bitmap = Bitmap(width: width, height: height)
        return FrameTarget(bitmap: bitmap, missing: Region(bitmap.bounds))
    }

    func present(damage: Region, input: Double?) throws {
        inputs.append(input)
        isFrameInFlight = true
    }

    func presentToolbar(_ image: Bitmap, at origin: Point, barShown: Bool) throws {}
    func requestFrame() {}
    func requestFrame(after milliseconds: Double) {}

    var clockNow: Double? { clocked ? now : nil }

    var presentationForecast: PresentationForecast? {
        guard clocked else { return nil }
        var vblank = 0.0
        while vblank - 7 <= now { vblank += 50.0 / 3 }
        return PresentationForecast(time: vblank, refreshInterval: 50.0 / 3, repaintWindow: 7)
    }

    func wakeToDraw(at time: Double) { wakes.append(time) }

    func renderCost(measured: Double) -> Double { 0 }

    func fireFrame(_ loop: FrameLoop, at time: Double) throws {
        isFrameInFlight = false
        try loop.frameCallback(at: time)
    }
}
