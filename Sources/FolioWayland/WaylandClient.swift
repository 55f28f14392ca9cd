import CWaylandClient
import FolioGeometry
import FolioInput
import FolioPixels

/// Folio's Wayland client as the app sees it: a window that reports input, sizes and frame
/// callbacks, presents frames, and one event loop with a timer. The app (or a test) supplies
/// the policy; everything protocol-shaped stays inside this module.
public final class WaylandClient {
    private let display: Display
    private let registry: Registry
    private let loop: EventLoop
    private var outputs: [Output] = []
    private var seats: [Seat] = []
    /// The seats' text inputs, where the compositor offers on-screen keyboards.
    private var textInputs: [TextInput] = []
    private var clock = InputClock()
    private var windowStorage: Window?
    /// Made at the first pointer enter, shared by every pointer.
    private var cursor: Cursor?
    private var toldNoToolbar = false
    /// The timer `armTimer(after:)` arms, and the one `requestTick(after:)` arms (made in init).
    private var timer: EventLoop.Timer?
    private var tickTimer: EventLoop.Timer?
    /// The timer `wakeToDraw(after:)` arms.
    private var drawTimer: EventLoop.Timer?
    private var wakeTimer: EventLoop.Timer?
    /// Frame callbacks' arrivals: the compositor's cycle where it gives no presentation feedback.
    private var cadence = CallbackCadence()

    /// An input event and when it happened, on `monotonicMilliseconds()`'s timeline.
    public var onInput: ((InputEvent, Double) -> Void)?
    /// The window's logical size or buffer scale changed (also sent once at the first configure).
    public var onResize: ((_ width: Int, _ height: Int, _ scale: BufferScale) -> Void)?
    /// A frame callback: the compositor is ready for the next frame. The time (same timeline) is
    /// when that frame should reach the screen, predicted from presentation feedback where the
    /// compositor offers it, else now: animations are computed for the moment they are seen.
    public var onFrame: ((Double) -> Void)?
    /// A frame that drew input up to `input` (ms) was shown: presented at `shown` where the
    /// compositor gives presentation feedback, else its frame callback returned then.
    public var onFrameShown: ((_ input: Double, _ shown: Double, _ presented: Bool) -> Void)?
    /// The timer armed with `wakeToDraw(after:)` expired: a frame waiting for it may be drawn.
    public var onDrawTime: (() -> Void)?
    /// Another thread called `wakeup`'s `wake()`: runs on the loop.
    public var onWake: (() -> Void)?
    /// The compositor took back a buffer: a frame that waited for one can be presented.
    public var onBufferReleased: (() -> Void)?
    /// The user closed the window.
    public var onClose: (() -> Void)?
    /// Something from the compositor was out of range and has been fitted: one line for the log.
    public var onWarning: ((String) -> Void)?
    /// The process was asked to end (SIGINT, SIGTERM, SIGHUP).
    public var onQuit: (() -> Void)?
    /// The timer armed with `armTimer(after:)` expired.
    public var onTimer: (() -> Void)?

    /// Connects (honouring `WAYLAND_DISPLAY` / `WAYLAND_SOCKET`), binds the globals and opens the window.
    public init(fullscreen: Bool) throws {
        display = try Display()
        registry = try Registry(display: display)
        loop = try EventLoop(display: display)
        registry.onOutput = { [unowned self] proxy, name, version in
            let output = Output(proxy: proxy, name: name, version: version)
            output.onScaleChange = { [unowned self] in windowStorage?.outputsChanged() }
            outputs.append(output)
        }
        registry.onSeat = { [unowned self] proxy, name, version in
            let seat = Seat(proxy: proxy, name: name, version: version, pointerGestures: { [unowned self] in registry.pointerGestures },
                            sink: { [unowned self] event, time in deliver(event, time: time) },
                            setCursor: { [unowned self] pointer, serial in showCursor(on: pointer, serial: serial) })
            if let manager = registry.tabletManager { seat.attachTablets(manager: manager) }
            seats.append(seat)
        }
        registry.onTabletManager = { [unowned self] manager in
            for seat in seats { seat.attachTablets(manager: manager) }
        }
        registry.onRemove = { [unowned self] name in
            if let index = outputs.firstIndex(where: { $0.name == name }) {
                let output = outputs.remove(at: index)
                windowStorage?.outputsChanged(removed: output.proxy)
            }
            for seat in seats where seat.name == name { seat.unplug() }
            seats.removeAll { $0.name == name }
            textInputs.removeAll { $0.seatName == name }
        }
        try display.roundtrip()
        try registry.requireEssentials()
        if let manager = registry.textInputManager {
            textInputs = seats.compactMap { seat in
                TextInput(manager: manager, seat: seat.proxy, seatName: seat.name, sink: { [unowned self] event, time in deliver(event, time: time) })
            }
        }
        let window = try Window(registry: registry, fullscreen: fullscreen) { [unowned self] in
            outputs.map { ($0.proxy, $0.scale) }
        }
        window.onResize = { [unowned self] width, height, scale in onResize?(width, height, scale) }
        // The window owns these closures: capturing it strongly would keep it (and its buffers) alive for ever.
        window.onFrame = { [unowned self, unowned window] input, stamp in
            let now = monotonicMilliseconds()
            cadence.arrived(at: now, stamp: stamp)
            if let input, !window.hasPresentationFeedback { onFrameShown?(input, now, false) }
            onFrame?(window.predictedPresentation(now: now) ?? now)
        }
        window.onPresented = { [unowned self] input, presented in onFrameShown?(input, presented, true) }
        window.onClose = { [unowned self] in onClose?() }
        window.onWarning = { [unowned self] message in onWarning?(message) }
        window.onBufferReleased = { [unowned self] in onBufferReleased?() }
        windowStorage = window
        timer = try loop.makeTimer { [unowned self] in onTimer?() }
        tickTimer = try loop.makeTimer { [unowned self] in windowStorage?.requestTick() }
        drawTimer = try loop.makeTimer { [unowned self] in onDrawTime?() }
        wakeTimer = try loop.makeTimer { [unowned self] in onWake?() }
        loop.onQuitSignal = { [unowned self] _ in onQuit?() }
    }

