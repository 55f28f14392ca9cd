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
        try client.present(damage: damage, input: input)
    }

    var clockNow: Double? { monotonicMilliseconds() }

    /// The first vblank of the compositor's cycle whose deadline is still ahead, the deadline
    /// taken as half a refresh before it: the compositor does not say how long before a vblank
    /// it stops taking commits (Weston's default is 7 ms of 16.7), and a late frame the deadline
    /// catches costs a whole refresh. Nil without a cycle (frames are drawn at each callback).
    var presentationForecast: PresentationForecast? {
        guard let cycle = client.repaintCycle else { return nil }
        let now = monotonicMilliseconds()
        guard var forecast = PresentationForecast.fromCallbacks(lastCallback: cycle.time, interval: cycle.interval, now: now) else { return nil }
        if forecast.time - forecast.repaintWindow <= now { forecast.time += forecast.refreshInterval }
        return forecast
    }

    func wakeToDraw(at time: Double) {
        client.wakeToDraw(after: time - monotonicMilliseconds())
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
