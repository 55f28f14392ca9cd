import CTestCompositor
import CWaylandServer
import FolioPixels
#if canImport(Glibc)
import Glibc
#endif

/// A wl_surface: double-buffered state applied at commit, the buffer it holds, and the image a
/// screen would show (built from the damage the client declared, as a real compositor builds it).
final class Surface: ResourceObject {
    let number: Int
    /// Role objects, once the client gives the surface one.
    weak var xdgSurface: XdgSurface?
    weak var subsurface: Subsurface?

    private var pendingAttached = false
    private var pendingBuffer: Resource?
    private var pendingBufferDamage: [PixelRect] = []
    private var pendingSurfaceDamage: [PixelRect] = []
    private var pendingScale: Int32?
    /// The viewport destination set since the last commit: nil nothing set, .some(nil) unset.
    private var pendingDestination: (width: Int, height: Int)??
    private var destination: (width: Int, height: Int)?
    private var pendingCallbacks: [FrameCallback] = []

    /// The buffer the compositor holds (committed, not yet released).
    private(set) var heldBuffer: Resource?
    private(set) var scale: Int32 = 1
    /// What the surface shows, in buffer pixels.
    private(set) var image = Image(width: 0, height: 0)

    init(resource: Resource, compositor: Server, number: Int) {
        self.number = number
        super.init(resource: resource, compositor: compositor)
    }

    /// The viewport's destination (logical size) once committed, if one is set.
    var viewportDestination: (width: Int, height: Int)? { destination }

    override func destroyed() {
        releaseHeldBuffer()
        // Callbacks of a destroyed surface never fire; they belong to the client, which destroys them.
        pendingCallbacks = []
        compositor.surfaceDestroyed(self)
    }

    func attach(_ buffer: Resource?) {
        pendingAttached = true
        pendingBuffer = buffer
    }

    func damage(buffer rect: PixelRect) { pendingBufferDamage.append(rect) }
    func damage(surface rect: PixelRect) { pendingSurfaceDamage.append(rect) }
    func setScale(_ scale: Int32) { pendingScale = scale }
    func setDestination(_ size: (width: Int, height: Int)?) { pendingDestination = .some(size) }
    func addFrameCallback(_ callback: FrameCallback) { pendingCallbacks.append(callback) }
    func forget(_ callback: FrameCallback) { pendingCallbacks.removeAll { $0 === callback } }

    func commit() {
        if let xdgSurface, !xdgSurface.allowsCommit(attachingBuffer: pendingAttached && pendingBuffer != nil) { return }
        if let pendingScale { scale = max(1, pendingScale) }
        if let pendingDestination { destination = pendingDestination }
        if pendingAttached {
            if let buffer = pendingBuffer {
                if buffer == heldBuffer {
                    compositor.record { $0.heldBufferReattached += 1 }
                } else {
                    releaseHeldBuffer()
                    heldBuffer = buffer
                }
            } else {
                releaseHeldBuffer()
            }
        }
        var record = CommitRecord(
            index: 0, surface: number, buffer: heldBuffer.map { compositor.identity(ofBuffer: $0) }, attached: pendingAttached,
            width: 0, height: 0, bufferScale: Int(scale), bufferDamage: pendingBufferDamage,
            surfaceDamage: pendingSurfaceDamage, viewportDestination: destination, receivedAt: .now, pixels: nil)
        if let held = heldBuffer, let shm = wl_shm_buffer_get(held) {
            readPixels(shm, into: &record)
        } else if heldBuffer == nil {
            image = Image(width: 0, height: 0)
        }
        pendingAttached = false
        pendingBuffer = nil
        pendingBufferDamage = []
        pendingSurfaceDamage = []
        pendingScale = nil
        pendingDestination = nil
        let callbacks = pendingCallbacks
        pendingCallbacks = []
        compositor.committed(self, record: record, frameCallbacks: callbacks)
        xdgSurface?.committed(hasBuffer: heldBuffer != nil)
        if let subsurface, subsurface.synchronized { subsurface.synchronizedCommits += 1 }
        compositor.applyChildPositions(of: self)
    }

    /// Copies what the commit declared changed from the shm buffer into `image` (everything when
    /// the size changed), and the whole buffer into the record when the compositor captures commits.
    private func readPixels(_ shm: OpaquePointer, into record: inout CommitRecord) {
        let width = Int(wl_shm_buffer_get_width(shm)), height = Int(wl_shm_buffer_get_height(shm))
        let stride = Int(wl_shm_buffer_get_stride(shm))
        record.width = width
        record.height = height
        wl_shm_buffer_begin_access(shm)
        defer { wl_shm_buffer_end_access(shm) }
        guard let data = wl_shm_buffer_get_data(shm) else { return }
        let bounds = PixelRect(x: 0, y: 0, width: width, height: height)
        var regions = record.damage
        if image.width != width || image.height != height {
            image = Image(width: width, height: height)
            regions = [bounds]
        }
        for region in regions {
            let r = region.intersection(bounds)
            guard !r.isEmpty else { continue }
            image.pixels.withUnsafeMutableBytes { target in
                guard let base = target.baseAddress else { return }
                for row in r.y..<r.maxY {
                    (base + (row * width + r.x) * 4).copyMemory(from: data + row * stride + r.x * 4, byteCount: r.width * 4)
                }
            }
        }
        if compositor.options.captureBuffers {
            var copy = Image(width: width, height: height)
            copy.pixels.withUnsafeMutableBytes { target in
                guard let base = target.baseAddress else { return }
                for row in 0..<height {
                    (base + row * width * 4).copyMemory(from: data + row * stride, byteCount: width * 4)
                }
            }
            record.pixels = copy
        }
    }

