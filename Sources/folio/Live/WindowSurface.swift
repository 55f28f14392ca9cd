import FolioCore
import FolioGeometry
import FolioPixels
import FolioRender
import FolioWayland

/// The Wayland window as the frame loop's surface. An adapter here rather than a conformance in
/// FolioWayland: the Wayland client stays free of the session's core, and the core of Wayland.
final class WindowSurface: FrameSurface {
    private let client: WaylandClient

    init(client: WaylandClient) {
        self.client = client
    }

    var isConfigured: Bool { client.isConfigured }
    var isFrameInFlight: Bool { client.isFrameInFlight }
    var hasFreeBuffer: Bool { client.hasFreeBuffer }

    func acquireBuffer(width: Int, height: Int) throws -> FrameTarget? {
        try client.acquireBuffer(width: width, height: height).map { FrameTarget(bitmap: $0.bitmap, missing: $0.missing) }
    }

    func present(damage: Region, input: Double?) throws {
        try client.present(damage: damage)
    }

    func presentToolbar(_ image: Bitmap, at origin: Point, barShown: Bool) throws {
        try client.presentToolbar(image, at: origin, barShown: barShown)
    }

    func requestFrame() {
        client.requestTick()
    }

    func requestFrame(after milliseconds: Double) {
        client.requestTick(after: milliseconds)
    }
}
