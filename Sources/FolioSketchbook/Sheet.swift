/// One sheet of the sketchbook: its strokes, in drawing order, with undo and redo.
public struct Sheet: Hashable, Sendable, Codable {
    public private(set) var strokes: [Stroke]
    /// Strokes taken back by undo, newest last; a new stroke clears it.
    public private(set) var redoStack: [Stroke]

    public init(strokes: [Stroke] = []) {
        self.strokes = strokes
        self.redoStack = []
    }

    public mutating func append(_ stroke: Stroke) {
        strokes.append(stroke)
        redoStack.removeAll()
    }

    /// Takes the newest stroke back; returns it, or nil when there is nothing to undo.
    @discardableResult
    public mutating func undo() -> Stroke? {
        guard let stroke = strokes.popLast() else { return nil }
        redoStack.append(stroke)
        return stroke
    }

    /// Puts back the stroke undo took most recently; nil when there is nothing to redo.
    @discardableResult
    public mutating func redo() -> Stroke? {
        guard let stroke = redoStack.popLast() else { return nil }
        strokes.append(stroke)
        return stroke
    }

    public var canUndo: Bool { !strokes.isEmpty }
    public var canRedo: Bool { !redoStack.isEmpty }
    /// No ink on it (strokes taken back by undo do not count).
    public var isBlank: Bool { strokes.isEmpty }
}
