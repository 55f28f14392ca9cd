import CTestCompositor
import CWaylandServer

/// The tools the test tablet carries: a pen and its eraser end.
public enum TestTabletTool: Sendable, CaseIterable {
    case pen, eraser
}

/// One tablet-v2 tool event, sent to the focused surface's client as a compositor sends what
/// libinput reports. Pressure is tablet-v2's 0–65535; tilt in degrees.
public enum TabletEvent: Sendable {
    case proximityIn(TestTabletTool)
    case proximityOut
    case down
    case up
    case motion(x: Double, y: Double)
    case pressure(UInt32)
    case tilt(x: Double, y: Double)
    case button(UInt32, pressed: Bool)
    case frame
}

/// A zwp_tablet_seat_v2 the client holds, with the tablet and the tools announced on it.
final class TabletSeatObject: ResourceObject {
    var tablet: Resource?
    var tools: [(TestTabletTool, Resource)] = []
    override func destroyed() { compositor.tabletSeatGone(self) }
}

/// The request tables of the tablet objects (stable addresses, as libwayland keeps them).
final class TabletImplementations {
    let manager = UnsafeMutablePointer<zwp_tablet_manager_v2_interface>.allocate(capacity: 1)
    let seat = UnsafeMutablePointer<zwp_tablet_seat_v2_interface>.allocate(capacity: 1)
    let tablet = UnsafeMutablePointer<zwp_tablet_v2_interface>.allocate(capacity: 1)
    let tool = UnsafeMutablePointer<zwp_tablet_tool_v2_interface>.allocate(capacity: 1)

    init() {
        manager.initialize(to: zwp_tablet_manager_v2_interface(
            get_tablet_seat: { client, resource, id, _ in
                guard let owner = ResourceObject.of(resource)?.compositor,
                      let created = makeResource(client, "zwp_tablet_seat_v2", version: wl_resource_get_version(resource), id: id)
                else { return }
                owner.tabletSeatCreated(created)
            },
            destroy: destroyRequest))
        seat.initialize(to: zwp_tablet_seat_v2_interface(destroy: destroyRequest))
        tablet.initialize(to: zwp_tablet_v2_interface(destroy: destroyRequest))
        tool.initialize(to: zwp_tablet_tool_v2_interface(set_cursor: { _, _, _, _, _, _ in }, destroy: destroyRequest))
    }

    deinit {
        manager.deallocate()
        seat.deallocate()
        tablet.deallocate()
        tool.deallocate()
    }
}

extension Server {
    /// Announces one tablet with a pen and an eraser on a new tablet seat, as a compositor does
    /// when a pen tablet is plugged in.
    func tabletSeatCreated(_ resource: Resource) {
        let seat = TabletSeatObject(resource: resource, compositor: self)
        seat.install(tabletImplementations.seat)
        let client = wl_resource_get_client(resource)
        let version = wl_resource_get_version(resource)
        if let tablet = wl_resource_create(client, interface("zwp_tablet_v2"), version, 0) {
            InertObject(resource: tablet, compositor: self).install(tabletImplementations.tablet)
            zwp_tablet_seat_v2_send_tablet_added(resource, tablet)
            zwp_tablet_v2_send_name(tablet, "Folio test tablet")
            zwp_tablet_v2_send_done(tablet)
            seat.tablet = tablet
        }
        for kind in TestTabletTool.allCases {
            guard let tool = wl_resource_create(client, interface("zwp_tablet_tool_v2"), version, 0) else { continue }
            InertObject(resource: tool, compositor: self).install(tabletImplementations.tool)
            zwp_tablet_seat_v2_send_tool_added(resource, tool)
            let type = kind == .pen ? ZWP_TABLET_TOOL_V2_TYPE_PEN : ZWP_TABLET_TOOL_V2_TYPE_ERASER
            zwp_tablet_tool_v2_send_type(tool, type.rawValue)
            zwp_tablet_tool_v2_send_capability(tool, ZWP_TABLET_TOOL_V2_CAPABILITY_PRESSURE.rawValue)
            zwp_tablet_tool_v2_send_capability(tool, ZWP_TABLET_TOOL_V2_CAPABILITY_TILT.rawValue)
            zwp_tablet_tool_v2_send_done(tool)
            seat.tools.append((kind, tool))
        }
        tabletSeats.append(seat)
        let count = tabletSeats.count
        record { $0.tabletSeatObjects = count }
    }

    func tabletSeatGone(_ seat: TabletSeatObject) {
        tabletSeats.removeAll { $0 === seat }
        let count = tabletSeats.count
        record { $0.tabletSeatObjects = count }
    }

    /// Sends tablet events to the focused surface's client, from the tool the last
    /// `proximityIn` named; when they were flushed, or nil when no surface is mapped.
    func sendTablet(_ events: [TabletEvent]) -> ContinuousClock.Instant? {
        guard let surface = focusedSurface else { return nil }
        let seats = tabletSeats.filter { $0.client == surface.client }
        for event in events {
            if case let .proximityIn(kind) = event { tabletTool = kind }
            for seat in seats {
                guard let tool = seat.tools.first(where: { $0.0 == tabletTool })?.1 else { continue }
                switch event {
                case .proximityIn:
                    zwp_tablet_tool_v2_send_proximity_in(tool, nextSerial(), seat.tablet, surface.resource)
                case .proximityOut: zwp_tablet_tool_v2_send_proximity_out(tool)
                case .down: zwp_tablet_tool_v2_send_down(tool, nextSerial())
                case .up: zwp_tablet_tool_v2_send_up(tool)
                case let .motion(x, y): zwp_tablet_tool_v2_send_motion(tool, wl_fixed_from_double(x), wl_fixed_from_double(y))
                case let .pressure(value): zwp_tablet_tool_v2_send_pressure(tool, value)
                case let .tilt(x, y): zwp_tablet_tool_v2_send_tilt(tool, wl_fixed_from_double(x), wl_fixed_from_double(y))
                case let .button(button, pressed):
                    let state = pressed ? ZWP_TABLET_TOOL_V2_BUTTON_STATE_PRESSED : ZWP_TABLET_TOOL_V2_BUTTON_STATE_RELEASED
                    zwp_tablet_tool_v2_send_button(tool, nextSerial(), button, state.rawValue)
                case .frame: zwp_tablet_tool_v2_send_frame(tool, Self.milliseconds())
                }
            }
        }
        wl_display_flush_clients(display)
        return .now
    }
}
