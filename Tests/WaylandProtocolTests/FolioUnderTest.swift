import Foundation
import FolioGeometry
import FolioPixels
import FolioRender
import TestCompositor
import XCTest

/// The `folio` app running against a fresh test compositor, with helpers to touch it and to
/// wait for what it shows.
final class FolioUnderTest {
    let compositor: TestCompositor
    let client: ClientProcess
    /// The private data and config home (`XDG_DATA_HOME`, and `config` in it as `XDG_CONFIG_HOME`).
    let dataHome: String

    init(width: Int32 = 640, height: Int32 = 480, capabilities: SeatCapabilities = [.touch, .pointer],
         outputScale: Int32 = 1, fractionalScale: UInt32? = nil, pacing: FramePacing = .immediate, captureBuffers: Bool = false,
         waitForTouch: Bool = true, tablet: Bool = false, subsurfaces: Bool = false, textInput: Bool = false, settings: String? = nil,
         arguments: [String] = []) throws {
        var options = TestCompositorOptions()
        options.configureWidth = width
        options.configureHeight = height
        options.capabilities = capabilities
        options.outputScale = outputScale
        options.fractionalScale = fractionalScale
        options.framePacing = pacing
        options.captureBuffers = captureBuffers
        options.tablet = tablet
        options.subsurfaces = subsurfaces
        options.textInput = textInput
        compositor = try TestCompositor(options: options)
        dataHome = try Self.temporaryDirectory()
        if let settings {
            let folder = dataHome + "/config/folio"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(settings.utf8).write(to: URL(fileURLWithPath: folder + "/config.toml"))
        }
        // A book and settings of its own: a test never touches those of whoever runs it.
        client = try compositor.launch(try ClientProcess.folioExecutable(), arguments: arguments,
                                       environment: ["XDG_DATA_HOME": dataHome, "XDG_CONFIG_HOME": dataHome + "/config"])
        let needsTouch = waitForTouch && capabilities.contains(.touch)
        _ = try waitWhileRunning("folio's window\(needsTouch ? " and its wl_touch" : "")\(tablet ? " and its tablet seat" : "")") { observation in
            observation.toplevel?.mapped == true && (!needsTouch || observation.touchObjects > 0)
                && (!tablet || observation.tabletSeatObjects > 0) ? true : nil
        }
    }

