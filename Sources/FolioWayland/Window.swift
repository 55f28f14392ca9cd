import CWaylandClient
import CWaylandProtocols
import FolioGeometry
import FolioPixels

/// The xdg-shell toplevel and its surface: configure and resize, fullscreen, close, the buffer
/// scale (integer from the outputs entered, or the exact fractional scale shown through a
/// viewport at the logical size), frame callbacks, and committing a frame into a pooled buffer
/// with only the damage that changed.
public final class Window {
    public static let defaultSize = (width: 1280, height: 800)
    public static let minimumSize = (width: 360, height: 240)

    /// Logical (surface) size.
    public private(set) var width = Window.defaultSize.width
    public private(set) var height = Window.defaultSize.height
    /// Buffer pixels per logical pixel.
    public private(set) var scale: BufferScale = 1
    public private(set) var isFullscreen = false
    /// The first configure has been acknowledged: a buffer may be attached.
    public private(set) var isConfigured = false
    /// A frame callback is outstanding: the next frame waits for it (one frame in flight).
    public private(set) var isFrameInFlight = false

    /// The size or scale changed (logical width, height, buffer scale).
    var onResize: ((Int, Int, BufferScale) -> Void)?
    /// A frame callback fired, for a commit whose frame drew input up to the time given (nil:
    /// none, or a frame request without a buffer), with its timestamp (ms, the compositor's own
    /// base: good for the spacing of callbacks only).
    var onFrame: ((_ input: Double?, _ stamp: UInt32) -> Void)?
    /// A frame that drew input up to `input` reached the screen at `presented` (wp_presentation).
    var onPresented: ((_ input: Double, _ presented: Double) -> Void)? {
        get { presentationFeedback?.onPresented }
        set { presentationFeedback?.onPresented = newValue }
    }
    var onClose: (() -> Void)?
    /// A size or scale from the compositor was beyond `SurfaceLimits` and has been fitted.
    var onWarning: ((String) -> Void)?
    /// A buffer came back, so a frame that found all of them busy can be drawn now.
    var onBufferReleased: (() -> Void)?

    let surface: OpaquePointer
    private let xdgSurface: OpaquePointer
    private let toplevel: OpaquePointer
    private let shm: OpaquePointer
    private let viewport: OpaquePointer?
    private let fractionalScale: OpaquePointer?
    /// When frames reach the screen, where the compositor offers wp_presentation.
    private let presentationFeedback: PresentationFeedback?
    private var pool: BufferPool?
    /// The toolbar's subsurface; nil where the compositor has no wl_subcompositor.
    private var toolbar: ToolbarSurface?
    /// The outputs the surface is on, whether it was ever on one, and every output with its scale.
    private var enteredOutputs: [OpaquePointer] = []
    private var hasEnteredAnOutput = false
    private let outputScales: () -> [(output: OpaquePointer, scale: Int)]
    private var fractionalScale120: UInt32?
    private var committedBufferScale: BufferScale = 1
    private var committedDestination: (width: Int, height: Int)?

    /// The buffer handed out for the frame being drawn, committed by the next `present`.
    private var acquired: Int?

    private var pendingSize: (width: Int, height: Int)?
    /// The largest size the compositor suggests (xdg_toplevel v4 configure_bounds), if any.
    private var bounds: (width: Int, height: Int)?
    private var pendingFullscreen = false

    private var surfaceListener: HeapListener<wl_surface_listener>?
    private var xdgSurfaceListener: HeapListener<xdg_surface_listener>?
    private var toplevelListener: HeapListener<xdg_toplevel_listener>?
    private var callbackListener: HeapListener<wl_callback_listener>?
    /// The frame callback in flight, destroyed with the window if it never fires (the compositor went away).
    private var frameCallback: OpaquePointer?
    /// The newest input the commit waiting for `frameCallback` drew.
    private var frameCallbackInput: Double?
    private var fractionalListener: HeapListener<wp_fractional_scale_v1_listener>?

