import CTestCompositor
import CWaylandServer
import Foundation

/// How the test compositor behaves; chosen before it starts.
public struct TestCompositorOptions: Sendable {
    /// The size of the first configure; 0x0 lets the client choose, as desktop compositors do.
    public var configureWidth: Int32 = 0
    public var configureHeight: Int32 = 0
    public var capabilities: SeatCapabilities = [.touch, .pointer]
    public var outputScale: Int32 = 1
    /// Offer wp_viewporter and wp_fractional_scale_v1 with this preferred scale (N/120, e.g.
    /// 180 for 1.5); nil offers neither, as compositors without fractional scaling do.
    public var fractionalScale: UInt32?
    public var framePacing: FramePacing = .immediate
    /// Keep a copy of every committed buffer (memory grows with each commit: for small windows).
    public var captureBuffers = false
    /// Offer zwp_tablet_manager_v2: every tablet seat gets one tablet with a pen and an eraser.
    public var tablet = false
    /// Offer wl_subcompositor (off by default: a client then commits to one surface only).
    public var subsurfaces = false
    /// Offer zwp_text_input_manager_v3: text inputs get the text focus with the keyboard focus.
    public var textInput = false

    public init() {}
}

/// The compositor's state and protocol handlers. Everything here runs on the loop thread,
/// except `observation` (behind `condition`) and `enqueue`.
final class Server: @unchecked Sendable {
    let options: TestCompositorOptions
    let display: OpaquePointer
    let implementations = Implementations()
    let tabletImplementations = TabletImplementations()
    let textInputImplementations = TextInputImplementations()

    let condition = NSCondition()
    private var observationStorage = Observation()

    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let queueLock = NSLock()
    private let loopDone = NSCondition()
    private var loopFinished = false
    private var queue: [() -> Void] = []

    // Loop-thread state.
    private var surfaceCount = 0
    private var surfaces: [Surface] = []
    private var focus: Surface?
    private var seats: [SeatBinding] = []
    private var devices: [InputDevice] = []
    private var pinchGestures: [PinchGesture] = []
    private var subsurfaces: [Subsurface] = []
    var tabletSeats: [TabletSeatObject] = []
    /// The tool tablet events come from (the last proximity_in's).
    var tabletTool = TestTabletTool.pen
    var textInputs: [TextInputObject] = []
    private var outputs: [OutputBinding] = []
    private var fractionalScales: [FractionalScale] = []
    private lazy var preferredScale: UInt32 = options.fractionalScale ?? 120
    private var buffers: [Resource: Int] = [:]
    private var bufferCount = 0
    private var waitingCallbacks: [FrameCallback] = []
    private var pointerInside = false
    let keymap = Keymap()
    private(set) var capabilities: SeatCapabilities
    var configureState: (width: Int32, height: Int32, states: [UInt32])
    private var frameTimer: OpaquePointer?
    /// The `.display` clock: vblank 0 (CLOCK_MONOTONIC ms) and the last vblank answered.
    private var displayStart = 0.0
    private var lastVblank = 0

    init(options: TestCompositorOptions, socketPath: String) throws {
        self.options = options
        capabilities = options.capabilities
        configureState = (options.configureWidth, options.configureHeight, [XDG_TOPLEVEL_STATE_ACTIVATED.rawValue])
        guard let display = wl_display_create() else { throw TestCompositorError("wl_display_create failed") }
        self.display = display
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw TestCompositorError("pipe failed: \(String(cString: strerror(errno)))") }
        wakeRead = fds[0]
        wakeWrite = fds[1]
        _ = fcntl(wakeRead, F_SETFD, FD_CLOEXEC)
        _ = fcntl(wakeWrite, F_SETFD, FD_CLOEXEC)
        _ = fcntl(wakeRead, F_SETFL, O_NONBLOCK)

        let socket = folio_test_listen(socketPath)
        guard socket >= 0, wl_display_add_socket_fd(display, socket) == 0 else {
            throw TestCompositorError("cannot listen on \(socketPath): \(String(cString: strerror(errno)))")
        }
        guard wl_display_init_shm(display) == 0 else { throw TestCompositorError("wl_display_init_shm failed") }
        try createGlobals()

