/// What Folio is doing, as one value. Gestures arrive at `Session`, and its one transition
/// function decides from the mode alone what each means; a new interaction is a new case here,
/// not new guards spread over the session.
public enum Mode: Hashable, Sendable {
    /// The flat canvas, ready: a finger or the mouse may start a stroke.
    case idle
    /// A finger, the pen or the mouse is drawing.
    case drawing
    /// The eraser (the pen's eraser end, or a finger in eraser mode) removes the strokes it crosses.
    case erasing
    /// The curtain is up and follows its driver at once.
    case folding(FoldDriver)
    /// The book animates open; input does not draw until it has.
    case unfolding
    /// A page turns, following a finger or the mouse.
    case turning(TurnDirection)
    /// A page completes its turn or falls back; input does not draw until it has.
    case settlingTurn
    /// A lasso's loop is drawn (never ink).
    case lassoing
    /// A finger or the pen is on a selection: moving it, on its bar, or ending it.
    case selecting
    /// The shelf of books shows: a finger scrolls it, a tap opens a book.
    case shelf
    /// The open book folds shut onto the shelf; input does nothing until it has.
    case closingBook

    /// What moves the fold: a pinch (fingers or touchpad), or the fold keys' steps.
    public enum FoldDriver: Hashable, Sendable {
        case pinch, keys
    }

    /// Which way a page turns: forward to the next sheet (from the right edge), or backward.
    public enum TurnDirection: Hashable, Sendable {
        case forward, backward
    }

    /// Whether the screen shows pages over the curtain (a fold or a turn) rather than the flat canvas.
    public var showsCurtain: Bool {
        switch self {
        case .idle, .drawing, .erasing, .lassoing, .selecting, .shelf: false
        case .folding, .unfolding, .turning, .settlingTurn, .closingBook: true
        }
    }

    /// Whether the screen shows the page turn's scene.
    public var isTurning: Bool {
        switch self {
        case .turning, .settlingTurn: true
        default: false
        }
    }

    /// The fold's state as `folio replay` reports it: idle, tracking or animating.
    public var foldState: String {
        switch self {
        case .idle, .drawing, .erasing, .turning, .settlingTurn, .lassoing, .selecting, .shelf: "idle"
        case .folding: "tracking"
        case .unfolding, .closingBook: "animating"
        }
    }
}