    /// Waits for `probe` like `TestCompositor.wait`, but gives up as soon as the client exits.
    func waitWhileRunning<T>(_ what: String, timeout: TimeInterval = 20, _ probe: (Observation) -> T?) throws -> T {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let found = try? compositor.wait(for: what, timeout: .milliseconds(200), probe) { return found }
            if !client.isRunning || Date() > deadline {
                let status = (try? client.waitForExit(timeout: .seconds(2))).map { "exit status \($0.map(String.init) ?? "signal")" } ?? "still running"
                throw TestCompositorError("no \(what) (folio: \(status)); folio's stderr:\n\(client.standardError)")
            }
        }
    }

    /// The book the app opened: without --book it opens on the shelf in the private data home,
    /// inside the newest book (book ids sort by when they were made). `settings`, when given, is
    /// the app's config.toml (in a private config home, as every run has).
    var book: String {
        let shelf = dataHome + "/folio/books"
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: shelf))?.filter { !$0.hasPrefix(".") }.sorted() ?? []
        return ids.last.map { shelf + "/" + $0 } ?? shelf
    }

    deinit {
        client.terminate()
        compositor.stop()
        try? FileManager.default.removeItem(atPath: dataHome)
    }

    static func temporaryDirectory() throws -> String {
        try makeTemporaryDirectory(prefix: "folio-test")
    }

    /// Draws a stroke with finger `id` through `points`, one touch frame per point, waiting for
    /// the commit each motion causes.
    func stroke(_ points: [Point], id: Int32 = 1) throws {
        guard let first = points.first else { return }
        try compositor.sendTouch([.down(id: id, x: first.x, y: first.y), .frame])
        for p in points.dropFirst() {
            let last = compositor.lastCommitIndex
            try compositor.sendTouch([.motion(id: id, x: p.x, y: p.y), .frame])
            _ = try compositor.waitForCommit(after: last)
        }
        try compositor.sendTouch([.up(id: id), .frame])
    }

    /// Waits until the client is quiet: it answered a ping, then committed nothing for 150 ms
    /// (600 ms under a sanitizer, where one frame on a busy machine can take longer than 150 ms
    /// and its commit would land after the settle, counted against the test's next step).
    func settle() throws {
        let quiet = ProcessInfo.processInfo.environment["FOLIO_SANITIZER"] == nil ? 0.15 : 0.6
        for _ in 0..<100 {
            let before = compositor.lastCommitIndex
            // Generous: a pinch's first frame builds the page renderer, which a sanitizer on a
            // busy machine slows many times over; a hang still fails, with where folio stood.
            do {
                try compositor.ping(timeout: .seconds(30))
            } catch {
                throw TestCompositorError("\(error) (folio \(client.isRunning ? "running" : "gone")); folio's stderr:\n"
                                          + "\(client.standardError)\nfolio's threads:\n\(threadStacks())")
            }
            Thread.sleep(forTimeInterval: quiet)
            if compositor.lastCommitIndex == before { return }
        }
        throw TestCompositorError("folio kept committing through 100 quiet windows")
    }

    /// Every thread's backtrace in the client, from gdb (`make test` installs it), so a hang
    /// reported by a test says where the app was stuck.
    func threadStacks() -> String {
        guard client.isRunning else { return "(folio has exited)" }
        guard let gdb = ["/usr/bin/gdb", "/usr/local/bin/gdb"].first(where: FileManager.default.isExecutableFile) else {
            return "(gdb is not installed)"
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gdb)
        process.arguments = ["-batch", "-nx", "-p", "\(client.processIdentifier)", "-ex", "thread apply all bt 30"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        do { try process.run() } catch { return "(gdb did not start: \(error))" }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: "\n").filter { $0.hasPrefix("#") || $0.hasPrefix("Thread ") }.joined(separator: "\n")
    }

    /// Waits until what the surface shows satisfies `condition`; on timeout, saves the image
    /// to a PNG (named in the error) for a person to look at.
    @discardableResult
    func waitForImage(_ what: String, timeout: TimeInterval = 10, _ condition: (Image) -> Bool) throws -> Image {
        let deadline = Date().addingTimeInterval(timeout)
        var image = try compositor.surfaceImage()
        while !condition(image) {
            if Date() > deadline {
                throw TestCompositorError("timed out waiting for \(what); the surface is in \(save(image, as: what))")
            }
            Thread.sleep(forTimeInterval: 0.02)
            image = try compositor.surfaceImage()
        }
        return image
    }

    /// Saves `image` as a PNG under the temporary directory and returns its path (or why not).
    func save(_ image: Image, as name: String) -> String {
        let path = NSTemporaryDirectory() + "folio-" + name.filter { $0.isLetter || $0.isNumber } + ".png"
        do {
            try PNG.write(image.bitmap(), to: path)
            return path
        } catch {
            return "(not saved: \(error))"
        }
    }
}

/// Points along a straight line, `count` of them, ends included.
func line(from a: Point, to b: Point, count: Int) -> [Point] {
    (0..<count).map { i in
        let t = Double(i) / Double(count - 1)
        return Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }
}

/// The pixel rectangle a stroke through `points` may touch: their bounds grown by the ink's
/// half width and antialiasing.
func inkBounds(_ points: [Point], scale: Double = 1, margin: Double = 6) -> PixelRect {
    let xs = points.map(\.x), ys = points.map(\.y)
    let x0 = Int(((xs.min() ?? 0) - margin) * scale), y0 = Int(((ys.min() ?? 0) - margin) * scale)
    let x1 = Int((((xs.max() ?? 0) + margin) * scale).rounded(.up)), y1 = Int((((ys.max() ?? 0) + margin) * scale).rounded(.up))
    return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
}
