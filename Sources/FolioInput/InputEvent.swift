import FolioGeometry

/// What a person did, as the compositor tells it. The live Wayland client and the trace
/// reader both produce these, so everything downstream runs the same code either way.
public enum InputEvent: Hashable, Sendable {
    case touchDown(id: Int32, at: Point)
    case touchMotion(id: Int32, to: Point)
    case touchUp(id: Int32)
    /// The touch events since the previous frame belong together: they take effect now.
    case touchFrame
    /// The compositor took every touch away.
    case touchCancel
    case pointerMotion(to: Point)
    case pointerButton(PointerButton, pressed: Bool)
    case pinchBegin(fingers: Int)
    case pinchUpdate(scale: Double, dx: Double, dy: Double, rotation: Double)
    case pinchEnd(cancelled: Bool)
    /// A key after xkbcommon, named like the trace does: `ctrl+z`, `F11`, `bracketright`.
    case key(KeyChord, pressed: Bool)
    /// Characters typed: a pressed key's text after xkbcommon, or what an on-screen keyboard
    /// committed (zwp_text_input_v3.commit_string).
    case text(String)
    /// What an input method is composing and shows before committing it (a word an on-screen
    /// keyboard still guesses at: zwp_text_input_v3's preedit); empty when it composes nothing.
    /// It replaces the composition before it and is never typed itself.
    case composing(String)
    /// The compositor configured a new logical size, and perhaps a preferred buffer scale.
    case resize(width: Int, height: Int, scale: BufferScale?)
    /// The contact of touch `id` is an ellipse `major` × `minor` logical pixels (wl_touch.shape).
    case touchShape(id: Int32, major: Double, minor: Double)
    /// A tablet tool came within sensing range of the surface (zwp_tablet_tool_v2.proximity_in).
    case tabletProximityIn(tool: TabletTool)
    case tabletProximityOut
    /// The tool touched the surface, or left it.
    case tabletDown
    case tabletUp
    /// The tool moved; `pressure` (0–1) and `tilt` are given when they changed.
    case tabletMotion(to: Point, pressure: Double?, tilt: PenTilt?)
    case tabletButton(Int, pressed: Bool)
    /// The tablet events since the previous frame belong together: they take effect now.
    case tabletFrame
}

/// The kinds of tablet tool (tablet-v2's types that draw or erase; others are taken as `pen`).
public enum TabletTool: String, Hashable, Sendable, CaseIterable {
    case pen, eraser, pencil, brush, airbrush

    /// Whether this end of the pen erases rather than draws.
    public var erases: Bool { self == .eraser }
}

public enum PointerButton: String, Hashable, Sendable, CaseIterable {
    case left, right, middle
}

/// A key symbol name with its modifiers, e.g. `ctrl+shift+z`. Modifiers are kept sorted so
/// two spellings of one chord compare equal.
public struct KeyChord: Hashable, Sendable, CustomStringConvertible {
    public var modifiers: Set<Modifier>
    /// The keysym name as xkbcommon spells it (`z`, `F11`, `bracketright`), lowercased for letters.
    public var key: String

    public enum Modifier: String, Hashable, Sendable, CaseIterable, Comparable {
        case ctrl, shift, alt, logo
        /// The order modifiers are written in: `ctrl+shift+z`.
        private var rank: Int {
            switch self {
            case .ctrl: 0
            case .shift: 1
            case .alt: 2
            case .logo: 3
            }
        }

        public static func < (a: Modifier, b: Modifier) -> Bool { a.rank < b.rank }
    }

    public init(key: String, modifiers: Set<Modifier> = []) {
        self.key = key.count == 1 ? key.lowercased() : key
        self.modifiers = modifiers
    }

    /// Parses `ctrl+shift+z`; nil for an empty key or an unknown modifier.
    public init?(parsing text: String) {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        guard let last = parts.last, !last.isEmpty else { return nil }
        var modifiers: Set<Modifier> = []
        for name in parts.dropLast() {
            guard let modifier = Modifier(rawValue: name.lowercased()) else { return nil }
            modifiers.insert(modifier)
        }
        self.init(key: last, modifiers: modifiers)
    }

    public var description: String {
        (modifiers.sorted().map(\.rawValue) + [key]).joined(separator: "+")
    }
}

/// An input event with the time it happened, in milliseconds.
public struct TimedInputEvent: Hashable, Sendable {
    public var time: Double
    public var event: InputEvent

    public init(time: Double, event: InputEvent) {
        self.time = time
        self.event = event
    }
}
