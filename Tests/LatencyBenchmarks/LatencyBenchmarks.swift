import Foundation
import FolioBench
import FolioCore
import FolioGeometry
import FolioGestures
import FolioInput
import FolioPixels
import FolioReplay
import TestCompositor

/// Input-to-buffer latency through a real Wayland connection: the in-process test compositor
/// (libwayland-server) drives a built `folio` binary, spawned as its client. The window is
/// 1920x1200 logical; at a buffer scale other than 1 the compositor asks for it (a whole scale as
/// wl_output.scale, a fractional one as wp_fractional_scale_v1's preferred scale) and the
/// figures carry `buffer_scale`.
enum LatencyBenchmarks {
    static let width: Int32 = 1920
    static let height: Int32 = 1200
    static let names = ["stroke.segment", "pen.segment", "stroke.segment.in_process", "pen.segment.in_process",
                        "pen.long_stroke.first", "pen.long_stroke.last", "pinch.frame", "startup.first_frame",
                        "ink.latency", "ink.lag"]

    /// The benchmarks among `names` that `wanted` accepts, run against `executable` in turn.
    static func run(_ executable: String, scale: BufferScale = 1, wanted: (String) -> Bool) throws -> [BenchResult] {
        // A book of its own for each benchmark: a client killed at the end of one may hold its
        // book's lock for a moment after the next one starts.
        func fresh<Result>(_ benchmark: (String) throws -> Result) throws -> Result {
            let dataHome = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: dataHome) }
            return try benchmark(dataHome)
        }
        var results: [BenchResult] = []
        if wanted("stroke.segment") || wanted("pen.segment") {
            results += try fresh { try segments(executable, scale: scale, dataHome: $0, finger: wanted("stroke.segment"),
                                                pen: wanted("pen.segment")) }
        }
        if wanted("stroke.segment.in_process") || wanted("pen.segment.in_process") {
            results += segmentsInProcess(scale: scale).filter { wanted($0.name) }
        }
        if wanted("pen.long_stroke.first") || wanted("pen.long_stroke.last") {
            results += longPenStroke(scale: scale).filter { wanted($0.name) }
        }
        if wanted("pinch.frame") { results.append(try fresh { try pinchFrame(executable, scale: scale, dataHome: $0) }) }
        if wanted("startup.first_frame") { results.append(try fresh { try firstFrame(executable, scale: scale, dataHome: $0) }) }
        // On the simulated display, in logical px and trace ms: the same at every buffer scale.
        if scale == 1, wanted("ink.latency") { results += try InkBenchmarks.latency() }
        if scale == 1, wanted("ink.lag") { results += try InkBenchmarks.lag() }
        return results.map { result in
            var result = result
            if scale != 1 { result.bufferScale = scale.factor }
            return result
        }
    }

    /// The compositor's options for the window at `scale`.
    private static func options(scale: BufferScale) -> TestCompositorOptions {
        var options = TestCompositorOptions()
        options.configureWidth = width
        options.configureHeight = height
        if scale.isInteger {
            options.outputScale = Int32(scale.numerator / BufferScale.denominator)
        } else {
            options.fractionalScale = UInt32(scale.numerator)
        }
        return options
    }

    /// `stroke.segment`: touch frame sent (and flushed) by the compositor -> the commit carrying its
    /// buffer; `pen.segment`: the same for a tablet frame (pen motion and pressure, rising and
    /// falling). At 1920x1200, 5 strokes of 60 segments each, frame callbacks answered at once. Both
    /// are timed in one session, a finger stroke and a pen stroke taking turns, so whatever slows the
    /// machine meanwhile slows both and their figures compare.
    static func segments(_ executable: String, scale: BufferScale, dataHome: String, finger: Bool, pen: Bool,
                         strokes: Int = 5, segments: Int = 60) throws -> [BenchResult] {
        var options = options(scale: scale)
        options.capabilities = [.touch]
        options.tablet = true
        let compositor = try TestCompositor(options: options)
        defer { compositor.stop() }
        let client = try compositor.launch(executable, environment: ["XDG_DATA_HOME": dataHome])
        defer { client.terminate() }
        try compositor.waitForToplevel()
        _ = try compositor.wait(for: "the client's wl_touch") { $0.touchObjects > 0 ? true : nil }
        _ = try compositor.wait(for: "the client's tablet seat") { $0.tabletSeatObjects > 0 ? true : nil }

        func path(_ segment: Int, from y: Double) -> (x: Double, y: Double) {
            (300.0 + Double(segment) * 20, y + 40 * sin(Double(segment) / 6))
        }
        var fingerSamples: [Double] = [], penSamples: [Double] = []
        // After every stroke, past the palm guard (a finger right after the pen would not draw);
        // after a finger's too, so neither kind starts its segments from a machine idle for longer.
        func rest() {
            Thread.sleep(forTimeInterval: (GestureRecognizer.palmWindow + 100) / 1000)
            settle(compositor)
        }
        func fingerStroke(at y: Double) throws {
            try compositor.sendTouch([.down(id: 1, x: 300, y: y), .frame])
            settle(compositor)
            for segment in 1...segments {
                let (x, y) = path(segment, from: y), last = compositor.lastCommitIndex
                let sent = try compositor.sendTouch([.motion(id: 1, x: x, y: y), .frame])
                fingerSamples.append(try latency(compositor, after: last, sent: sent, drawingAt: x, y, scale: scale))
            }
            try compositor.sendTouch([.up(id: 1), .frame])
            rest()
        }
        func penStroke(at y: Double) throws {
            try compositor.sendTablet([.proximityIn(.pen), .motion(x: 300, y: y), .pressure(20000), .frame, .down, .frame])
            settle(compositor)
            for segment in 1...segments {
                let (x, y) = path(segment, from: y), last = compositor.lastCommitIndex
                let pressure = UInt32(32767 + 30000 * sin(Double(segment) / 9))
                let sent = try compositor.sendTablet([.motion(x: x, y: y), .pressure(pressure), .frame])
                penSamples.append(try latency(compositor, after: last, sent: sent, drawingAt: x, y, scale: scale))
            }
            try compositor.sendTablet([.up, .frame, .proximityOut, .frame])
            rest()
        }
        // Which kind goes first alternates, and the first of a pair takes the upper row.
        for stroke in 0..<strokes {
            let y = 200.0 + Double(stroke) * 180
            if stroke % 2 == 0 {
                if finger { try fingerStroke(at: y) }
                if pen { try penStroke(at: y + 90) }
            } else {
                if pen { try penStroke(at: y) }
                if finger { try fingerStroke(at: y + 90) }
            }
        }
        var results: [BenchResult] = []
        if finger { results.append(BenchResult(name: "stroke.segment", width: Int(width), height: Int(height), samples: fingerSamples)) }
        if pen { results.append(BenchResult(name: "pen.segment", width: Int(width), height: Int(height), samples: penSamples)) }
        return results
    }

    /// In process, no compositor: what `stroke.segment` and `pen.segment` time less the Wayland
    /// round trip (input handled, live ink redrawn where it changed, the frame's damage taken), over
    /// 40 finger and 40 pen strokes of 60 segments taking turns on one 1920x1200 session. Free of
    /// the scheduler's noise, so a difference of a few percent between the two shows here.
    static func segmentsInProcess(scale: BufferScale, strokes: Int = 40, segments: Int = 60) -> [BenchResult] {
        let session = Session(width: Int(width), height: Int(height), scale: scale)
        _ = session.renderFrame()
        var t = 0.0
        func send(_ events: [InputEvent]) { session.handle(events, at: t) }
        var finger: [Double] = [], pen: [Double] = []
        for stroke in 0..<(2 * strokes) {
            let usesPen = stroke % 2 == 1, y = 200 + Double(stroke / 2 % 5) * 180 + (usesPen ? 90 : 0)
            t += GestureRecognizer.palmWindow + 100
            if usesPen {
                send(penDown(at: Point(x: 300, y: y), pressure: 0.3))
            } else {
                send([.touchDown(id: 1, at: Point(x: 300, y: y)), .touchFrame])
            }
            _ = session.renderFrame()
            for segment in 1...segments {
                t += 4
                let point = Point(x: 300 + Double(segment) * 20, y: y + 40 * sin(Double(segment) / 6))
                // Two events without an array in between, as the app passes a frame on.
                let motion: InputEvent = usesPen ? .tabletMotion(to: point, pressure: 0.5 + 0.46 * sin(Double(segment) / 9), tilt: nil)
                    : .touchMotion(id: 1, to: point)
                let start = ContinuousClock.now
                session.handle(motion, at: t)
                session.handle(usesPen ? .tabletFrame : .touchFrame, at: t)
                _ = session.renderFrame()
                let elapsed = (ContinuousClock.now - start).milliseconds
                if usesPen { pen.append(elapsed) } else { finger.append(elapsed) }
            }
            t += 4
            send(usesPen ? [.tabletUp, .tabletFrame, .tabletProximityOut, .tabletFrame] : [.touchUp(id: 1), .touchFrame])
            _ = session.renderFrame()
        }
        return [BenchResult(name: "stroke.segment.in_process", width: Int(width), height: Int(height), samples: finger),
                BenchResult(name: "pen.segment.in_process", width: Int(width), height: Int(height), samples: pen)]
    }

    /// In process, no compositor: the cost of one more pen segment (input handled, live ink
    /// redrawn where it changed, the frame's damage taken) over the first 200 samples of a
    /// 10,000-sample pen stroke, and over its last 200. The stroke zigzags across a 1920x1200
    /// canvas with pressure rising and falling, so its end lies over its own earlier ink.
    static func longPenStroke(scale: BufferScale, samples count: Int = 10_000, timed: Int = 200) -> [BenchResult] {
        let session = Session(width: Int(width), height: Int(height), scale: scale)
        func point(_ i: Int) -> Point {
            let row = i / 500, along = Double(i % 500) / 500
            let x = 100 + 1700 * (row % 2 == 0 ? along : 1 - along)
            return Point(x: x, y: 100 + Double(row % 20) * 50 + 20 * sin(Double(i) / 15))
        }
        func pressure(_ i: Int) -> Double { 0.5 + 0.45 * sin(Double(i) / 40) }
        var t = 0.0
        session.handle(penDown(at: point(0), pressure: pressure(0)), at: t)
        _ = session.renderFrame()
        var first: [Double] = [], last: [Double] = []
        for i in 1..<count {
            t += 4
            let start = ContinuousClock.now
            session.handle(.tabletMotion(to: point(i), pressure: pressure(i), tilt: nil), at: t)
            session.handle(.tabletFrame, at: t)
            _ = session.renderFrame()
            let elapsed = (ContinuousClock.now - start).milliseconds
            if i <= timed { first.append(elapsed) }
            if i >= count - timed { last.append(elapsed) }
        }
        return [BenchResult(name: "pen.long_stroke.first", width: Int(width), height: Int(height), samples: first),
                BenchResult(name: "pen.long_stroke.last", width: Int(width), height: Int(height), samples: last)]
    }

    /// A pen coming into reach at `point` and touching down there, as the app passes tablet frames on.
    private static func penDown(at point: Point, pressure: Double) -> [InputEvent] {
        [.tabletProximityIn(tool: .pen), .tabletMotion(to: point, pressure: pressure, tilt: nil), .tabletFrame, .tabletDown, .tabletFrame]
    }

    /// A 1920x1200 test compositor with a touch seat, and `folio` running in it with its wl_touch bound.
    private static func touchSession(_ executable: String, scale: BufferScale, dataHome: String) throws -> (TestCompositor, ClientProcess) {
        var options = options(scale: scale)
        options.capabilities = [.touch]
        let compositor = try TestCompositor(options: options)
        do {
            let client = try compositor.launch(executable, environment: ["XDG_DATA_HOME": dataHome])
            do {
                try compositor.waitForToplevel()
                _ = try compositor.wait(for: "the client's wl_touch") { $0.touchObjects > 0 ? true : nil }
                return (compositor, client)
            } catch {
                client.terminate()
                throw error
            }
        } catch {
            compositor.stop()
            throw error
        }
    }

    /// Waits until no commit has arrived for 30 ms (at most a second): what a touch down or up
    /// drew is out of the way before the next segment is timed.
    private static func settle(_ compositor: TestCompositor) {
        for _ in 0..<33 {
            let before = compositor.lastCommitIndex
            Thread.sleep(forTimeInterval: 0.03)
            if compositor.lastCommitIndex == before { return }
        }
    }

    /// The milliseconds from `sent` until the first commit after commit number `last` whose damage
    /// covers (x, y): the buffer carrying the segment drawn there.
    private static func latency(_ compositor: TestCompositor, after last: Int, sent: ContinuousClock.Instant,
                                drawingAt x: Double, _ y: Double, scale: BufferScale) throws -> Double {
        let point = PixelRect(x: Int(x * scale.factor), y: Int(y * scale.factor), width: 1, height: 1)
        let commit = try compositor.wait(for: "a commit damaging (\(Int(x)), \(Int(y)))", timeout: .seconds(5)) { observation in
            observation.commits.dropFirst(last + 1).first { commit in
                commit.attached && commit.damage.contains { $0.intersection(point) == point }
            }
        }
        return (commit.receivedAt - sent).milliseconds
    }

    /// Touch frame of a pinch update sent (and flushed) by the compositor -> the commit carrying the
    /// fold frame it asked for, at 1920x1200, over `updates` updates; frame callbacks answered at
    /// once, so the figure is the client's own cost (input handling, the fold render, the commit)
    /// rather than a wait for a display clock. The fingers land 800 px apart, then sweep between 780
    /// and 400 px apart (scale 0.975…0.5, never clamped), so every update changes the fold.
    static func pinchFrame(_ executable: String, scale: BufferScale, dataHome: String, updates: Int = 1200) throws -> BenchResult {
        let (compositor, client) = try touchSession(executable, scale: scale, dataHome: dataHome)
        defer {
            client.terminate()
            compositor.stop()
        }

        let y = Double(height) / 2, centre = Double(width) / 2
        let start = 800.0, sweep = 400.0...780.0, step = 4.0
        let begin = compositor.lastCommitIndex
        try compositor.sendTouch([.down(id: 1, x: centre - start / 2, y: y), .down(id: 2, x: centre + start / 2, y: y), .frame])
        _ = try foldCommit(compositor, after: begin, scale: scale)  // the first fold frame also prepares the pages: not timed
        var samples: [Double] = []
        var distance = start, direction = -1.0
        while samples.count < updates {
            if !sweep.contains(distance + direction * step) && sweep.contains(distance) { direction = -direction }
            distance += direction * step
            let last = compositor.lastCommitIndex
            let sent = try compositor.sendTouch([.motion(id: 1, x: centre - distance / 2, y: y),
                                                 .motion(id: 2, x: centre + distance / 2, y: y), .frame])
            samples.append((try foldCommit(compositor, after: last, scale: scale).receivedAt - sent).milliseconds)
        }
        try compositor.sendTouch([.up(id: 1), .up(id: 2), .frame])
        return BenchResult(name: "pinch.frame", width: Int(width), height: Int(height), samples: samples)
    }

    /// The first commit after commit number `index` that attaches a buffer; it must redraw the whole
    /// frame, as fold frames do (anything else means the client did not fold).
    private static func foldCommit(_ compositor: TestCompositor, after index: Int, scale: BufferScale) throws -> CommitRecord {
        let commit = try compositor.waitForCommit(after: index, timeout: .seconds(5))
        let frame = PixelRect(x: 0, y: 0, width: scale.pixels(Int(width)), height: scale.pixels(Int(height)))
        guard commit.damage.contains(where: { $0.contains(frame) }) else {
            throw TestCompositorError("commit \(commit.index) during the pinch damages only \(commit.damage), not the whole frame")
        }
        return commit
    }

    /// Process spawned -> its first committed buffer (1920x1200), over 10 launches.
    static func firstFrame(_ executable: String, scale: BufferScale, dataHome: String, runs: Int = 10) throws -> BenchResult {
        let options = options(scale: scale)
        var samples: [Double] = []
        for _ in 0..<runs {
            let compositor = try TestCompositor(options: options)
            defer { compositor.stop() }
            let start = ContinuousClock.now
            let client = try compositor.launch(executable, environment: ["XDG_DATA_HOME": dataHome])
            defer { client.terminate() }
            let commit = try compositor.waitForCommit(after: -1, timeout: .seconds(20))
            samples.append((commit.receivedAt - start).milliseconds)
            try compositor.close()
            try client.waitForExit(timeout: .seconds(10))
        }
        return BenchResult(name: "startup.first_frame", width: Int(width), height: Int(height), samples: samples)
    }

    private static func temporaryDirectory() throws -> String {
        try makeTemporaryDirectory(prefix: "folio-bench")
    }
}

private extension Session {
    /// Input events that happen at one time, in order.
    func handle(_ events: [InputEvent], at time: Double) {
        for event in events { handle(event, at: time) }
    }
}
