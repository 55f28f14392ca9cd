import CWaylandClient
import CWaylandProtocols
import FolioGeometry
import FolioPixels

/// The toolbar's own surface: a desynchronised wl_subsurface above the window's, so showing,
/// pressing or hiding the toolbar commits only its small buffer and the canvas is never
/// repainted for it. Its input region is empty: every touch reaches the window's surface in the
/// window's coordinates, and the session decides what lands on a control.
final class ToolbarSurface {
    private let surface: OpaquePointer
    private let subsurface: OpaquePointer
    private let viewport: OpaquePointer?
    private let shm: OpaquePointer
    private var pool: BufferPool?
    private var position: (x: Int32, y: Int32)?
    private var bufferScale: Int32 = 1
    /// The newest image that found no free buffer: committed when one comes back.
    private var waiting: (image: Bitmap, origin: Point, scale: Double)?

    init?(compositor: OpaquePointer, subcompositor: OpaquePointer, parent: OpaquePointer, viewporter: OpaquePointer?,
          shm: OpaquePointer) {
        guard let surface = wl_compositor_create_surface(compositor) else { return nil }
        guard let subsurface = wl_subcompositor_get_subsurface(subcompositor, surface, parent) else {
            wl_surface_destroy(surface)
            return nil
        }
        self.surface = surface
        self.subsurface = subsurface
        self.shm = shm
        viewport = viewporter.flatMap { wp_viewporter_get_viewport($0, surface) }
        wl_subsurface_set_desync(subsurface)
        if let region = wl_compositor_create_region(compositor) {
            wl_surface_set_input_region(surface, region)
            wl_region_destroy(region)
        }
    }

    deinit {
        pool = nil
        if let viewport { wp_viewport_destroy(viewport) }
        wl_subsurface_destroy(subsurface)
        wl_surface_destroy(surface)
    }

    /// Commits `image` (buffer pixels, `scale` per logical pixel) with its top-left at `origin`
    /// in the window (logical px). A new position takes effect with the window's next commit.
    func present(_ image: Bitmap, at origin: Point, scale: Double) throws {
        if pool?.width != image.width || pool?.height != image.height {
            pool = nil
            let pool = try BufferPool(shm: shm, width: image.width, height: image.height, capacity: 2)
            pool.onRelease = { [unowned self] in
                guard let waiting else { return }
                self.waiting = nil
                try? present(waiting.image, at: waiting.origin, scale: waiting.scale)
            }
            self.pool = pool
        }
        guard let pool, let buffer = pool.acquire() else {
            waiting = (image, origin, scale)
            return
        }
        pool.bitmaps[buffer].copy(image.bounds, from: image)
        let x = Int32(origin.x.rounded()), y = Int32(origin.y.rounded())
        if position?.x != x || position?.y != y {
            wl_subsurface_set_position(subsurface, x, y)
            position = (x, y)
        }
        if let viewport {
            wp_viewport_set_destination(viewport, Int32((Double(image.width) / scale).rounded()),
                                        Int32((Double(image.height) / scale).rounded()))
        } else if bufferScale != Int32(scale.rounded()) {
            bufferScale = Int32(scale.rounded())
            wl_surface_set_buffer_scale(surface, bufferScale)
        }
        wl_surface_attach(surface, pool.commit(buffer, damage: Region(image.bounds)), 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, Int32(image.width), Int32(image.height))
        wl_surface_commit(surface)
    }
}