    init(registry: Registry, fullscreen: Bool, outputScales: @escaping () -> [(output: OpaquePointer, scale: Int)]) throws {
        guard let compositor = registry.compositor, let wmBase = registry.wmBase, let shm = registry.shm else {
            throw WaylandError.missingGlobal("wl_compositor, wl_shm and xdg_wm_base")
        }
        guard let surface = wl_compositor_create_surface(compositor),
              let xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface),
              let toplevel = xdg_surface_get_toplevel(xdgSurface)
        else { throw WaylandError.system("cannot create the window surface") }
        self.surface = surface
        self.xdgSurface = xdgSurface
        self.toplevel = toplevel
        self.shm = shm
        self.outputScales = outputScales
        // Fractional scaling needs both: the preferred scale, and a viewport to show a larger buffer.
        if let viewporter = registry.viewporter, let manager = registry.fractionalScaleManager {
            viewport = wp_viewporter_get_viewport(viewporter, surface)
            fractionalScale = wp_fractional_scale_manager_v1_get_fractional_scale(manager, surface)
        } else {
            viewport = nil
            fractionalScale = nil
        }
        presentationFeedback = registry.presentation.map { PresentationFeedback(presentation: $0, surface: surface) }
        toolbar = registry.subcompositor.flatMap {
            ToolbarSurface(compositor: compositor, subcompositor: $0, parent: surface, viewporter: registry.viewporter, shm: shm)
        }
        addListeners()
        xdg_toplevel_set_title(toplevel, "Folio")
        xdg_toplevel_set_app_id(toplevel, "io.folio.Folio")
        xdg_toplevel_set_min_size(toplevel, Int32(Self.minimumSize.width), Int32(Self.minimumSize.height))
        if fullscreen { xdg_toplevel_set_fullscreen(toplevel, nil) }
        // The first commit, without a buffer, asks for the first configure.
        wl_surface_commit(surface)
    }

    deinit {
        if let frameCallback { wl_callback_destroy(frameCallback) }
        pool = nil
        toolbar = nil
        if let fractionalScale { wp_fractional_scale_v1_destroy(fractionalScale) }
        if let viewport { wp_viewport_destroy(viewport) }
        xdg_toplevel_destroy(toplevel)
        xdg_surface_destroy(xdgSurface)
        wl_surface_destroy(surface)
    }

    private func addListeners() {
        // Assigned one by one: libwayland 1.22 and newer add events (Debian 13's headers have more fields
        // than Debian 12's); the compositor is bound at a version that never sends them, so they stay NULL.
        var callbacks = wl_surface_listener()
        callbacks.enter = { data, _, output in
            guard let window: Window = owner(data), let output else { return }
            window.enteredOutputs.append(output)
            window.hasEnteredAnOutput = true
            window.updateScale()
        }
        callbacks.leave = { data, _, output in
            guard let window: Window = owner(data) else { return }
            window.enteredOutputs.removeAll { $0 == output }
            window.updateScale()
        }
        let surfaceListener = HeapListener(callbacks)
        wl_surface_add_listener(surface, surfaceListener.pointer, userData(self))
        self.surfaceListener = surfaceListener

        let xdgSurfaceListener = HeapListener(xdg_surface_listener(configure: { data, xdgSurface, serial in
            guard let window: Window = owner(data) else { return }
            xdg_surface_ack_configure(xdgSurface, serial)
            window.applyConfigure()
        }))
        xdg_surface_add_listener(xdgSurface, xdgSurfaceListener.pointer, userData(self))
        self.xdgSurfaceListener = xdgSurfaceListener

        let toplevelListener = HeapListener(xdg_toplevel_listener(
            configure: { data, _, width, height, states in
                guard let window: Window = owner(data) else { return }
                window.pendingSize = width > 0 && height > 0 ? (Int(width), Int(height)) : nil
                window.pendingFullscreen = states.map(Window.states).map { $0.contains(XDG_TOPLEVEL_STATE_FULLSCREEN.rawValue) } ?? false
            },
            close: { data, _ in
                guard let window: Window = owner(data) else { return }
                window.onClose?()
            },
            configure_bounds: { data, _, width, height in
                guard let window: Window = owner(data) else { return }
                window.bounds = width > 0 && height > 0 ? (Int(width), Int(height)) : nil
            },
            wm_capabilities: { _, _, _ in }))
        xdg_toplevel_add_listener(toplevel, toplevelListener.pointer, userData(self))
        self.toplevelListener = toplevelListener

        callbackListener = HeapListener(wl_callback_listener(done: { data, callback, stamp in
            if let callback { wl_callback_destroy(callback) }
            guard let window: Window = owner(data) else { return }
            window.frameCallback = nil
            window.isFrameInFlight = false
            window.onFrame?(window.frameCallbackInput, stamp)
        }))

        if let fractionalScale {
            let fractionalListener = HeapListener(wp_fractional_scale_v1_listener(preferred_scale: { data, _, scale120 in
                guard let window: Window = owner(data) else { return }
                window.fractionalScale120 = scale120
                window.updateScale()
            }))
            wp_fractional_scale_v1_add_listener(fractionalScale, fractionalListener.pointer, userData(self))
            self.fractionalListener = fractionalListener
        }
    }

    private static func states(_ array: UnsafeMutablePointer<wl_array>) -> [UInt32] {
        guard let data = array.pointee.data else { return [] }
        let count = array.pointee.size / MemoryLayout<UInt32>.stride
        return Array(UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt32.self), count: count))
    }

    private func applyConfigure() {
        isFullscreen = pendingFullscreen
        let first = !isConfigured
        isConfigured = true
        // 0x0: the size is ours to choose; at first, the default, within the bounds if any.
        let size = pendingSize ?? (first ? fitted(Self.defaultSize) : (width, height))
        let fit = withinLimits(width: size.width, height: size.height, scale: scale)
        if first || fit.width != width || fit.height != height || fit.scale != scale {
            (width, height, scale) = fit
            onResize?(width, height, scale)
        }
    }

    /// A size and scale Folio can draw: a compositor asking for more gets a fitted window, and a
    /// line in the log rather than a crash.
    private func withinLimits(width: Int, height: Int, scale: BufferScale) -> (width: Int, height: Int, scale: BufferScale) {
        let fit = SurfaceLimits.fit(width: width, height: height, scale: scale)
        if fit.adjusted {
            onWarning?("the compositor's configure: "
                       + SurfaceLimits.explain(width: width, height: height, scale: scale, fittedTo: (fit.width, fit.height, fit.scale)))
        }
        return (fit.width, fit.height, fit.scale)
    }

    /// `size` shrunk to fit the compositor's bounds, never below the minimum size.
    private func fitted(_ size: (width: Int, height: Int)) -> (width: Int, height: Int) {
        guard let bounds else { return size }
        return (max(Self.minimumSize.width, min(size.width, bounds.width)),
                max(Self.minimumSize.height, min(size.height, bounds.height)))
    }

    /// An output the surface may be on changed its scale, or was unplugged (`removed`).
    func outputsChanged(removed: OpaquePointer? = nil) {
        if let removed { enteredOutputs.removeAll { $0 == removed } }
        updateScale()
    }

    /// Fractional: exactly the compositor's preferred scale (N/120), the buffer shown through the
    /// viewport at the logical size. Integer: the largest scale of the outputs entered; before the
    /// surface has entered any (the compositor says so only once a frame is up), the largest of all
    /// outputs, so the first frame is drawn at the scale it will most likely need rather than at 1
    /// and then again.
    private func updateScale() {
        let newScale: BufferScale
        if let scale120 = fractionalScale120, viewport != nil {
            newScale = BufferScale(numerator: Int(scale120))
        } else {
            let outputs = outputScales()
            let scales = hasEnteredAnOutput ? outputs.filter { enteredOutputs.contains($0.output) }.map(\.scale) : outputs.map(\.scale)
            guard let largest = scales.max() else { return }  // off every output: keep the last scale
            newScale = BufferScale(largest)
        }
        let fit = withinLimits(width: width, height: height, scale: newScale)
        guard fit.width != width || fit.height != height || fit.scale != scale else { return }
        (width, height, scale) = fit
        if isConfigured { onResize?(width, height, scale) }
    }

    public func toggleFullscreen() {
        if isFullscreen { xdg_toplevel_unset_fullscreen(toplevel) } else { xdg_toplevel_set_fullscreen(toplevel, nil) }
    }

    /// Whether a buffer is free for `present` (before the first frame there is no pool yet).
    var hasFreeBuffer: Bool {
        pool?.canAcquire ?? true
    }

    /// A free buffer of `width`×`height` (the logical size times `scale`, rounded) for the next
    /// frame to be drawn straight into, and the pixels it lacks relative to the newest frame
    /// committed (they must be brought up to date with it); nil when every buffer is busy. A new
    /// size makes a new pool, whose buffers lack everything.
    func acquireBuffer(width: Int, height: Int) throws -> (bitmap: Bitmap, missing: Region)? {
        if pool?.width != width || pool?.height != height {
            pool = nil
            let pool = try BufferPool(shm: shm, width: width, height: height)
            pool.onRelease = { [unowned self] in onBufferReleased?() }
            self.pool = pool
        }
        guard let pool, let index = pool.acquire() else { return nil }
        acquired = index
        return (pool.bitmaps[index], pool.chain.missing(index))
    }

    /// Commits the buffer last acquired, now holding the new frame, with only `damage` (what
    /// differs from the frame before) declared, and asks for a frame callback; the frame drew
    /// input up to `input` (ms), if any.
    func present(damage: Region, input: Double?) throws {
        guard let pool, let index = acquired else { throw WaylandError.system("a frame committed without a buffer drawn into") }
        acquired = nil
        let changed = damage.intersection(pool.chain.bounds)
        let buffer = pool.commit(index, damage: changed)
        applyScale()
        wl_surface_attach(surface, buffer, 0, 0)
        for rect in Self.damageRectangles(changed) {
            wl_surface_damage_buffer(surface, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height))
        }
        requestFrameCallback(input: input)
        wl_surface_commit(surface)
    }

    /// Shows the toolbar's `image` at `origin` (logical px) on its own surface; false where the
    /// compositor offers no subsurfaces.
    func presentToolbar(_ image: Bitmap, at origin: Point) throws -> Bool {
        guard let toolbar else { return false }
        try toolbar.present(image, at: origin, scale: scale.factor)
        return true
    }

    /// The rectangles to declare for `damage`: its own, or its bounds when there are more than 32.
    /// pixman splits a region into y-x bands, so a scribble across the page can be hundreds of
    /// rectangles; each is a request the compositor merges back into a region, and past a few
    /// dozen the messages cost more than the pixels they spare.
    private static func damageRectangles(_ damage: Region) -> [PixelRect] {
        let rectangles = damage.rectangles
        return rectangles.count > 32 ? [damage.bounds] : rectangles
    }

    /// Asks for a frame callback without a new buffer: the animation clock ticks on.
    func requestTick() {
        guard isConfigured, !isFrameInFlight else { return }
        requestFrameCallback(input: nil)
        wl_surface_commit(surface)
    }

    private func requestFrameCallback(input: Double?) {
        guard let callbackListener, let callback = wl_surface_frame(surface) else { return }
        wl_callback_add_listener(callback, callbackListener.pointer, userData(self))
        frameCallback = callback
        frameCallbackInput = input
        isFrameInFlight = true
        presentationFeedback?.request(input: input)
    }

    /// Whether the compositor offers presentation feedback for this window.
    var hasPresentationFeedback: Bool { presentationFeedback != nil }

    /// The newest vblank presentation feedback reported and the refresh; nil when unknown.
    var presentationCycle: (time: Double, interval: Double)? { presentationFeedback?.cycle }

    /// When a frame committed now should reach the screen (ms, session timeline), predicted from
    /// presentation feedback; nil without it (no wp_presentation, no presented frame yet, an
    /// unreadable clock or no constant refresh rate).
    func predictedPresentation(now: Double) -> Double? {
        presentationFeedback?.predictedPresentation(now: now)
    }

    /// Tells the compositor how buffer pixels map to the surface, when that changed.
    private func applyScale() {
        if let viewport {
            if committedDestination?.width != width || committedDestination?.height != height {
                wp_viewport_set_destination(viewport, Int32(width), Int32(height))
                committedDestination = (width, height)
            }
        } else if committedBufferScale != scale {
            wl_surface_set_buffer_scale(surface, Int32(scale.roundedUp))
            committedBufferScale = scale
        }
    }
}
