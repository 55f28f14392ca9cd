import CTestCompositor
import CWaylandServer
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real Wayland compositor on libwayland-server, for tests and benchmarks: a private socket in
/// a private XDG_RUNTIME_DIR; wl_compositor, wl_shm, xdg_wm_base, a wl_seat whose capabilities
/// change on demand, a wl_output, pointer-gestures (touchpad pinch) and, when asked, wp_viewporter
/// with wp_fractional_scale_v1. Its event loop runs on its own thread; every method here is
/// synchronous and waits with a timeout.
public final class TestCompositor: @unchecked Sendable {
    public let options: TestCompositorOptions
    /// The private XDG_RUNTIME_DIR holding the socket.
    public let runtimeDirectory: String
    public let socketName = "wayland-folio-test"

    private let server: Server
    private let stopLock = NSLock()
    private var isStopped = false

    public init(options: TestCompositorOptions = TestCompositorOptions()) throws {
        self.options = options
        runtimeDirectory = try makeTemporaryDirectory(prefix: "folio-compositor")
        server = try Server(options: options, socketPath: runtimeDirectory + "/" + socketName)
        let thread = Thread { [server] in server.run() }
        thread.name = "TestCompositor"
        thread.start()
    }

    deinit { stop() }

    /// What a client needs to connect here.
    public var clientEnvironment: [String: String] {
        ["XDG_RUNTIME_DIR": runtimeDirectory, "WAYLAND_DISPLAY": socketName]
    }

    /// Everything recorded so far.
    public var observation: Observation { server.observation }

    /// Stops the compositor: every client loses its connection, the socket goes away.
    public func stop() {
        stopLock.lock()
        let alreadyStopped = isStopped
        isStopped = true
        stopLock.unlock()
        guard !alreadyStopped else { return }
        server.enqueue { [server] in wl_display_terminate(server.display) }
        server.waitUntilLoopEnds()
        server.destroy()
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }

    // MARK: Waiting

    /// Waits until `probe` finds what it looks for in the recorded state; throws after `timeout`,
    /// naming `what`.
    public func wait<T>(for what: String, timeout: Duration = .seconds(10), _ probe: (Observation) -> T?) throws -> T {
        let deadline = Date().addingTimeInterval(Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
        let condition = server.condition
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let found = probe(server.observationLocked) { return found }
            if !condition.wait(until: deadline) {
                if let found = probe(server.observationLocked) { return found }
                throw TestCompositorError("timed out after \(timeout) waiting for \(what)")
            }
        }
    }

    /// Waits for the toplevel's first buffer.
    @discardableResult
    public func waitForToplevel(timeout: Duration = .seconds(20)) throws -> ToplevelInfo {
        try wait(for: "a mapped xdg_toplevel", timeout: timeout) { $0.toplevel?.mapped == true ? $0.toplevel : nil }
    }

    /// Waits for the first commit after commit number `index` that carries a newly attached buffer.
    public func waitForCommit(after index: Int, timeout: Duration = .seconds(10)) throws -> CommitRecord {
        try wait(for: "a commit with a buffer after commit \(index)", timeout: timeout) { observation in
            observation.commits.dropFirst(index + 1).first { $0.attached && $0.buffer != nil }
        }
    }

    /// The index of the newest commit, or -1.
    public var lastCommitIndex: Int { observation.commits.count - 1 }

    // MARK: Acting

    /// Runs `work` on the loop thread and returns its result.
    private func onLoop<T>(_ work: @escaping (Server) -> T) throws -> T {
        let box = ResultBox<T>()
        server.enqueue { [server] in box.put(work(server)) }
        guard let value = box.take(timeout: 10) else { throw TestCompositorError("the compositor loop did not answer") }
        return value
    }

    /// Sends touch events to the mapped surface's client; returns when the loop flushed them.
    /// The events carry `stamp` as their time (ms, see `inputTimestamp`), or the moment they are sent:
    /// a test that cares how far apart two events were (the 300 ms pinch rule) stamps them itself.
    @discardableResult
    public func sendTouch(_ events: [TouchEvent], stamp: UInt32? = nil) throws -> ContinuousClock.Instant {
        guard let sent = try onLoop({ $0.sendTouch(events, stamp: stamp) }) else { throw TestCompositorError("no mapped surface to touch") }
        return sent
    }

    /// Now on the clock input events are stamped with (CLOCK_MONOTONIC in ms, wrapping at 2^32).
    public static var inputTimestamp: UInt32 { Server.milliseconds() }

