import CWaylandClient
import FolioPixels

/// The pointer's image over Folio: a small pen-tip ring drawn in code (no cursor theme needed),
/// at the window's buffer scale, its hotspot in the centre where the ink lands.
final class Cursor {
    /// Logical size and hotspot.
    static let size = 24
    static let hotspot = 12

    let surface: OpaquePointer
    private let shm: OpaquePointer
    private var pool: BufferPool?
    private var scale = 0

    init?(compositor: OpaquePointer, shm: OpaquePointer) {
        guard let surface = wl_compositor_create_surface(compositor) else { return nil }
        self.surface = surface
        self.shm = shm
    }

    deinit {
        pool = nil
        wl_surface_destroy(surface)
    }

    /// Shows the cursor for `pointer` (on its enter `serial`), drawn for `scale`.
    func show(on pointer: OpaquePointer, serial: UInt32, scale: Int) {
        render(scale: scale)
        wl_pointer_set_cursor(pointer, serial, surface, Int32(Self.hotspot), Int32(Self.hotspot))
    }

    /// Draws the ring once per scale: a dark ring with a light rim, so it shows on ink and paper.
    private func render(scale: Int) {
        guard scale != self.scale else { return }
        let pixels = Self.size * scale
        guard let pool = try? BufferPool(shm: shm, width: pixels, height: pixels, capacity: 1),
              let buffer = pool.acquire() else { return }
        let bitmap = pool.bitmaps[buffer]
        let centre = Double(pixels) / 2, radius = 5.0 * Double(scale), line = 1.5 * Double(scale)
        for y in 0..<pixels {
            for x in 0..<pixels {
                let dx = Double(x) + 0.5 - centre, dy = Double(y) + 0.5 - centre
                let distance = (dx * dx + dy * dy).squareRoot()
                // Coverage of a ring of width `line` (dark) inside a ring twice as wide (light rim),
                // plus a one-pixel dot at the centre.
                let dark = max(coverage(distance: abs(distance - radius), halfWidth: line / 2),
                               coverage(distance: distance, halfWidth: Double(scale) * 0.9))
                let light = coverage(distance: abs(distance - radius), halfWidth: line * 1.5)
                let alpha = max(dark, light * 0.85)
                let grey = alpha > 0 ? (1 - dark / alpha) : 0  // dark core, white rim
                let a = UInt32((alpha * 255).rounded()), g = UInt32((grey * alpha * 255).rounded())
                bitmap.pixels.storeBytes(of: a << 24 | g << 16 | g << 8 | g, toByteOffset: y * bitmap.stride + x * 4, as: UInt32.self)
            }
        }
        wl_surface_set_buffer_scale(surface, Int32(scale))
        wl_surface_attach(surface, pool.commit(buffer, damage: Region(bitmap.bounds)), 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, Int32(pixels), Int32(pixels))
        wl_surface_commit(surface)
        self.pool = pool
        self.scale = scale
    }

    /// Antialiased coverage of a band `halfWidth` either side of distance 0.
    private func coverage(distance: Double, halfWidth: Double) -> Double {
        min(1, max(0, halfWidth + 0.5 - distance))
    }
}
