import FolioGeometry

/// One sheet of the sketchbook: its paper and its strokes, in drawing order, with undo and redo.
public struct Sheet: Hashable, Sendable, Codable {
    public private(set) var strokes: [Stroke]
    /// What lies under the ink (`Paper.forSheet`: plain paper is always `Paper.plain`).
    public private(set) var paper: Paper
    /// What undo takes back, oldest first: every stroke drawn, every eraser pass, every lasso edit.
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
        /// A lasso moved these strokes in place (order kept): each first point from `from` to `to`.
        case moved([MovedStroke])
        /// A lasso gave these strokes another colour.
        case recoloured([RecolouredStroke])
        /// A lasso duplicated strokes: the copies were appended, the sheet's newest while this stands.
        case duplicated([Stroke])
        /// The sheet was given another paper.
        case papered(from: Paper, to: Paper)
    }

    public struct MovedStroke: Hashable, Sendable, Codable {
        public var index: Int
        public var from: Point
        public var to: Point
    }

    public struct RecolouredStroke: Hashable, Sendable, Codable {
        public var index: Int
        public var from: UInt32
        public var to: UInt32
    }

    public struct ErasedStroke: Hashable, Sendable, Codable {
        public var index: Int
        public var stroke: Stroke
    }

    public init(strokes: [Stroke] = [], paper: Paper = .plain) {
        self.strokes = strokes
        self.paper = paper.forSheet
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

    /// Moves the strokes at `indices` by `offset` as one undoable edit; false when none is valid,
    /// the offset is zero, or a point would leave the range a book keeps (`SurfaceLimits`).
    @discardableResult
    public mutating func move(_ indices: Set<Int>, by offset: Point) -> Bool {
        let valid = indices.filter(strokes.indices.contains).sorted()
        guard !valid.isEmpty, offset != .zero, offset.x.isFinite, offset.y.isFinite,
              valid.allSatisfy({ strokes[$0].staysWithinReach(movedBy: offset) }) else { return false }
        apply(.moved(valid.map { MovedStroke(index: $0, from: strokes[$0].points[0], to: strokes[$0].points[0] + offset) }))
        redoStack.removeAll()
        return true
    }

    /// Gives the strokes at `indices` the colour `color` (0xRRGGBB) as one undoable edit; false
    /// when none is valid or none changes.
    @discardableResult
    public mutating func recolour(_ indices: Set<Int>, to color: UInt32) -> Bool {
        let changed = indices.filter { strokes.indices.contains($0) && strokes[$0].style.color != color }.sorted()
        guard !changed.isEmpty else { return false }
        apply(.recoloured(changed.map { RecolouredStroke(index: $0, from: strokes[$0].style.color, to: color) }))
        redoStack.removeAll()
        return true
    }

    /// Appends copies of the strokes at `indices`, moved by `offset`, as one undoable edit;
    /// returns the copies' indices (empty when none is valid or a copy would leave the range).
    @discardableResult
    public mutating func duplicate(_ indices: Set<Int>, offset: Point) -> Range<Int> {
        let valid = indices.filter(strokes.indices.contains).sorted()
        guard !valid.isEmpty, valid.allSatisfy({ strokes[$0].staysWithinReach(movedBy: offset) }) else {
            return strokes.endIndex..<strokes.endIndex
        }
        let start = strokes.count
        apply(.duplicated(valid.map { strokes[$0].moved(by: offset) }))
        redoStack.removeAll()
        return start..<strokes.count
    }

    /// Gives the sheet `paper` as one undoable edit; false when it has that paper already.
    @discardableResult
    public mutating func setPaper(_ paper: Paper) -> Bool {
        let new = paper.forSheet
        guard new != self.paper else { return false }
        apply(.papered(from: self.paper, to: new))
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
        case let .moved(moves):
            // Moved back the way a move goes, so the book's record of it reads back the same.
            for move in moves { strokes[move.index] = strokes[move.index].moved(firstPointTo: move.from) }
        case let .recoloured(changes):
            for change in changes { strokes[change.index].style.color = change.from }
        case let .duplicated(copies):
            strokes.removeLast(copies.count)
        case let .papered(from, _):
            paper = from
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
        case let .moved(moves):
            for move in moves { strokes[move.index] = strokes[move.index].moved(firstPointTo: move.to) }
        case let .recoloured(changes):
            for change in changes { strokes[change.index].style.color = change.to }
        case let .duplicated(copies):
            strokes.append(contentsOf: copies)
        case let .papered(_, to):
            paper = to
        }
        history.append(edit)
    }

    public var canUndo: Bool { !history.isEmpty }
    public var canRedo: Bool { !redoStack.isEmpty }
    /// No ink on it (strokes taken back by undo do not count; paper is not ink).
    public var isBlank: Bool { strokes.isEmpty }
}
