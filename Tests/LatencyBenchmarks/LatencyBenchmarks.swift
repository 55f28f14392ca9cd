import Foundation
import FolioBench
import FolioGeometry
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
    static let names = ["stroke.segment", "pinch.frame", "startup.first_frame"]

    /// The benchmarks among `names` that `wanted` accepts, run against `executable` in turn.
    static func run(_ executable: String, scale: BufferScale = 1, wanted: (String) -> Bool) throws -> [BenchResult] {
        // A book of its own for each benchmark: a client killed at the end of one may hold its
        // book's lock for a moment after the next one starts.
        func fresh(_ benchmark: (String) throws -> BenchResult) throws -> BenchResult {
            let dataHome = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: dataHome) }
            return try benchmark(dataHome)
        }
        var results: [BenchResult] = []
        if wanted("stroke.segment") { results.append(try fresh { try strokeSegment(executable, scale: scale, dataHome: $0) }) }
        if wanted("pinch.frame") { results.append(try fresh { try pinchFrame(executable, scale: scale, dataHome: $0) }) }
        if wanted("startup.first_frame") { results.append(try fresh { try firstFrame(executable, scale: scale, dataHome: $0) }) }
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

    /// Touch frame sent (and flushed) by the compositor -> the commit carrying its buffer, at
    /// 1920x1200, over 5 strokes of 60 segments; frame callbacks answered at once.
    static func strokeSegment(_ executable: String, scale: BufferScale, dataHome: String, strokes: Int = 5, segments: Int = 60) throws -> BenchResult {
        let (compositor, client) = try touchSession(executable, scale: scale, dataHome: dataHome)
        defer {
            client.terminate()
            compositor.stop()
        }

        var samples: [Double] = []
        for stroke in 0..<strokes {
            let y = 200.0 + Double(stroke) * 180
            try compositor.sendTouch([.down(id: 1, x: 300, y: y), .frame])
            settle(compositor)
            for segment in 1...segments {
                let x = 300.0 + Double(segment) * 20
                let wobble = 40 * sin(Double(segment) / 6)
                samples.append(try segmentLatency(compositor, to: x, y + wobble, scale: scale))
            }
            try compositor.sendTouch([.up(id: 1), .frame])
            settle(compositor)
        }
        return BenchResult(name: "stroke.segment", width: Int(width), height: Int(height), samples: samples)
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

    /// Moves finger 1 to (x, y) in one touch frame; the milliseconds until the commit whose damage
    /// covers that point (the buffer carrying the new segment).
    private static func segmentLatency(_ compositor: TestCompositor, to x: Double, _ y: Double, scale: BufferScale) throws -> Double {
        let last = compositor.lastCommitIndex
        let sent = try compositor.sendTouch([.motion(id: 1, x: x, y: y), .frame])
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
        var template = Array("/tmp/folio-bench-XXXXXX".utf8CString)
        guard let path = mkdtemp(&template) else { throw TestCompositorError("cannot create a temporary directory") }
        return String(cString: path)
    }
}
