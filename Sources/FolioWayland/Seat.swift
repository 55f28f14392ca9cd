import CWaylandClient
import FolioInput

/// Where the seat's devices deliver what they read: an input event and its wl timestamp
/// (nil for events that carry none, such as wl_touch.frame).
typealias InputSink = (InputEvent, UInt32?) -> Void

/// One wl_seat: gets and releases its touch, pointer and keyboard as the capabilities come and
/// go (KWin adds touch only once a touchscreen exists).
final class Seat {
    let proxy: OpaquePointer
    let name: UInt32
    private let version: UInt32
    /// Asked when a pointer appears: the gestures global may be announced after the seat.
    private let pointerGestures: () -> OpaquePointer?
    private let sink: InputSink
    private let setCursor: (OpaquePointer, UInt32) -> Void
    private var touch: Touch?
    private var pointer: Pointer?
    private var keyboard: Keyboard?
    private var tablets: TabletSeat?
    private var listener: HeapListener<wl_seat_listener>?

    init(proxy: OpaquePointer, name: UInt32, version: UInt32, pointerGestures: @escaping () -> OpaquePointer?,
         sink: @escaping InputSink, setCursor: @escaping (OpaquePointer, UInt32) -> Void) {
        self.setCursor = setCursor
        self.proxy = proxy
        self.name = name
        self.version = version
        self.pointerGestures = pointerGestures
        self.sink = sink
        let listener = HeapListener(wl_seat_listener(
            capabilities: { data, _, capabilities in
                guard let seat: Seat = owner(data) else { return }
                seat.update(capabilities: capabilities)
            },
            name: { _, _, _ in }))
        self.listener = listener
        wl_seat_add_listener(proxy, listener.pointer, userData(self))
    }

    deinit {
        tablets = nil
        touch = nil
        pointer = nil
        keyboard = nil
        if version >= 5 { wl_seat_release(proxy) } else { wl_seat_destroy(proxy) }
    }

    /// The seat went away: ends what its devices were doing (a stroke is kept) and lets them go.
    func unplug() {
        tablets = nil
        update(capabilities: 0)
    }

    /// Follows this seat's tablets through `manager` (zwp_tablet_manager_v2), once.
    func attachTablets(manager: OpaquePointer) {
        guard tablets == nil else { return }
        tablets = try? TabletSeat(manager: manager, seat: proxy, sink: sink)
    }

    private func update(capabilities: UInt32) {
        let hasTouch = capabilities & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0
        let hasPointer = capabilities & WL_SEAT_CAPABILITY_POINTER.rawValue != 0
        let hasKeyboard = capabilities & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0
        if hasTouch, touch == nil, let proxy = wl_seat_get_touch(proxy) {
            touch = Touch(proxy: proxy, version: version, sink: sink)
        } else if !hasTouch, let touch {
            // A touchscreen unplugged mid-stroke: end the gesture as the compositor would.
            if touch.hasContacts { sink(.touchCancel, nil) }
            self.touch = nil
        }
        if hasPointer, pointer == nil, let proxy = wl_seat_get_pointer(proxy) {
            pointer = Pointer(proxy: proxy, version: version, gestures: pointerGestures(), sink: sink, setCursor: setCursor)
        } else if !hasPointer, let pointer {
            pointer.releaseButtons()
            self.pointer = nil
        }
        if hasKeyboard, keyboard == nil, let proxy = wl_seat_get_keyboard(proxy) {
            keyboard = Keyboard(proxy: proxy, version: version, sink: sink)
        } else if !hasKeyboard {
            keyboard = nil
        }
    }
}
