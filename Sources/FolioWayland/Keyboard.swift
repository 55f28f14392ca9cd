import CWaylandClient
import CXKBCommon
import FolioInput
import Glibc

/// wl_keyboard through xkbcommon: the compositor's keymap (an fd to map), the modifier state,
/// and each pressed key as a KeyChord named like the trace format (`ctrl+z`, `F11`).
final class Keyboard {
    private let proxy: OpaquePointer
    private let version: UInt32
    private let sink: InputSink
    private let context: OpaquePointer?
    private var keymap: OpaquePointer?
    private var state: OpaquePointer?
    private var listener: HeapListener<wl_keyboard_listener>?

    init(proxy: OpaquePointer, version: UInt32, sink: @escaping InputSink) {
        self.proxy = proxy
        self.version = version
        self.sink = sink
        context = xkb_context_new(XKB_CONTEXT_NO_FLAGS)
        let listener = HeapListener(wl_keyboard_listener(
            keymap: { data, _, format, fd, size in
                guard let keyboard: Keyboard = owner(data) else { close(fd); return }
                keyboard.loadKeymap(format: format, fd: fd, size: Int(size))
            },
            enter: { _, _, _, _, _ in },
            leave: { _, _, _, _ in },
            key: { data, _, _, time, key, state in
                guard let keyboard: Keyboard = owner(data) else { return }
                keyboard.key(key, pressed: state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue, time: time)
            },
            modifiers: { data, _, _, depressed, latched, locked, group in
                guard let keyboard: Keyboard = owner(data), let state = keyboard.state else { return }
                xkb_state_update_mask(state, depressed, latched, locked, 0, 0, group)
            },
            repeat_info: { _, _, _, _ in }))
        self.listener = listener
        wl_keyboard_add_listener(proxy, listener.pointer, userData(self))
    }

    deinit {
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        if let context { xkb_context_unref(context) }
        if version >= 3 { wl_keyboard_release(proxy) } else { wl_keyboard_destroy(proxy) }
    }

    private func loadKeymap(format: UInt32, fd: Int32, size: Int) {
        defer { close(fd) }
        guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, size > 0, let context else { return }
        // Since wl_seat v7 the fd must be mapped private.
        guard let text = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), text != MAP_FAILED else { return }
        defer { munmap(text, size) }
        guard let newKeymap = xkb_keymap_new_from_string(context, text.assumingMemoryBound(to: CChar.self),
                                                          XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS),
              let newState = xkb_state_new(newKeymap)
        else { return }
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        keymap = newKeymap
        state = newState
    }

    private func key(_ code: UInt32, pressed: Bool, time: UInt32) {
        guard let state else { return }
        // Wayland sends evdev codes; xkb keycodes are 8 higher.
        let symbol = xkb_state_key_get_one_sym(state, code + 8)
        guard symbol != 0 else { return }
        var buffer = [CChar](repeating: 0, count: 64)
        let length = Int(xkb_keysym_get_name(symbol, &buffer, buffer.count))
        guard length > 0, length < buffer.count else { return }
        let name = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var modifiers: Set<KeyChord.Modifier> = []
        for (xkbName, modifier) in [("Control", KeyChord.Modifier.ctrl), ("Shift", .shift), ("Mod1", .alt), ("Mod4", .logo)]
        where xkb_state_mod_name_is_active(state, xkbName, XKB_STATE_MODS_EFFECTIVE) > 0 {
            modifiers.insert(modifier)
        }
        sink(.key(KeyChord(key: name, modifiers: modifiers), pressed: pressed), time)
        // What the key types, for a name being edited: not with a shortcut's modifiers held.
        guard pressed, modifiers.isDisjoint(with: [.ctrl, .alt, .logo]) else { return }
        var text = [CChar](repeating: 0, count: 64)
        let count = Int(xkb_state_key_get_utf8(state, code + 8, &text, text.count))
        guard count > 0, count < text.count else { return }
        let typed = String(decoding: text[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if !typed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { sink(.text(typed), time) }
    }
}
