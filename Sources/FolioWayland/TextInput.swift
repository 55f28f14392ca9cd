import CWaylandClient
import CWaylandProtocols
import FolioInput

/// One seat's text input (zwp_text_input_v3): what GNOME's and KDE's on-screen keyboards type
/// into. Enabled while the app has a name being typed, which it is told as the surrounding
/// text; each committed string arrives as a `text` input event and each character deleted
/// before the cursor as a BackSpace, as a keyboard's keys do, and what it composes meanwhile
/// as a `composing` event.
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
                if let composing = input.state.leave() { input.sink(.composing(composing), nil) }
            },
            preedit_string: { data, _, text, _, _ in
                guard let input: TextInput = owner(data) else { return }
                // Shown, never typed: within a trace's limits, control characters left out.
                input.state.preeditString(text.map { bytes in
                    let shown = String(cString: bytes).unicodeScalars.filter { $0.properties.generalCategory != .control }
                    return String(String(String.UnicodeScalarView(shown)).prefix(Trace.longestText))
                })
            },
            commit_string: { data, _, text in
                guard let input: TextInput = owner(data) else { return }
                input.state.commitString(text.map { String(cString: $0) })
            },
            delete_surrounding_text: { data, _, before, _ in
                guard let input: TextInput = owner(data) else { return }
                input.state.deleteSurrounding(before: before)
            },
            done: { data, _, _ in
                guard let input: TextInput = owner(data), let edit = input.state.done() else { return }
                let backSpace = KeyChord(key: "BackSpace")
                for _ in 0..<edit.deleting {
                    input.sink(.key(backSpace, pressed: true), nil)
                    input.sink(.key(backSpace, pressed: false), nil)
                }
                if let text = edit.text { input.sink(.text(text), nil) }
                if let composing = edit.composing { input.sink(.composing(composing), nil) }
            }))
        self.listener = listener
        zwp_text_input_v3_add_listener(proxy, listener.pointer, userData(self))
    }

    deinit {
        zwp_text_input_v3_destroy(proxy)
    }

    /// A name starts being typed or changes (its text so far), or stops (nil): the on-screen
    /// keyboard may show or go.
    func setText(_ text: String?) {
        send(state.want(text))
    }

    private func send(_ request: TextInputState.Request?) {
        switch request {
        case let .enable(surrounding):
            zwp_text_input_v3_enable(proxy)
            zwp_text_input_v3_set_content_type(proxy, ZWP_TEXT_INPUT_V3_CONTENT_HINT_NONE.rawValue,
                                               ZWP_TEXT_INPUT_V3_CONTENT_PURPOSE_NORMAL.rawValue)
            tell(surrounding)
            zwp_text_input_v3_commit(proxy)
        case let .update(surrounding):
            tell(surrounding)
            zwp_text_input_v3_commit(proxy)
        case .disable:
            zwp_text_input_v3_disable(proxy)
            zwp_text_input_v3_commit(proxy)
        case nil:
            break
        }
    }

    /// The text around the cursor, the cursor (and anchor) at its end, in bytes. The protocol
    /// caps a message at 4000 bytes: a longer text is told by its end.
    private func tell(_ text: String) {
        var bytes = Array(text.utf8.suffix(4000))
        // Not from the middle of a character.
        while let first = bytes.first, first & 0xC0 == 0x80 { bytes.removeFirst() }
        let cursor = Int32(bytes.count)
        bytes.append(0)
        bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { zwp_text_input_v3_set_surrounding_text(proxy, $0, cursor, cursor) }
            }
        }
    }
}
