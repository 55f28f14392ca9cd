import CWaylandClient
import CWaylandProtocols
import FolioGeometry
import FolioInput

/// wl_pointer (a mouse draws with its left button) and, where the compositor offers
/// pointer-gestures, the touchpad pinch that folds like a touch pinch.
final class Pointer {
    /// Linux input event codes (linux/input-event-codes.h).
    static let buttons: [UInt32: PointerButton] = [0x110: .left, 0x111: .right, 0x112: .middle]

    private let proxy: OpaquePointer
    private let version: UInt32
    private let sink: InputSink
    /// Sets the cursor image on enter (serial): the pointer shows nothing until a client sets one.
    private let setCursor: (OpaquePointer, UInt32) -> Void
    private var pinch: OpaquePointer?
    private var held: Set<PointerButton> = []
    private var lastTime: UInt32?
    private var listener: HeapListener<wl_pointer_listener>?
    private var pinchListener: HeapListener<zwp_pointer_gesture_pinch_v1_listener>?

    init(proxy: OpaquePointer, version: UInt32, gestures: OpaquePointer?, sink: @escaping InputSink,
         setCursor: @escaping (OpaquePointer, UInt32) -> Void) {
        self.proxy = proxy
        self.setCursor = setCursor
        self.version = version
        self.sink = sink
        // Assigned one by one: libwayland 1.22 and newer add events (Debian 13's headers have more fields
        // than Debian 12's); the seat is bound at a version that never sends them, so they stay NULL.
        var callbacks = wl_pointer_listener()
        callbacks.enter = { data, proxy, serial, _, x, y in
            guard let pointer: Pointer = owner(data) else { return }
            if let proxy { pointer.setCursor(proxy, serial) }
            pointer.sink(.pointerMotion(to: Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))), nil)
        }
        callbacks.leave = { data, _, _, _ in
            guard let pointer: Pointer = owner(data) else { return }
            pointer.releaseButtons()
        }
        callbacks.motion = { data, _, time, x, y in
            guard let pointer: Pointer = owner(data) else { return }
            pointer.lastTime = time
            pointer.sink(.pointerMotion(to: Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))), time)
        }
        callbacks.button = { data, _, _, time, code, state in
            guard let pointer: Pointer = owner(data), let button = Pointer.buttons[code] else { return }
            let pressed = state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue
            if pressed { pointer.held.insert(button) } else { pointer.held.remove(button) }
            pointer.lastTime = time
            pointer.sink(.pointerButton(button, pressed: pressed), time)
        }
        callbacks.axis = { _, _, _, _, _ in }
        callbacks.frame = { _, _ in }
        callbacks.axis_source = { _, _, _ in }
        callbacks.axis_stop = { _, _, _, _ in }
        callbacks.axis_discrete = { _, _, _, _ in }
        callbacks.axis_value120 = { _, _, _, _ in }
        let listener = HeapListener(callbacks)
        self.listener = listener
        wl_pointer_add_listener(proxy, listener.pointer, userData(self))
        if let gestures, let pinch = zwp_pointer_gestures_v1_get_pinch_gesture(gestures, proxy) {
            self.pinch = pinch
            let pinchListener = HeapListener(zwp_pointer_gesture_pinch_v1_listener(
                begin: { data, _, _, time, _, fingers in
                    guard let pointer: Pointer = owner(data) else { return }
                    pointer.sink(.pinchBegin(fingers: Int(fingers)), time)
                },
                update: { data, _, time, dx, dy, scale, rotation in
                    guard let pointer: Pointer = owner(data) else { return }
                    pointer.sink(.pinchUpdate(scale: wl_fixed_to_double(scale), dx: wl_fixed_to_double(dx),
                                              dy: wl_fixed_to_double(dy), rotation: wl_fixed_to_double(rotation)), time)
                },
                end: { data, _, _, time, cancelled in
                    guard let pointer: Pointer = owner(data) else { return }
                    pointer.sink(.pinchEnd(cancelled: cancelled != 0), time)
                }))
            self.pinchListener = pinchListener
            zwp_pointer_gesture_pinch_v1_add_listener(pinch, pinchListener.pointer, userData(self))
        }
    }

    deinit {
        if let pinch { zwp_pointer_gesture_pinch_v1_destroy(pinch) }
        if version >= 3 { wl_pointer_release(proxy) } else { wl_pointer_destroy(proxy) }
    }

    /// The pointer left or went away with buttons down: release them, so a stroke ends and is kept.
    func releaseButtons() {
        for button in PointerButton.allCases where held.contains(button) {
            sink(.pointerButton(button, pressed: false), lastTime)
        }
        held.removeAll()
    }
}