        let loop = wl_display_get_event_loop(display)
        wl_event_loop_add_fd(loop, wakeRead, UInt32(WL_EVENT_READABLE), { _, _, data in
            guard let data else { return 0 }
            Unmanaged<Server>.fromOpaque(data).takeUnretainedValue().runQueue()
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
        if case .interval = options.framePacing {
            frameTimer = wl_event_loop_add_timer(loop, { data in
                guard let data else { return 0 }
                let server = Unmanaged<Server>.fromOpaque(data).takeUnretainedValue()
                server.sendFrameDone()
                server.armFrameTimer()
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
            armFrameTimer()
        }
        if case .display = options.framePacing {
            displayStart = Self.monotonicMilliseconds()
            frameTimer = wl_event_loop_add_timer(loop, { data in
                guard let data else { return 0 }
                Unmanaged<Server>.fromOpaque(data).takeUnretainedValue().vblankTimerFired()
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
            armVblankTimer()
        }
    }

    private func armFrameTimer() {
        if case .interval(let milliseconds) = options.framePacing, let frameTimer {
            wl_event_source_timer_update(frameTimer, Int32(max(1, milliseconds)))
        }
    }

    /// The `.display` clock's refresh interval and repaint window (ms).
    private var displayClock: (interval: Double, window: Double)? {
        guard case .display(let hz, let window) = options.framePacing, hz > 0 else { return nil }
        return (1000 / hz, window)
    }

    /// Wakes at the next vblank (the timer has whole milliseconds: at or just after it).
    private func armVblankTimer() {
        guard let frameTimer, let (interval, _) = displayClock else { return }
        let next = displayStart + Double(lastVblank + 1) * interval
        let wait = (next - Self.monotonicMilliseconds()).rounded(.up)
        wl_event_source_timer_update(frameTimer, Int32(max(1, wait)))
    }

    /// The latest vblank has passed: the callbacks of commits made before its deadline fire with
    /// its time; later ones wait for the next. A late wake-up answers only the latest vblank.
    private func vblankTimerFired() {
        defer { armVblankTimer() }
        guard let (interval, window) = displayClock else { return }
        let vblankIndex = Int(((Self.monotonicMilliseconds() - displayStart) / interval).rounded(.down))
        guard vblankIndex > lastVblank else { return }
        lastVblank = vblankIndex
        let vblank = displayStart + Double(vblankIndex) * interval
        let due = waitingCallbacks.filter { $0.committedAt < vblank - window }
        guard !due.isEmpty else { return }
        waitingCallbacks.removeAll { $0.committedAt < vblank - window }
        let time = UInt32(truncatingIfNeeded: Int(vblank.rounded(.down)))
        record { observation in
            observation.frameDones += due.map { FrameDone(committedAt: $0.committedAt, vblank: vblank, time: time) }
        }
        for callback in due {
            wl_callback_send_done(callback.resource, time)
            wl_resource_destroy(callback.resource)
        }
        wl_display_flush_clients(display)
    }

    /// Frees what the display no longer needs; the loop must have stopped.
    func destroy() {
        if let frameTimer { wl_event_source_remove(frameTimer) }
        wl_display_destroy_clients(display)
        wl_display_destroy(display)
        close(wakeRead)
        close(wakeWrite)
    }

    // MARK: Talking to the loop thread

    /// Runs `work` on the loop thread soon.
    func enqueue(_ work: @escaping () -> Void) {
        queueLock.lock()
        queue.append(work)
        queueLock.unlock()
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private func runQueue() {
        var scratch = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &scratch, scratch.count) > 0 {}
        queueLock.lock()
        let work = queue
        queue = []
        queueLock.unlock()
        for item in work { item() }
        wl_display_flush_clients(display)
    }

    /// Runs the event loop until `wl_display_terminate`.
    func run() {
        wl_display_run(display)
        loopDone.lock()
        loopFinished = true
        loopDone.broadcast()
        loopDone.unlock()
    }

    func waitUntilLoopEnds() {
        loopDone.lock()
        while !loopFinished { loopDone.wait() }
        loopDone.unlock()
    }

    /// The observation, for a caller already holding `condition`.
    var observationLocked: Observation { observationStorage }

    var observation: Observation {
        condition.lock()
        defer { condition.unlock() }
        return observationStorage
    }

    /// Changes what the tests can observe, and wakes whoever waits for it.
    func record(_ change: (inout Observation) -> Void) {
        condition.lock()
        change(&observationStorage)
        condition.broadcast()
        condition.unlock()
    }

    func nextSerial() -> UInt32 { wl_display_next_serial(display) }

    func postError(_ resource: Resource, code: UInt32, _ message: String) {
        record { $0.protocolErrors.append(message) }
        folio_test_post_error(resource, code, message)
    }

    // MARK: Globals

    private func createGlobals() throws {
        let me = Unmanaged.passUnretained(self).toOpaque()
        var globals: [(String, Int32, wl_global_bind_func_t)] = [
            ("wl_compositor", 5, { client, data, version, id in
                guard let data, let resource = makeResource(client, "wl_compositor", version: Int32(version), id: id) else { return }
                let server = Unmanaged<Server>.fromOpaque(data).takeUnretainedValue()
                InertObject(resource: resource, compositor: server).install(server.implementations.compositor)
            }),
            ("xdg_wm_base", 5, { client, data, version, id in
                guard let data, let resource = makeResource(client, "xdg_wm_base", version: Int32(version), id: id) else { return }
                let server = Unmanaged<Server>.fromOpaque(data).takeUnretainedValue()
                InertObject(resource: resource, compositor: server).install(server.implementations.wmBase)
            }),
            ("wl_seat", 7, { client, data, version, id in
                guard let data, let resource = makeResource(client, "wl_seat", version: Int32(version), id: id) else { return }
                Unmanaged<Server>.fromOpaque(data).takeUnretainedValue().seatBound(resource)
            }),
            ("wl_output", 4, { client, data, version, id in
                guard let data, let resource = makeResource(client, "wl_output", version: Int32(version), id: id) else { return }
                Unmanaged<Server>.fromOpaque(data).takeUnretainedValue().outputBound(resource)
            }),
            ("zwp_pointer_gestures_v1", 3, { client, data, version, id in
                guard let data, let resource = makeResource(client, "zwp_pointer_gestures_v1", version: Int32(version), id: id) else { return }
                let server = Unmanaged<Server>.fromOpaque(data).takeUnretainedValue()
                InertObject(resource: resource, compositor: server).install(server.implementations.pointerGestures)
            }),
        ]
        if options.fractionalScale != nil {
            globals.append(("wp_viewporter", 1, { client, data, version, id in
                guard let data, let resource = makeResource(client, "wp_viewporter", version: Int32(version), id: id) else { return }
                let server = Unmanaged<Server>.fromOpaque(data).takeUnretainedValue()
                InertObject(resource: resource, compositor: server).install(server.implementations.viewporter)
            }))
            globals.append(("wp_fractional_scale_manager_v1", 1, { client, data, version, id in
                guard let data, let resource = makeResource(client, "wp_fractional_scale_manager_v1", version: Int32(version), id: id)
                else { return }
                let server = Unmanaged<Server>.fromOpaque(data).takeUnretainedValue()
                InertObject(resource: resource, compositor: server).install(server.implementations.fractionalScaleManager)
            }))
        }
        if options.subsurfaces {
            globals.append(("wl_subcompositor", 1, { client, data, version, id in
                guard let data, let resource = makeResource(client, "wl_subcompositor", version: Int32(version), id: id) else { return }
                let server = Unmanaged<Server>.fromOpaque(data).takeUnretainedValue()
                InertObject(resource: resource, compositor: server).install(server.implementations.subcompositor)
            }))
        }
        if options.tablet {
            globals.append(("zwp_tablet_manager_v2", 1, { client, data, version, id in
                guard let data, let resource = makeResource(client, "zwp_tablet_manager_v2", version: Int32(version), id: id) else { return }
                let server = Unmanaged<Server>.fromOpaque(data).takeUnretainedValue()
                InertObject(resource: resource, compositor: server).install(server.tabletImplementations.manager)
            }))
        }
        if options.textInput {
            globals.append(("zwp_text_input_manager_v3", 1, { client, data, version, id in
                guard let data, let resource = makeResource(client, "zwp_text_input_manager_v3", version: Int32(version), id: id)
                else { return }
                let server = Unmanaged<Server>.fromOpaque(data).takeUnretainedValue()
                InertObject(resource: resource, compositor: server).install(server.textInputImplementations.manager)
            }))
        }
        for (name, version, bind) in globals {
            guard wl_global_create(display, interface(name), version, me, bind) != nil else {
                throw TestCompositorError("wl_global_create(\(name)) failed")
            }
        }
    }

    // MARK: Surfaces and buffers

    func surfaceCreated(_ resource: Resource) {
        surfaceCount += 1
        let surface = Surface(resource: resource, compositor: self, number: surfaceCount)
        surface.install(implementations.surface)
        surfaces.append(surface)
    }

    /// The surface input goes to.
    var focusedSurface: Surface? { focus }

    func surfaceDestroyed(_ surface: Surface) {
        surfaces.removeAll { $0 === surface }
        if focus === surface { focus = nil }
    }

    /// The number a buffer is known by; a new buffer gets the next one (and is watched for destruction).
    func identity(ofBuffer buffer: Resource) -> Int {
        if let known = buffers[buffer] { return known }
        bufferCount += 1
        buffers[buffer] = bufferCount
        folio_test_on_destroy(buffer, { context, resource in
            guard let context, let resource else { return }
            Unmanaged<Server>.fromOpaque(context).takeUnretainedValue().bufferDestroyed(resource)
        }, Unmanaged.passUnretained(self).toOpaque())
        let (seen, alive) = (bufferCount, buffers.count)
        record { $0.buffersSeen = seen; $0.buffersAlive = alive }
        return bufferCount
    }

    func isAlive(buffer: Resource) -> Bool { buffers[buffer] != nil }

    private func bufferDestroyed(_ buffer: Resource) {
        buffers[buffer] = nil
        for surface in surfaces { surface.bufferDestroyed(buffer) }
        let alive = buffers.count
        record { $0.buffersAlive = alive }
    }

    func committed(_ surface: Surface, record commit: CommitRecord, frameCallbacks: [FrameCallback]) {
        record { observation in
            var commit = commit
            commit.index = observation.commits.count
            observation.commits.append(commit)
        }
        let now = Self.monotonicMilliseconds()
        for callback in frameCallbacks { callback.committedAt = now }
        waitingCallbacks += frameCallbacks
        if case .immediate = options.framePacing { sendFrameDone() }
    }

    func subsurfaceCreated(_ subsurface: Subsurface) {
        subsurfaces.append(subsurface)
        recordSubsurfaces()
    }

    func subsurfaceDestroyed(_ subsurface: Subsurface) {
        subsurfaces.removeAll { $0 === subsurface }
        recordSubsurfaces()
    }

    func subsurfaceChanged(_ subsurface: Subsurface) { recordSubsurfaces() }

    /// The parent's commit applies the positions its subsurfaces were given since the last one.
    func applyChildPositions(of parent: Surface) {
        var changed = false
        for child in subsurfaces where child.parent === parent {
            if let pending = child.pendingPosition {
                child.position = pending
                child.pendingPosition = nil
            }
            changed = true
        }
        if changed || parent.subsurface != nil { recordSubsurfaces() }
    }

    private func recordSubsurfaces() {
        let infos = subsurfaces.compactMap { sub -> SubsurfaceInfo? in
            guard let surface = sub.surface, let parent = sub.parent else { return nil }
            return SubsurfaceInfo(surface: surface.number, parent: parent.number, x: sub.position.x, y: sub.position.y,
                                  synchronized: sub.synchronized, synchronizedCommits: sub.synchronizedCommits,
                                  width: surface.image.width, height: surface.image.height)
        }
        record { $0.subsurfaces = infos }
    }

    func frameCallbackDestroyed(_ callback: FrameCallback) {
        waitingCallbacks.removeAll { $0 === callback }
    }

    /// Answers every waiting frame callback with the display clock's time.
    func sendFrameDone() {
        let callbacks = waitingCallbacks
        waitingCallbacks = []
        let time = Self.milliseconds()
        for callback in callbacks {
            wl_callback_send_done(callback.resource, time)
            wl_resource_destroy(callback.resource)
        }
    }

    static func milliseconds() -> UInt32 {
        UInt32(truncatingIfNeeded: Int(monotonicMilliseconds().rounded(.down)))
    }

    /// CLOCK_MONOTONIC in ms, the clock frame callbacks carry.
    static func monotonicMilliseconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1_000_000
    }

    func toplevelMapped(_ xdgSurface: XdgSurface) {
        focus = xdgSurface.surface
        for output in outputs where output.client == xdgSurface.surface.client {
            wl_surface_send_enter(xdgSurface.surface.resource, output.resource)
        }
        xdgSurface.toplevel?.update { $0.mapped = true }
        enterTextInputs(xdgSurface.surface)
    }

    /// Sends a new configure to every toplevel.
    func configureToplevels(width: Int32, height: Int32, states: [UInt32]) {
        configureState = (width, height, states)
        for surface in surfaces { surface.xdgSurface?.toplevel?.sendConfigure() }
    }

    /// Asks every toplevel to close (the window manager's close button).
    func closeToplevels() {
        for surface in surfaces {
            if let toplevel = surface.xdgSurface?.toplevel { xdg_toplevel_send_close(toplevel.resource) }
        }
    }

    /// Ends the first toplevel's client with a protocol error on its xdg_toplevel.
    func postErrorOnToplevel(code: UInt32, _ message: String) {
        guard let toplevel = surfaces.lazy.compactMap({ $0.xdgSurface?.toplevel }).first else { return }
        postError(toplevel.resource, code: code, message)
    }

    func pingClients() {
        for surface in surfaces {
            guard let client = surface.xdgSurface?.client else { continue }
            wl_client_for_each_resource(client, { resource, _ in
                guard let resource, String(cString: wl_resource_get_class(resource)) == "xdg_wm_base" else { return WL_ITERATOR_CONTINUE }
                xdg_wm_base_send_ping(resource, 1)
                return WL_ITERATOR_STOP
            }, nil)
        }
    }

    // MARK: Seat and output

    private func seatBound(_ resource: Resource) {
        let seat = SeatBinding(resource: resource, compositor: self)
        seat.install(implementations.seat)
        seats.append(seat)
        wl_seat_send_capabilities(resource, capabilities.rawValue)
        if seat.version >= 2 { wl_seat_send_name(resource, "seat0") }
    }

    func seatUnbound(_ seat: SeatBinding) { seats.removeAll { $0 === seat } }

    func setCapabilities(_ new: SeatCapabilities) {
        capabilities = new
        for seat in seats { wl_seat_send_capabilities(seat.resource, new.rawValue) }
    }

    func deviceCreated(_ device: InputDevice) {
        devices.append(device)
        countDevices()
    }

    func deviceReleased(_ device: InputDevice) {
        devices.removeAll { $0 === device }
        countDevices()
    }

    private func countDevices() {
        let touch = devices.count { $0.kind == .touch }
        let pointer = devices.count { $0.kind == .pointer }
        let keyboard = devices.count { $0.kind == .keyboard }
        record { $0.touchObjects = touch; $0.pointerObjects = pointer; $0.keyboardObjects = keyboard }
    }

    private func outputBound(_ resource: Resource) {
        let output = OutputBinding(resource: resource, compositor: self)
        output.install(implementations.output)
        outputs.append(output)
        let width = configureState.width > 0 ? configureState.width : 1920
        let height = configureState.height > 0 ? configureState.height : 1200
        wl_output_send_geometry(resource, 0, 0, 300, 190, Int32(WL_OUTPUT_SUBPIXEL_UNKNOWN.rawValue), "Folio", "Test output",
                                Int32(WL_OUTPUT_TRANSFORM_NORMAL.rawValue))
        wl_output_send_mode(resource, WL_OUTPUT_MODE_CURRENT.rawValue | WL_OUTPUT_MODE_PREFERRED.rawValue,
                            width * options.outputScale, height * options.outputScale, 60000)
        if output.version >= 2 { wl_output_send_scale(resource, options.outputScale) }
        if output.version >= 4 { wl_output_send_name(resource, "TEST-1") }
        if output.version >= 2 { wl_output_send_done(resource) }
    }

    func outputUnbound(_ output: OutputBinding) { outputs.removeAll { $0 === output } }

    func fractionalScaleCreated(_ object: FractionalScale) {
        fractionalScales.append(object)
        wp_fractional_scale_v1_send_preferred_scale(object.resource, preferredScale)
    }

    func fractionalScaleDestroyed(_ object: FractionalScale) { fractionalScales.removeAll { $0 === object } }

    /// A new preferred scale (N/120) for every surface, as when a window moves to another output.
    func setPreferredScale(_ scale: UInt32) {
        preferredScale = scale
        for object in fractionalScales { wp_fractional_scale_v1_send_preferred_scale(object.resource, scale) }
    }

    func pinchGestureCreated(_ resource: Resource) {
        let gesture = PinchGesture(resource: resource, compositor: self)
        gesture.install(implementations.pinchGesture)
        pinchGestures.append(gesture)
        let count = pinchGestures.count
        record { $0.pinchGestureObjects = count }
    }

    func pinchGestureReleased(_ gesture: PinchGesture) {
        pinchGestures.removeAll { $0 === gesture }
        let count = pinchGestures.count
        record { $0.pinchGestureObjects = count }
    }

    // MARK: Input to the focused surface

    /// Sends touch events (stamped `stamp`, or now) to the focused surface's client; when they
    /// were flushed, or nil when no surface is mapped.
    func sendTouch(_ events: [TouchEvent], stamp: UInt32?) -> ContinuousClock.Instant? {
        guard let surface = focus else { return nil }
        let touches = devices.filter { $0.kind == .touch && $0.client == surface.client }
        for event in events {
            let time = stamp ?? Self.milliseconds()
            switch event {
            case .down(let id, let x, let y):
                let serial = nextSerial()
                for touch in touches {
                    wl_touch_send_down(touch.resource, serial, time, surface.resource, id, wl_fixed_from_double(x), wl_fixed_from_double(y))
                }
            case .motion(let id, let x, let y):
                for touch in touches { wl_touch_send_motion(touch.resource, time, id, wl_fixed_from_double(x), wl_fixed_from_double(y)) }
            case .up(let id):
                let serial = nextSerial()
                for touch in touches { wl_touch_send_up(touch.resource, serial, time, id) }
            case .frame:
                for touch in touches { wl_touch_send_frame(touch.resource) }
            case .cancel:
                for touch in touches { wl_touch_send_cancel(touch.resource) }
            }
        }
        wl_display_flush_clients(display)
        return .now
    }

    /// Sends pointer events to the focused surface's client (enter first); false when no surface is mapped.
    func sendPointer(_ events: [PointerEvent]) -> Bool {
        guard let surface = focus else { return false }
        let pointers = devices.filter { $0.kind == .pointer && $0.client == surface.client }
        for event in events {
            let time = Self.milliseconds()
            switch event {
            case .motion(let x, let y):
                if !pointerInside {
                    pointerInside = true
                    let serial = nextSerial()
                    for pointer in pointers {
                        wl_pointer_send_enter(pointer.resource, serial, surface.resource, wl_fixed_from_double(x), wl_fixed_from_double(y))
                    }
                }
                for pointer in pointers { wl_pointer_send_motion(pointer.resource, time, wl_fixed_from_double(x), wl_fixed_from_double(y)) }
            case .button(let code, let pressed):
                let serial = nextSerial()
                let state = pressed ? WL_POINTER_BUTTON_STATE_PRESSED : WL_POINTER_BUTTON_STATE_RELEASED
                for pointer in pointers { wl_pointer_send_button(pointer.resource, serial, time, code, state.rawValue) }
            case .leave:
                guard pointerInside else { continue }
                pointerInside = false
                let serial = nextSerial()
                for pointer in pointers { wl_pointer_send_leave(pointer.resource, serial, surface.resource) }
            case .frame:
                for pointer in pointers where pointer.version >= 5 { wl_pointer_send_frame(pointer.resource) }
            }
        }
        wl_display_flush_clients(display)
        return true
    }

    /// Sends touchpad pinch events to the client of the surface the pointer is over; false when
    /// the pointer is not over a mapped surface (send a pointer motion first).
    func sendPinch(_ events: [PinchGestureEvent]) -> Bool {
        guard let surface = focus, pointerInside else { return false }
        let gestures = pinchGestures.filter { $0.client == surface.client }
        for event in events {
            let time = Self.milliseconds()
            switch event {
            case .begin(let fingers):
                let serial = nextSerial()
                for gesture in gestures { zwp_pointer_gesture_pinch_v1_send_begin(gesture.resource, serial, time, surface.resource, fingers) }
            case .update(let dx, let dy, let scale, let rotation):
                for gesture in gestures {
                    zwp_pointer_gesture_pinch_v1_send_update(gesture.resource, time, wl_fixed_from_double(dx), wl_fixed_from_double(dy),
                                                             wl_fixed_from_double(scale), wl_fixed_from_double(rotation))
                }
            case .end(let cancelled):
                let serial = nextSerial()
                for gesture in gestures { zwp_pointer_gesture_pinch_v1_send_end(gesture.resource, serial, time, cancelled ? 1 : 0) }
            }
        }
        wl_display_flush_clients(display)
        return true
    }

    /// Presses and releases `key` with `modifiers` held, on the focused surface's keyboards
    /// (entering them first); false when no surface is mapped or there is no keymap.
    func press(_ key: UInt32, modifiers: KeyModifiers) -> Bool {
        guard let surface = focus, let keymap else { return false }
        let keyboards = devices.filter { $0.kind == .keyboard && $0.client == surface.client }
        for keyboard in keyboards {
            if !keyboard.entered {
                keyboard.entered = true
                var none = wl_array()
                wl_array_init(&none)
                wl_keyboard_send_enter(keyboard.resource, nextSerial(), surface.resource, &none)
                wl_array_release(&none)
            }
            let mask = keymap.mask(modifiers)
            wl_keyboard_send_modifiers(keyboard.resource, nextSerial(), mask, 0, 0, 0)
            wl_keyboard_send_key(keyboard.resource, nextSerial(), Self.milliseconds(), key, WL_KEYBOARD_KEY_STATE_PRESSED.rawValue)
            wl_keyboard_send_key(keyboard.resource, nextSerial(), Self.milliseconds(), key, WL_KEYBOARD_KEY_STATE_RELEASED.rawValue)
            wl_keyboard_send_modifiers(keyboard.resource, nextSerial(), 0, 0, 0, 0)
        }
        wl_display_flush_clients(display)
        return true
    }

    /// The focused surface's image, as a screen would show it.
    var focusImage: Image? { focus?.image }

    /// The focused surface with its subsurfaces drawn over it (premultiplied OVER), in the
    /// focused surface's buffer pixels: positions are scaled by its buffer size over its logical size.
    var screenImage: Image? {
        guard let focus else { return nil }
        var screen = focus.image
        guard screen.width > 0 else { return screen }
        let logicalWidth = focus.viewportDestination?.width ?? screen.width / Int(max(1, focus.scale))
        let factor = Double(screen.width) / Double(max(1, logicalWidth))
        for child in subsurfaces where child.parent === focus {
            guard let image = child.surface?.image else { continue }
            let originX = Int((Double(child.position.x) * factor).rounded())
            let originY = Int((Double(child.position.y) * factor).rounded())
            for y in 0..<image.height where (0..<screen.height).contains(originY + y) {
                for x in 0..<image.width where (0..<screen.width).contains(originX + x) {
                    let source = image.pixel(x: x, y: y)
                    let index = (originY + y) * screen.width + originX + x
                    screen.pixels[index] = Self.over(source, screen.pixels[index])
                }
            }
        }
        return screen
    }

    /// Premultiplied `source` OVER `destination`, per 8-bit channel.
    private static func over(_ source: UInt32, _ destination: UInt32) -> UInt32 {
        let inverse = 255 - (source >> 24)
        var result: UInt32 = 0
        for shift in stride(from: 0, through: 24, by: 8) {
            let s = (source >> UInt32(shift)) & 0xFF, d = (destination >> UInt32(shift)) & 0xFF
            result |= min(255, s + (d * inverse + 127) / 255) << UInt32(shift)
        }
        return result
    }
}

/// A failure of the test compositor or of something a test waited for.
public struct TestCompositorError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
