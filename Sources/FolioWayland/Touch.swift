import CWaylandClient
import FolioGeometry
import FolioInput

/// wl_touch: down, motion and up per id, grouped by `frame`, and `cancel`; coordinates are
/// surface-local logical pixels. Grouping is left to the gesture recogniser (it applies a frame
/// at once), so this only translates.
final class Touch {
    private let proxy: OpaquePointer
    private let version: UInt32
    private let sink: InputSink
    private var listener: HeapListener<wl_touch_listener>?
    /// Ids down now, so an unplugged touchscreen can cancel what it left behind.
    private var contacts: Set<Int32> = []

    var hasContacts: Bool { !contacts.isEmpty }

    init(proxy: OpaquePointer, version: UInt32, sink: @escaping InputSink) {
        self.proxy = proxy
        self.version = version
        self.sink = sink
        let listener = HeapListener(wl_touch_listener(
            down: { data, _, _, time, _, id, x, y in
                guard let touch: Touch = owner(data) else { return }
                touch.contacts.insert(id)
                touch.sink(.touchDown(id: id, at: Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))), time)
            },
            up: { data, _, _, time, id in
                guard let touch: Touch = owner(data) else { return }
                touch.contacts.remove(id)
                touch.sink(.touchUp(id: id), time)
            },
            motion: { data, _, time, id, x, y in
                guard let touch: Touch = owner(data) else { return }
                touch.sink(.touchMotion(id: id, to: Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))), time)
            },
            frame: { data, _ in
                guard let touch: Touch = owner(data) else { return }
                touch.sink(.touchFrame, nil)
            },
            cancel: { data, _ in
                guard let touch: Touch = owner(data) else { return }
                touch.contacts.removeAll()
                touch.sink(.touchCancel, nil)
            },
            shape: { data, _, id, major, minor in
                guard let touch: Touch = owner(data) else { return }
                touch.sink(.touchShape(id: id, major: wl_fixed_to_double(major), minor: wl_fixed_to_double(minor)), nil)
            },
            orientation: { _, _, _, _ in }))
        self.listener = listener
        wl_touch_add_listener(proxy, listener.pointer, userData(self))
    }

    deinit {
        if version >= 3 { wl_touch_release(proxy) } else { wl_touch_destroy(proxy) }
    }
}