    /// Sends pointer events to the mapped surface's client.
    public func sendPointer(_ events: [PointerEvent]) throws {
        guard try onLoop({ $0.sendPointer(events) }) else { throw TestCompositorError("no mapped surface for the pointer") }
    }

    /// Sends tablet tool events (tablet-v2) to the mapped surface's client; returns when the
    /// loop flushed them.
    @discardableResult
    public func sendTablet(_ events: [TabletEvent]) throws -> ContinuousClock.Instant {
        guard let sent = try onLoop({ $0.sendTablet(events) }) else { throw TestCompositorError("no mapped surface for the pen") }
        return sent
    }

    /// Sends touchpad pinch events (pointer-gestures) to the surface under the pointer.
    public func sendPinch(_ events: [PinchGestureEvent]) throws {
        guard try onLoop({ $0.sendPinch(events) }) else { throw TestCompositorError("the pointer is over no mapped surface") }
    }

    /// Sends input-method events (zwp_text_input_v3) to the text inputs that have the text focus.
    public func sendTextInput(_ events: [TextInputEvent]) throws {
        guard try onLoop({ $0.sendTextInput(events) }) else { throw TestCompositorError("no text input has the text focus") }
    }

    /// Presses and releases a key (an evdev code, see `KeyCode`) with `modifiers` held.
    public func press(_ key: UInt32, modifiers: KeyModifiers = []) throws {
        guard try onLoop({ $0.press(key, modifiers: modifiers) }) else {
            throw TestCompositorError("no mapped surface, or no keymap (is xkb-data installed?)")
        }
    }

    /// Changes the seat's capabilities and tells every client.
    public func setCapabilities(_ capabilities: SeatCapabilities) throws {
        try onLoop { $0.setCapabilities(capabilities) }
    }

    /// Sends a new preferred fractional scale (N/120) to every surface (with `fractionalScale` set).
    public func setPreferredScale(_ scale: UInt32) throws {
        try onLoop { $0.setPreferredScale(scale) }
    }

    /// Answers the waiting frame callbacks (for `.manual` pacing).
    public func sendFrameDone() throws {
        try onLoop { $0.sendFrameDone() }
    }

    /// Sends a new configure (size 0x0 lets the client choose).
    public func configure(width: Int32, height: Int32, fullscreen: Bool = false) throws {
        var states = [XDG_TOPLEVEL_STATE_ACTIVATED.rawValue]
        if fullscreen { states.append(XDG_TOPLEVEL_STATE_FULLSCREEN.rawValue) }
        try onLoop { $0.configureToplevels(width: width, height: height, states: states) }
    }

    /// Asks the client to close its window, as a window manager's close button does.
    public func close() throws {
        try onLoop { $0.closeToplevels() }
    }

    /// Sends the client a protocol error on its xdg_toplevel, which ends its connection.
    public func postProtocolError(code: UInt32, message: String) throws {
        try onLoop { $0.postErrorOnToplevel(code: code, message) }
    }

    /// Pings the client and waits for its pong.
    public func ping(timeout: Duration = .seconds(5)) throws {
        let before = observation.pongs
        try onLoop { $0.pingClients() }
        _ = try wait(for: "a pong", timeout: timeout) { $0.pongs > before ? true : nil }
    }

    /// What the mapped surface shows now (built from declared damage, as a screen would be).
    public func surfaceImage() throws -> Image {
        guard let image = try onLoop({ $0.focusImage }) else { throw TestCompositorError("no mapped surface") }
        return image
    }

    /// What the screen shows: the mapped surface with its subsurfaces over it.
    public func screenImage() throws -> Image {
        guard let image = try onLoop({ $0.screenImage }) else { throw TestCompositorError("no mapped surface") }
        return image
    }

    /// Starts a client connected here, with stdout and stderr captured.
    public func launch(_ executable: String, arguments: [String] = [], environment: [String: String] = [:]) throws -> ClientProcess {
        var env = ProcessInfo.processInfo.environment
        env["WAYLAND_SOCKET"] = nil
        for (key, value) in clientEnvironment { env[key] = value }
        for (key, value) in environment { env[key] = value }
        return try ClientProcess(executable: executable, arguments: arguments, environment: env)
    }
}

/// A value handed from the loop thread to a waiting caller.
private final class ResultBox<T>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: T?

    func put(_ newValue: T) {
        condition.lock()
        value = newValue
        condition.broadcast()
        condition.unlock()
    }

    func take(timeout: TimeInterval) -> T? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while value == nil { if !condition.wait(until: deadline) { break } }
        return value
    }
}
