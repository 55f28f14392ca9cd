import CTestCompositor
import CWaylandServer
import CXKBCommon
#if canImport(Glibc)
import Glibc
#endif

/// Modifier keys held with a key, for `TestCompositor.press`.
public struct KeyModifiers: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let control = KeyModifiers(rawValue: 1)
    public static let shift = KeyModifiers(rawValue: 2)
}

/// Linux evdev key codes (what wl_keyboard.key carries).
public enum KeyCode {
    public static let escape: UInt32 = 1
    public static let backspace: UInt32 = 14
    public static let q: UInt32 = 16
    public static let enter: UInt32 = 28
    public static let y: UInt32 = 21
    public static let z: UInt32 = 44
    public static let f11: UInt32 = 87
}

/// The default (US) keymap as xkbcommon compiles it, handed to every wl_keyboard, with the
/// masks of the modifiers the tests press.
struct Keymap {
    let text: String
    let control: UInt32
    let shift: UInt32

    init?() {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        defer { xkb_context_unref(context) }
        guard let keymap = xkb_keymap_new_from_names(context, nil, XKB_KEYMAP_COMPILE_NO_FLAGS) else { return nil }
        defer { xkb_keymap_unref(keymap) }
        guard let compiled = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) else { return nil }
        text = String(cString: compiled)
        free(compiled)
        control = 1 << xkb_keymap_mod_get_index(keymap, "Control")
        shift = 1 << xkb_keymap_mod_get_index(keymap, "Shift")
    }

    func mask(_ modifiers: KeyModifiers) -> UInt32 {
        (modifiers.contains(.control) ? control : 0) | (modifiers.contains(.shift) ? shift : 0)
    }

    /// Sends the keymap to `keyboard` through a memfd (xkb_v1 text, NUL-terminated).
    func send(to keyboard: Resource) {
        let fd = folio_memfd_create("folio-test-keymap")
        guard fd >= 0 else { return }
        defer { close(fd) }
        let bytes = Array(text.utf8) + [0]
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { return }
        wl_keyboard_send_keymap(keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, fd, UInt32(bytes.count))
    }
}
