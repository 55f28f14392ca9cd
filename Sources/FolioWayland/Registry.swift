import CWaylandClient
import CWaylandProtocols

/// The compositor's globals: binds the ones Folio speaks at min(offered, supported) versions,
/// and notices outputs and seats that come and go.
final class Registry {
    /// The highest version of each global whose requests and events Folio handles.
    static let supported: [String: UInt32] = [
        "wl_compositor": 4, "wl_subcompositor": 1, "wl_shm": 1, "wl_seat": 7, "wl_output": 4, "xdg_wm_base": 5,
        "wp_viewporter": 1, "wp_fractional_scale_manager_v1": 1, "zwp_pointer_gestures_v1": 1,
        "wp_presentation": 1, "zwp_tablet_manager_v2": 1, "zwp_text_input_manager_v3": 1,
    ]

    private let registry: OpaquePointer
    /// Kept so the connection outlives every proxy bound here.
    private let display: Display
    private var listener: HeapListener<wl_registry_listener>?
    /// Answers xdg_wm_base.ping, or the compositor deems Folio unresponsive.
    private let pingListener = HeapListener(xdg_wm_base_listener(ping: { _, wmBase, serial in
        xdg_wm_base_pong(wmBase, serial)
    }))

    private(set) var compositor: OpaquePointer?
    private(set) var subcompositor: OpaquePointer?
    private(set) var shm: OpaquePointer?
    private(set) var wmBase: OpaquePointer?
    private(set) var viewporter: OpaquePointer?
    private(set) var fractionalScaleManager: OpaquePointer?
    private(set) var pointerGestures: OpaquePointer?
    private(set) var tabletManager: OpaquePointer?
    /// On-screen keyboards (zwp_text_input_v3), where the compositor offers them.
    private(set) var textInputManager: OpaquePointer?
    /// The tablet manager was bound (it may come after the seats).
    var onTabletManager: ((OpaquePointer) -> Void)?
    private(set) var presentation: Presentation?

    /// A global output or seat appeared (proxy, registry name, bound version).
    var onOutput: ((OpaquePointer, UInt32, UInt32) -> Void)?
    var onSeat: ((OpaquePointer, UInt32, UInt32) -> Void)?
    /// A global went away (registry name): outputs and seats unplugged.
    var onRemove: ((UInt32) -> Void)?

    init(display: Display) throws {
        guard let registry = wl_display_get_registry(display.display) else {
            throw WaylandError.system("cannot get the Wayland registry")
        }
        self.registry = registry
        self.display = display
        let listener = HeapListener(wl_registry_listener(
            global: { data, _, name, interface, version in
                guard let interface, let registry: Registry = owner(data) else { return }
                registry.announce(name: name, interface: String(cString: interface), version: version)
            },
            global_remove: { data, _, name in
                guard let registry: Registry = owner(data) else { return }
                registry.onRemove?(name)
            }))
        self.listener = listener
        wl_registry_add_listener(registry, listener.pointer, userData(self))
    }

    deinit {
        presentation = nil  // destroyed here, while the connection is surely up
        for proxy in [viewporter, fractionalScaleManager, pointerGestures, tabletManager, textInputManager, shm, subcompositor, compositor, wmBase] {
            if let proxy { wl_proxy_destroy(proxy) }
        }
        wl_registry_destroy(registry)
    }

    private func announce(name: UInt32, interface: String, version offered: UInt32) {
        guard let ours = Self.supported[interface], let descriptor = folio_interface(interface) else { return }
        let version = min(offered, ours)
        guard let proxy = OpaquePointer(wl_registry_bind(registry, name, descriptor, version)) else { return }
        switch interface {
        case "wl_compositor": replace(&compositor, with: proxy)
        case "wl_shm": replace(&shm, with: proxy)
        case "wl_subcompositor": replace(&subcompositor, with: proxy)
        case "xdg_wm_base":
            guard wmBase == nil else { return wl_proxy_destroy(proxy) }
            wmBase = proxy
            xdg_wm_base_add_listener(proxy, pingListener.pointer, nil)
        case "wp_viewporter": replace(&viewporter, with: proxy)
        case "wp_fractional_scale_manager_v1": replace(&fractionalScaleManager, with: proxy)
        case "zwp_pointer_gestures_v1": replace(&pointerGestures, with: proxy)
        case "zwp_text_input_manager_v3": replace(&textInputManager, with: proxy)
        case "zwp_tablet_manager_v2":
            guard tabletManager == nil else { return wl_proxy_destroy(proxy) }
            tabletManager = proxy
            onTabletManager?(proxy)
        case "wp_presentation":
            guard presentation == nil else { return wl_proxy_destroy(proxy) }
            presentation = Presentation(proxy: proxy)
        case "wl_output": onOutput?(proxy, name, version)
        case "wl_seat": onSeat?(proxy, name, version)
        default: wl_proxy_destroy(proxy)
        }
    }

    /// A singleton global announced twice keeps the first binding.
    private func replace(_ slot: inout OpaquePointer?, with proxy: OpaquePointer) {
        if slot == nil { slot = proxy } else { wl_proxy_destroy(proxy) }
    }

    /// The globals Folio cannot work without, checked after the first roundtrip.
    func requireEssentials() throws {
        if compositor == nil { throw WaylandError.missingGlobal("wl_compositor") }
        if shm == nil { throw WaylandError.missingGlobal("wl_shm") }
        if wmBase == nil { throw WaylandError.missingGlobal("xdg_wm_base (xdg-shell)") }
    }
}
