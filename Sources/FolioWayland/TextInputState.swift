/// What zwp_text_input_v3 asks of a client, as a value: enabling is only valid while the surface
/// has the text focus (between `enter` and `leave`), so a wish to type made before the focus
/// arrives waits for it; committed text takes effect at `done`, not before.
struct TextInputState: Equatable {
    /// What the client sends to match the wish: enable (or disable) and commit.
    enum Request: Equatable {
        case enable, disable
    }

    private(set) var focused = false
    /// Whether a name is being typed (the app's wish).
    private(set) var wanted = false
    /// Whether the compositor was last told to enable.
    private(set) var enabled = false
    private var pending: String?

    /// A name starts or stops being typed.
    mutating func want(_ on: Bool) -> Request? {
        wanted = on
        return sync()
    }

    /// The surface got the text focus.
    mutating func enter() -> Request? {
        focused = true
        return sync()
    }

    /// The surface lost the text focus: the compositor disabled the input itself.
    mutating func leave() {
        focused = false
        enabled = false
        pending = nil
    }

    /// Text the input method committed, applied at the next `done` (a later one replaces it).
    mutating func commitString(_ text: String?) {
        pending = text
    }

    /// The compositor's `done`: the committed text, if any, to type.
    mutating func done() -> String? {
        defer { pending = nil }
        guard let pending, !pending.isEmpty else { return nil }
        return pending
    }

    private mutating func sync() -> Request? {
        guard focused, wanted != enabled else { return nil }
        enabled = wanted
        return wanted ? .enable : .disable
    }
}
