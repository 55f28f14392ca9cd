/// What zwp_text_input_v3 asks of a client, as a value: enabling is only valid while the surface
/// has the text focus (between `enter` and `leave`), so a wish to type made before the focus
/// arrives waits for it; the input method's deletions and committed text take effect at `done`,
/// not before. The text being typed is told to the input method as its surrounding text, the
/// cursor at its end, so a keyboard's backspace can arrive as a deletion of bytes before it.
struct TextInputState: Equatable {
    /// What the client sends to match the wish: enable (or disable) and commit; `surrounding`
    /// is the text to tell with it (nil: none).
    enum Request: Equatable {
        case enable(surrounding: String)
        case update(surrounding: String)
        case disable
    }

    /// What a `done` asks the app to do: take `deleting` characters from before the cursor,
    /// type `text`, then show `composing` at the cursor (nil: what shows stays).
    struct Edit: Equatable {
        var deleting: Int
        var text: String?
        var composing: String? = nil
    }

    private(set) var focused = false
    /// The text being typed (the app's wish), nil when nothing is.
    private(set) var wanted: String?
    /// Whether the compositor was last told to enable.
    private(set) var enabled = false
    /// The surrounding text the compositor was last told.
    private var told: String?
    private var pendingText: String?
    private var pendingDelete = 0
    private var pendingPreedit: String?
    /// The composition the app was last given.
    private var shownComposing = ""

    /// A name starts being typed or changes (its text so far), or stops (nil).
    mutating func want(_ text: String?) -> Request? {
        wanted = text
        // A name no longer typed shows no composition.
        if text == nil { shownComposing = "" }
        return sync()
    }

    /// The surface got the text focus.
    mutating func enter() -> Request? {
        focused = true
        return sync()
    }

    /// The surface lost the text focus: the compositor disabled the input itself. Returns the
    /// composition to show now (empty) when one showed.
    mutating func leave() -> String? {
        focused = false
        enabled = false
        told = nil
        pendingText = nil
        pendingDelete = 0
        pendingPreedit = nil
        defer { shownComposing = "" }
        return shownComposing.isEmpty ? nil : ""
    }

    /// What the input method composes, shown from the next `done` (a later one replaces it).
    mutating func preeditString(_ text: String?) {
        pendingPreedit = text
    }

    /// Text the input method committed, applied at the next `done` (a later one replaces it).
    mutating func commitString(_ text: String?) {
        pendingText = text
    }

    /// The input method deletes `bytes` of UTF-8 before the cursor at the next `done` (text after
    /// the cursor there is none: the cursor is at the end).
    mutating func deleteSurrounding(before bytes: UInt32) {
        pendingDelete = Int(min(bytes, 1 << 20))
    }

    /// The compositor's `done`: what to delete and type, if anything. A deletion counts the
    /// characters whose bytes it reaches in the text last told, a character cut in two included.
    mutating func done() -> Edit? {
        defer {
            pendingText = nil
            pendingDelete = 0
            pendingPreedit = nil
        }
        var deleting = 0
        if pendingDelete > 0, let told {
            var bytes = 0
            for character in told.reversed() where bytes < pendingDelete {
                bytes += character.utf8.count
                deleting += 1
            }
        }
        let text = pendingText.flatMap { $0.isEmpty ? nil : $0 }
        // A done without a preedit clears the composition.
        let composing = pendingPreedit ?? ""
        let changed = composing != shownComposing ? composing : nil
        shownComposing = composing
        guard deleting > 0 || text != nil || changed != nil else { return nil }
        return Edit(deleting: deleting, text: text, composing: changed)
    }

    private mutating func sync() -> Request? {
        guard focused else { return nil }
        switch (wanted, enabled) {
        case let (text?, false):
            enabled = true
            told = text
            return .enable(surrounding: text)
        case let (text?, true) where text != told:
            told = text
            return .update(surrounding: text)
        case (nil, true):
            enabled = false
            told = nil
            return .disable
        default:
            return nil
        }
    }
}