    deinit {
        textInputs.removeAll()
        seats.removeAll()
        cursor = nil
        windowStorage = nil
        outputs.removeAll()
    }

    private var window: Window {
        guard let windowStorage else { preconditionFailure("the window exists from init to deinit") }
        return windowStorage
    }

    private func showCursor(on pointer: OpaquePointer, serial: UInt32) {
        if cursor == nil, let compositor = registry.compositor, let shm = registry.shm {
            cursor = Cursor(compositor: compositor, shm: shm)
        }
        cursor?.show(on: pointer, serial: serial, scale: windowStorage?.scale.roundedUp ?? 1)
    }

    private func deliver(_ event: InputEvent, time: UInt32?) {
        let milliseconds = time.map { clock.milliseconds($0) } ?? clock.latest
        onInput?(event, milliseconds)
    }

    /// Logical size and buffer scale of the window now.
    public var size: (width: Int, height: Int, scale: BufferScale) { (window.width, window.height, window.scale) }
    public var isConfigured: Bool { window.isConfigured }
    /// A frame callback is outstanding: the next frame waits for it.
    public var isFrameInFlight: Bool { window.isFrameInFlight }
    /// Whether a buffer is free for `present` (the compositor has released one).
    public var hasFreeBuffer: Bool { window.hasFreeBuffer }

    /// A free buffer of `width`×`height` to draw the next frame straight into, and the pixels
    /// it lacks relative to the newest frame; nil when every buffer is busy.
    public func acquireBuffer(width: Int, height: Int) throws -> (bitmap: Bitmap, missing: Region)? {
        try window.acquireBuffer(width: width, height: height)
    }

    /// Commits the buffer last acquired with `damage` (buffer pixels), a frame drawing input up
    /// to `input` (ms) if any, and asks for the next frame callback.
    public func present(damage: Region, input: Double?) throws {
        try window.present(damage: damage, input: input)
    }

    /// The compositor's cycle: a moment of it (ms) and its period. The newest vblank presentation
    /// feedback reported, else the newest frame callback once callbacks keep a steady cadence;
    /// nil when neither (frames are then drawn at each callback).
    public var repaintCycle: (time: Double, interval: Double)? {
        window.hasPresentationFeedback ? window.presentationCycle : cadence.cycle
    }

    /// Makes `onWake` run on the loop when another thread calls `wake()` (while this client lives).
    public var wakeup: LoopWakeup? { wakeTimer?.wakeup }

    /// Arms the draw timer (`onDrawTime`) to go off after `milliseconds`, replacing an earlier deadline.
    public func wakeToDraw(after milliseconds: Double) {
        drawTimer?.arm(after: milliseconds)
    }

    /// Shows the toolbar above the window, on a surface of its own (logical `origin`). Without
    /// subsurfaces it cannot be shown: said once, when a person first asks for the bar.
    public func presentToolbar(_ image: Bitmap, at origin: Point, barShown: Bool) throws {
        if try !window.presentToolbar(image, at: origin), barShown, !toldNoToolbar {
            toldNoToolbar = true
            onWarning?("the compositor offers no wl_subcompositor, so the toolbar cannot be shown; the keyboard still works")
        }
    }

    /// Asks for a frame callback with no new buffer, to keep an animation clock ticking.
    public func requestTick() {
        window.requestTick()
    }

    /// Asks for one frame callback after `milliseconds` (replacing an earlier such request): the
    /// clock sleeps until something is due to change on screen, such as the toolbar hiding.
    public func requestTick(after milliseconds: Double) {
        tickTimer?.arm(after: milliseconds)
    }

    public func toggleFullscreen() {
        window.toggleFullscreen()
    }

    /// A name starts being typed or changes (its text so far), or stops (nil): on-screen
    /// keyboards (zwp_text_input_v3) may show for it.
    public func setTextInput(_ text: String?) {
        for input in textInputs { input.setText(text) }
    }

    /// Arms the loop's one timer (ms from now, replacing any deadline); nil disarms it.
    public func armTimer(after milliseconds: Double?) {
        timer?.arm(after: milliseconds)
    }

    /// Runs the event loop until `stop()` or `fail(_:)`; throws `WaylandError` when the compositor goes away.
    public func run() throws {
        try loop.run()
    }

    public func stop() {
        loop.stop()
    }

    /// Stops the loop so `run()` throws `error` (for failures inside handlers).
    public func fail(_ error: Error) {
        loop.fail(error)
    }
}