    private func releaseHeldBuffer() {
        if let held = heldBuffer, compositor.isAlive(buffer: held) { wl_buffer_send_release(held) }
        heldBuffer = nil
    }

    /// The buffer went away while held: nothing to release any more.
    func bufferDestroyed(_ buffer: Resource) {
        if heldBuffer == buffer { heldBuffer = nil }
        if pendingBuffer == buffer { pendingBuffer = nil }
    }
}

/// A wl_callback waiting for `done`.
final class FrameCallback: ResourceObject {
    weak var surface: Surface?
    /// When (CLOCK_MONOTONIC ms) the commit that asked for it arrived.
    var committedAt = 0.0

    override func destroyed() {
        surface?.forget(self)
        compositor.frameCallbackDestroyed(self)
    }
}

/// The request tables: allocated once per compositor, at addresses libwayland can keep.
final class Implementations {
    let compositor = UnsafeMutablePointer<wl_compositor_interface>.allocate(capacity: 1)
    let surface = UnsafeMutablePointer<wl_surface_interface>.allocate(capacity: 1)
    let region = UnsafeMutablePointer<wl_region_interface>.allocate(capacity: 1)

    init() {
        compositor.initialize(to: wl_compositor_interface(
            create_surface: { client, resource, id in
                guard let owner = ResourceObject.of(resource)?.compositor,
                      let created = makeResource(client, "wl_surface", version: wl_resource_get_version(resource), id: id)
                else { return }
                owner.surfaceCreated(created)
            },
            create_region: { client, resource, id in
                guard let owner = ResourceObject.of(resource)?.compositor,
                      let created = makeResource(client, "wl_region", version: 1, id: id)
                else { return }
                InertObject(resource: created, compositor: owner).install(owner.implementations.region)
            }))
        surface.initialize(to: wl_surface_interface(
            destroy: destroyRequest,
            attach: { _, resource, buffer, _, _ in Surface.of(resource)?.attach(buffer) },
            damage: { _, resource, x, y, width, height in
                Surface.of(resource)?.damage(surface: PixelRect(x: Int(x), y: Int(y), width: Int(width), height: Int(height)))
            },
            frame: { client, resource, id in
                guard let surface = Surface.of(resource),
                      let created = makeResource(client, "wl_callback", version: 1, id: id) else { return }
                let callback = FrameCallback(resource: created, compositor: surface.compositor)
                callback.surface = surface
                callback.install(nil)
                surface.addFrameCallback(callback)
            },
            set_opaque_region: { _, _, _ in },
            set_input_region: { _, _, _ in },
            commit: { _, resource in Surface.of(resource)?.commit() },
            set_buffer_transform: { _, _, _ in },
            set_buffer_scale: { _, resource, scale in Surface.of(resource)?.setScale(scale) },
            damage_buffer: { _, resource, x, y, width, height in
                Surface.of(resource)?.damage(buffer: PixelRect(x: Int(x), y: Int(y), width: Int(width), height: Int(height)))
            },
            offset: { _, _, _, _ in }))
        region.initialize(to: wl_region_interface(
            destroy: destroyRequest, add: { _, _, _, _, _, _ in }, subtract: { _, _, _, _, _, _ in }))
        xdgInit()
        seatInit()
        pointerGesturesInit()
        fractionalScaleInit()
        subsurfaceInit()
    }

    deinit {
        compositor.deallocate()
        surface.deallocate()
        region.deallocate()
        xdgDeinit()
        seatDeinit()
        pointerGesturesDeinit()
        fractionalScaleDeinit()
        subsurfaceDeinit()
    }

    // Filled by the XdgShell, Seat, PointerGestures, FractionalScale and Subsurface files.
    let wmBase = UnsafeMutablePointer<xdg_wm_base_interface>.allocate(capacity: 1)
    let positioner = UnsafeMutablePointer<xdg_positioner_interface>.allocate(capacity: 1)
    let xdgSurface = UnsafeMutablePointer<xdg_surface_interface>.allocate(capacity: 1)
    let toplevel = UnsafeMutablePointer<xdg_toplevel_interface>.allocate(capacity: 1)
    let seat = UnsafeMutablePointer<wl_seat_interface>.allocate(capacity: 1)
    let pointer = UnsafeMutablePointer<wl_pointer_interface>.allocate(capacity: 1)
    let keyboard = UnsafeMutablePointer<wl_keyboard_interface>.allocate(capacity: 1)
    let touch = UnsafeMutablePointer<wl_touch_interface>.allocate(capacity: 1)
    let output = UnsafeMutablePointer<wl_output_interface>.allocate(capacity: 1)
    let pointerGestures = UnsafeMutablePointer<zwp_pointer_gestures_v1_interface>.allocate(capacity: 1)
    let swipeGesture = UnsafeMutablePointer<zwp_pointer_gesture_swipe_v1_interface>.allocate(capacity: 1)
    let pinchGesture = UnsafeMutablePointer<zwp_pointer_gesture_pinch_v1_interface>.allocate(capacity: 1)
    let holdGesture = UnsafeMutablePointer<zwp_pointer_gesture_hold_v1_interface>.allocate(capacity: 1)
    let viewporter = UnsafeMutablePointer<wp_viewporter_interface>.allocate(capacity: 1)
    let viewport = UnsafeMutablePointer<wp_viewport_interface>.allocate(capacity: 1)
    let fractionalScaleManager = UnsafeMutablePointer<wp_fractional_scale_manager_v1_interface>.allocate(capacity: 1)
    let fractionalScale = UnsafeMutablePointer<wp_fractional_scale_v1_interface>.allocate(capacity: 1)
    let subcompositor = UnsafeMutablePointer<wl_subcompositor_interface>.allocate(capacity: 1)
    let subsurface = UnsafeMutablePointer<wl_subsurface_interface>.allocate(capacity: 1)
}
