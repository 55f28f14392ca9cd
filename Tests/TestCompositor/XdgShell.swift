import CTestCompositor
import CWaylandServer
#if canImport(Glibc)
import Glibc
#endif

/// An xdg_surface and its toplevel role: the first commit gets a configure, buffers only after
/// the client acknowledged one (as real compositors insist).
final class XdgSurface: ResourceObject {
    let surface: Surface
    var toplevel: Toplevel?
    private var initialConfigureSent = false
    private(set) var acknowledged = false
    private(set) var mapped = false

    init(resource: Resource, compositor: Server, surface: Surface) {
        self.surface = surface
        super.init(resource: resource, compositor: compositor)
    }

    override func destroyed() { toplevel?.xdgSurface = nil }

    /// False (and a protocol error) when a buffer comes before the first acknowledged configure.
    func allowsCommit(attachingBuffer: Bool) -> Bool {
        if attachingBuffer && !acknowledged {
            compositor.postError(resource, code: XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER.rawValue,
                                 "xdg_surface: buffer attached before the first configure was acknowledged")
            return false
        }
        return true
    }

    func committed(hasBuffer: Bool) {
        guard let toplevel else { return }
        if !initialConfigureSent {
            initialConfigureSent = true
            toplevel.sendConfigure()
        } else if hasBuffer && !mapped {
            mapped = true
            compositor.toplevelMapped(self)
        }
    }

    func acknowledge(_ serial: UInt32) {
        acknowledged = true
        compositor.record { $0.acknowledgedConfigures.append(serial) }
    }
}

/// xdg_toplevel: records what the client asks, sends the configures the test chooses.
final class Toplevel: ResourceObject {
    weak var xdgSurface: XdgSurface?

    init(resource: Resource, compositor: Server, xdgSurface: XdgSurface) {
        self.xdgSurface = xdgSurface
        super.init(resource: resource, compositor: compositor)
    }

    override func destroyed() { xdgSurface?.toplevel = nil }

    /// Sends the compositor's current configure (size and states), then the xdg_surface serial.
    func sendConfigure() {
        guard let xdgSurface else { return }
        let (width, height, states) = compositor.configureState
        var array = wl_array()
        wl_array_init(&array)
        for state in states {
            if let slot = wl_array_add(&array, MemoryLayout<UInt32>.size) { slot.storeBytes(of: state, as: UInt32.self) }
        }
        xdg_toplevel_send_configure(resource, width, height, &array)
        wl_array_release(&array)
        xdg_surface_send_configure(xdgSurface.resource, compositor.nextSerial())
    }

    func update(_ change: (inout ToplevelInfo) -> Void) {
        compositor.record { observation in
            var info = observation.toplevel ?? ToplevelInfo()
            change(&info)
            observation.toplevel = info
        }
    }
}

private func string(_ pointer: UnsafePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }

extension Implementations {
    func xdgInit() {
        wmBase.initialize(to: xdg_wm_base_interface(
            destroy: destroyRequest,
            create_positioner: { client, resource, id in
                guard let owner = ResourceObject.of(resource)?.compositor,
                      let created = makeResource(client, "xdg_positioner", version: wl_resource_get_version(resource), id: id)
                else { return }
                InertObject(resource: created, compositor: owner).install(owner.implementations.positioner)
            },
            get_xdg_surface: { client, resource, id, surfaceResource in
                guard let owner = ResourceObject.of(resource)?.compositor, let surface = Surface.of(surfaceResource),
                      let created = makeResource(client, "xdg_surface", version: wl_resource_get_version(resource), id: id)
                else { return }
                let xdgSurface = XdgSurface(resource: created, compositor: owner, surface: surface)
                xdgSurface.install(owner.implementations.xdgSurface)
                surface.xdgSurface = xdgSurface
            },
            pong: { _, resource, _ in ResourceObject.of(resource)?.compositor.record { $0.pongs += 1 } }))
        positioner.initialize(to: xdg_positioner_interface(
            destroy: destroyRequest, set_size: { _, _, _, _ in }, set_anchor_rect: { _, _, _, _, _, _ in },
            set_anchor: { _, _, _ in }, set_gravity: { _, _, _ in }, set_constraint_adjustment: { _, _, _ in },
            set_offset: { _, _, _, _ in }, set_reactive: { _, _ in }, set_parent_size: { _, _, _, _ in },
            set_parent_configure: { _, _, _ in }))
        xdgSurface.initialize(to: xdg_surface_interface(
            destroy: destroyRequest,
            get_toplevel: { client, resource, id in
                guard let xdgSurface = XdgSurface.of(resource),
                      let created = makeResource(client, "xdg_toplevel", version: wl_resource_get_version(resource), id: id)
                else { return }
                let toplevel = Toplevel(resource: created, compositor: xdgSurface.compositor, xdgSurface: xdgSurface)
                toplevel.install(xdgSurface.compositor.implementations.toplevel)
                xdgSurface.toplevel = toplevel
                toplevel.update { _ in }
            },
            get_popup: { _, resource, _, _, _ in
                guard let resource, let xdgSurface = XdgSurface.of(resource) else { return }
                xdgSurface.compositor.postError(resource, code: XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT.rawValue,
                                                "the test compositor has no popups")
            },
            set_window_geometry: { _, _, _, _, _, _ in },
            ack_configure: { _, resource, serial in XdgSurface.of(resource)?.acknowledge(serial) }))
        toplevel.initialize(to: xdg_toplevel_interface(
            destroy: destroyRequest,
            set_parent: { _, _, _ in },
            set_title: { _, resource, title in Toplevel.of(resource)?.update { $0.title = string(title) } },
            set_app_id: { _, resource, appID in Toplevel.of(resource)?.update { $0.appID = string(appID) } },
            show_window_menu: { _, _, _, _, _, _ in },
            move: { _, _, _, _ in },
            resize: { _, _, _, _, _ in },
            set_max_size: { _, _, _, _ in },
            set_min_size: { _, resource, width, height in
                Toplevel.of(resource)?.update { $0.minWidth = width; $0.minHeight = height }
            },
            set_maximized: { _, _ in },
            unset_maximized: { _, _ in },
            set_fullscreen: { _, resource, _ in Toplevel.of(resource)?.update { $0.fullscreenRequested = true } },
            unset_fullscreen: { _, resource in Toplevel.of(resource)?.update { $0.fullscreenRequested = false } },
            set_minimized: { _, _ in }))
    }

    func xdgDeinit() {
        wmBase.deallocate()
        positioner.deallocate()
        xdgSurface.deallocate()
        toplevel.deallocate()
    }
}
