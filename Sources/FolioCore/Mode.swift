/// What Folio is doing, as one value. Gestures arrive at `Session`, and its one transition
/// function decides from the mode alone what each means; a new interaction is a new case here,
/// not new guards spread over the session.
public enum Mode: Hashable, Sendable {
    /// The flat canvas, ready: a finger or the mouse may start a stroke.
    case idle
    /// A finger or the mouse is drawing.
    case drawing
    /// The curtain is up and follows its driver at once.
    case folding(FoldDriver)
    /// The book animates open; input does not draw until it has.
    case unfolding

    /// What moves the fold: a pinch (fingers or touchpad), or the fold keys' steps.
    public enum FoldDriver: Hashable, Sendable {
        case pinch, keys
    }

    /// Whether the screen shows the pages over the curtain rather than the flat canvas.
    public var showsCurtain: Bool {
        switch self {
        case .idle, .drawing: false
        case .folding, .unfolding: true
        }
    }

    /// The fold's state as `folio replay` reports it: idle, tracking or animating.
    public var foldState: String {
        switch self {
        case .idle, .drawing: "idle"
        case .folding: "tracking"
        case .unfolding: "animating"
        }
    }
}
