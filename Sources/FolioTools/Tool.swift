/// What a contact on the canvas does. A new tool is a case here and its handlers in the session.
public enum Tool: Hashable, Sendable {
    /// Draws ink in the chosen colour and width.
    case ink
    /// Removes every whole stroke it crosses (a pass is one undo step).
    case eraser
    /// Draws a selection loop; the strokes mostly inside it are selected (never ink).
    case lasso
}

/// What touched the canvas: a finger or the mouse, or the pen's tip (its eraser end and barrel
/// button choose the eraser on their own, for that contact only).
public enum Contact: Hashable, Sendable {
    case finger, pen
}

extension Tool {
    /// The tool `contact` uses while this one is chosen. The pen keeps drawing while fingers
    /// erase: it has an eraser end of its own.
    public func used(by contact: Contact) -> Tool {
        switch self {
        case .ink: .ink
        case .eraser: contact == .pen ? .ink : .eraser
        case .lasso: .lasso
        }
    }
}
