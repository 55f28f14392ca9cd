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
}

/// The sketchbook: sheets, and the one being drawn on.
public struct Sketchbook: Hashable, Sendable, Codable {
    public var sheets: [Sheet]
    /// Index of the sheet on the easel (0-based; the CLI counts sheets from 1).
    public var currentSheet: Int

    public init(sheets: [Sheet] = [Sheet()], currentSheet: Int = 0) {
        self.sheets = sheets.isEmpty ? [Sheet()] : sheets
        self.currentSheet = min(max(currentSheet, 0), self.sheets.count - 1)
    }

    public var sheet: Sheet {
        get { sheets[currentSheet] }
        set { sheets[currentSheet] = newValue }
    }
}
