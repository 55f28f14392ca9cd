import CWaylandClient
import CWaylandProtocols
import FolioInput

/// One seat's text input (zwp_text_input_v3): what GNOME's and KDE's on-screen keyboards type
/// into. Enabled while the app has a name being typed; each committed string arrives as a
/// `text` input event, as a keyboard's keys do.
final class TextInput {
    let seatName: UInt32
    private let proxy: OpaquePointer
    private let sink: InputSink
    private var state = TextInputState()
    private var listener: HeapListener<zwp_text_input_v3_listener>?

    init?(manager: OpaquePointer, seat: OpaquePointer, seatName: UInt32, sink: @escaping InputSink) {
        guard let proxy = zwp_text_input_manager_v3_get_text_input(manager, seat) else { return nil }
        self.proxy = proxy
        self.seatName = seatName
        self.sink = sink
        let listener = HeapListener(zwp_text_input_v3_listener(
            enter: { data, _, _ in
                guard let input: TextInput = owner(data) else { return }
                input.send(input.state.enter())
            },
            leave: { data, _, _ in
                guard let input: TextInput = owner(data) else { return }
                input.state.leave()
            },
            preedit_string: { _, _, _, _, _ in },
            commit_string: { data, _, text in
                guard let input: TextInput = owner(data) else { return }
                input.state.commitString(text.map { String(cString: $0) })
            },
            delete_surrounding_text: { _, _, _, _ in },
            done: { data, _, _ in
                guard let input: TextInput = owner(data), let text = input.state.done() else { return }
                input.sink(.text(text), nil)
            }))
        self.listener = listener
        zwp_text_input_v3_add_listener(proxy, listener.pointer, userData(self))
    }

    deinit {
        zwp_text_input_v3_destroy(proxy)
    }

    /// A name starts or stops being typed: the on-screen keyboard may show or go.
    func setWanted(_ on: Bool) {
        send(state.want(on))
    }

    private func send(_ request: TextInputState.Request?) {
        switch request {
        case .enable:
            zwp_text_input_v3_enable(proxy)
            zwp_text_input_v3_set_content_type(proxy, ZWP_TEXT_INPUT_V3_CONTENT_HINT_NONE.rawValue,
                                               ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_NORMAL.rawValue)
            zwp_text_input_v3_commit(proxy)
        case .disable:
            zwp_text_input_v3_disable(proxy)
            zwp_text_input_v3_commit(proxy)
        case nil:
            break
        }
    }
}
