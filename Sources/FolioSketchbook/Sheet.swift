/// One sheet of the sketchbook: its strokes, in drawing order, with undo and redo.
public struct Sheet: Hashable, Sendable, Codable {
    public private(set) var strokes: [Stroke]
    /// What undo takes back, oldest first: every stroke drawn, and every eraser pass.
    private var history: [Edit]
    /// Edits taken back by undo, newest last; a new edit clears it.
    public private(set) var redoStack: [Edit]

    /// One undoable change to a sheet.
    public enum Edit: Hashable, Sendable, Codable {
        /// A stroke was drawn; it is the sheet's newest stroke while this edit stands.
        case drew(Stroke)
        /// One eraser pass took these strokes away, each from its index (ascending) at the time.
        case erased([ErasedStroke])
        /// The newest stroke, drawn `freehand`, was snapped to `shape` (hold to shape).
        case reshaped(freehand: Stroke, shape: Stroke)
    }

    public struct ErasedStroke: Hashable, Sendable, Codable {
        public var index: Int
        public var stroke: Stroke
    }

    public init(strokes: [Stroke] = []) {
        self.strokes = strokes
        self.history = strokes.map(Edit.drew)
        self.redoStack = []
    }

    public mutating func append(_ stroke: Stroke) {
        apply(.drew(stroke))
        redoStack.removeAll()
    }

    /// Removes the strokes at `indices` as one undoable edit; returns false when none is valid.
    @discardableResult
    public mutating func erase(_ indices: Set<Int>) -> Bool {
        let valid = indices.filter(strokes.indices.contains).sorted()
        guard !valid.isEmpty else { return false }
        apply(.erased(valid.map { ErasedStroke(index: $0, stroke: strokes[$0]) }))
        redoStack.removeAll()
        return true
    }

    /// Replaces the newest stroke with `shape` as one undoable edit, so undo brings the stroke
    /// back as drawn; returns false when the sheet has no stroke.
    @discardableResult
    public mutating func reshapeNewest(to shape: Stroke) -> Bool {
        guard let freehand = strokes.last else { return false }
        apply(.reshaped(freehand: freehand, shape: shape))
        redoStack.removeAll()
        return true
    }

    /// Takes the newest edit back; returns it, or nil when there is nothing to undo.
    @discardableResult
    public mutating func undo() -> Edit? {
        guard let edit = history.popLast() else { return nil }
        switch edit {
        case .drew:
            strokes.removeLast()
        case let .erased(removed):
            for item in removed { strokes.insert(item.stroke, at: item.index) }
        case let .reshaped(freehand, _):
            strokes[strokes.count - 1] = freehand
        }
        redoStack.append(edit)
        return edit
    }

    /// Does again the edit undo took back most recently; nil when there is nothing to redo.
    @discardableResult
    public mutating func redo() -> Edit? {
        guard let edit = redoStack.popLast() else { return nil }
        apply(edit)
        return edit
    }

    private mutating func apply(_ edit: Edit) {
        switch edit {
        case let .drew(stroke):
            strokes.append(stroke)
        case let .erased(removed):
            for item in removed.reversed() { strokes.remove(at: item.index) }
        case let .reshaped(_, shape):
            strokes[strokes.count - 1] = shape
        }
        history.append(edit)
    }

    public var canUndo: Bool { !history.isEmpty }
    public var canRedo: Bool { !redoStack.isEmpty }
    /// No ink on it (strokes taken back by undo do not count).
    public var isBlank: Bool { strokes.isEmpty }
}
