import CTestCompositor
import CWaylandServer
#if canImport(Glibc)
import Glibc
#endif

/// A bound wl_seat: told the capabilities whenever they change.
final class SeatBinding: ResourceObject {
    override func destroyed() { compositor.seatUnbound(self) }
}

/// A wl_touch, wl_pointer or wl_keyboard the client holds.
final class InputDevice: ResourceObject {
    enum Kind { case touch, pointer, keyboard }
    let kind: Kind
    /// Whether the focused surface was announced to it (wl_keyboard.enter, wl_pointer.enter).
    var entered = false

    init(resource: Resource, compositor: Server, kind: Kind) {
        self.kind = kind
        super.init(resource: resource, compositor: compositor)
    }

    override func destroyed() { compositor.deviceReleased(self) }
}

/// A bound wl_output.
final class OutputBinding: ResourceObject {
    override func destroyed() { compositor.outputUnbound(self) }
}

extension Implementations {
    func seatInit() {
        seat.initialize(to: wl_seat_interface(
            get_pointer: { client, resource, id in
                ResourceObject.of(resource)?.compositor.createDevice(.pointer, client: client, seat: resource, id: id)
            },
            get_keyboard: { client, resource, id in
                ResourceObject.of(resource)?.compositor.createDevice(.keyboard, client: client, seat: resource, id: id)
            },
            get_touch: { client, resource, id in
                ResourceObject.of(resource)?.compositor.createDevice(.touch, client: client, seat: resource, id: id)
            },
            release: destroyRequest))
        pointer.initialize(to: wl_pointer_interface(set_cursor: { _, _, _, _, _, _ in }, release: destroyRequest))
        keyboard.initialize(to: wl_keyboard_interface(release: destroyRequest))
        touch.initialize(to: wl_touch_interface(release: destroyRequest))
        output.initialize(to: wl_output_interface(release: destroyRequest))
    }

    func seatDeinit() {
        seat.deallocate()
        pointer.deallocate()
        keyboard.deallocate()
        touch.deallocate()
        output.deallocate()
    }
}

extension Server {
    func createDevice(_ kind: InputDevice.Kind, client: OpaquePointer?, seat: Resource?, id: UInt32) {
        let name = switch kind { case .touch: "wl_touch"; case .pointer: "wl_pointer"; case .keyboard: "wl_keyboard" }
        guard let created = makeResource(client, name, version: wl_resource_get_version(seat), id: id) else { return }
        let device = InputDevice(resource: created, compositor: self, kind: kind)
        switch kind {
        case .touch: device.install(implementations.touch)
        case .pointer: device.install(implementations.pointer)
        case .keyboard:
            device.install(implementations.keyboard)
            keymap?.send(to: created)
            if device.version >= 4 { wl_keyboard_send_repeat_info(created, 25, 600) }
        }
        deviceCreated(device)
    }
}
