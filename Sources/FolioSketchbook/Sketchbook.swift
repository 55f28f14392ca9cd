import FolioGeometry

/// The sketchbook: sheets in order, and the one on the easel.
///
/// Undo works on two levels, the book's and each sheet's:
/// - Each sheet keeps its own stroke undo and redo; turning the page leaves them as they are.
/// - Deleting a sheet is the book's one undoable action. `undo()` restores deleted sheets first,
///   newest first, each at its old place with its strokes and redo history; only when none is
///   waiting does it take back the current sheet's newest stroke. A deleted sheet can be
///   restored until the book changes in another way (a stroke drawn or redone, a sheet added):
///   that makes deletions final. Turning pages does not.
/// - Redo only ever redoes strokes of the current sheet.
public struct Sketchbook: Hashable, Sendable, Codable {
    /// Never empty.
    public private(set) var sheets: [Sheet]
    /// Index of the sheet on the easel (0-based; the CLI counts sheets from 1).
    public private(set) var currentSheet: Int
    /// Deleted sheets that `undo()` can still put back, newest last.
    public private(set) var deletedSheets: [DeletedSheet] = []

    /// A deleted sheet and what is needed to put it back exactly.
    public struct DeletedSheet: Hashable, Sendable, Codable {
        public var sheet: Sheet
        /// Where it was in `sheets`.
        public var index: Int
        /// It was the only sheet, so a blank sheet took its place; restoring removes that again.
        public var replacedByBlank: Bool
    }

    /// What `undo()` does next.
    public enum Undo: Hashable, Sendable {
        /// Puts the newest deleted sheet back and makes it current.
        case restoreSheet
        /// Takes back the current sheet's newest stroke.
        case stroke
    }

    public init(sheets: [Sheet] = [Sheet()], currentSheet: Int = 0) {
        self.sheets = sheets.isEmpty ? [Sheet()] : sheets
        self.currentSheet = min(max(currentSheet, 0), self.sheets.count - 1)
    }

    public var sheet: Sheet { sheets[currentSheet] }
    public var isOnLastSheet: Bool { currentSheet == sheets.count - 1 }

    // MARK: - Turning pages

    /// Puts sheet `index` on the easel (clamped to the sheets there are).
    public mutating func goToSheet(_ index: Int) {
        currentSheet = min(max(index, 0), sheets.count - 1)
    }

    /// Goes to the next sheet; false (and nothing changes) on the last one.
    @discardableResult
    public mutating func goToNextSheet() -> Bool {
        guard !isOnLastSheet else { return false }
        currentSheet += 1
        return true
    }

    /// Goes to the previous sheet; false (and nothing changes) on the first one.
    @discardableResult
    public mutating func goToPreviousSheet() -> Bool {
        guard currentSheet > 0 else { return false }
        currentSheet -= 1
        return true
    }

    /// A forward page turn: the next sheet, or from the last sheet a new blank sheet on `paper`,
    /// unless the last sheet is blank already (no endless blank sheets). False when nothing changed.
    @discardableResult
    public mutating func turnForward(paper: Paper = .plain) -> Bool {
        if goToNextSheet() { return true }
        guard !sheet.isBlank else { return false }
        insertBlankSheet(paper: paper)
        return true
    }

    // MARK: - Adding and deleting sheets

    /// Inserts a blank sheet on `paper` right after the current one and makes it current.
    public mutating func insertBlankSheet(paper: Paper = .plain) {
        sheets.insert(Sheet(paper: paper), at: currentSheet + 1)
        currentSheet += 1
        deletedSheets.removeAll()
    }

    /// Deletes the current sheet; `undo()` can put it back. The sheet after it becomes current
    /// (the one before, if it was the last); deleting the only sheet leaves one blank sheet on `paper`.
    public mutating func deleteCurrentSheet(paper: Paper = .plain) {
        let deleted = DeletedSheet(sheet: sheet, index: currentSheet, replacedByBlank: sheets.count == 1)
        deletedSheets.append(deleted)
        if deleted.replacedByBlank {
            sheets = [Sheet(paper: paper)]
        } else {
            sheets.remove(at: currentSheet)
            currentSheet = min(currentSheet, sheets.count - 1)
        }
    }

    // MARK: - Strokes, undo and redo

    /// Adds a stroke to the current sheet; deletions become final.
    public mutating func append(_ stroke: Stroke) {
        sheets[currentSheet].append(stroke)
        deletedSheets.removeAll()
    }

    /// Removes the current sheet's strokes at `indices` as one undoable edit (one eraser pass);
    /// deletions become final. Returns whether any stroke went.
    @discardableResult
    public mutating func erase(_ indices: Set<Int>) -> Bool {
        guard sheets[currentSheet].erase(indices) else { return false }
        deletedSheets.removeAll()
        return true
    }

    /// Replaces the current sheet's newest stroke with `shape` as one undoable edit (undo brings
    /// back the stroke as drawn); deletions become final. Returns whether there was a stroke.
    @discardableResult
    public mutating func reshapeNewest(to shape: Stroke) -> Bool {
        guard sheets[currentSheet].reshapeNewest(to: shape) else { return false }
        deletedSheets.removeAll()
        return true
    }

    /// Moves the current sheet's strokes at `indices` by `offset` (logical px) as one undoable
    /// edit; deletions become final. Returns whether any stroke moved.
    @discardableResult
    public mutating func move(_ indices: Set<Int>, by offset: Point) -> Bool {
        guard sheets[currentSheet].move(indices, by: offset) else { return false }
        deletedSheets.removeAll()
        return true
    }

    /// Recolours the current sheet's strokes at `indices` as one undoable edit; deletions become
    /// final. Returns whether any stroke changed.
    @discardableResult
    public mutating func recolour(_ indices: Set<Int>, to color: UInt32) -> Bool {
        guard sheets[currentSheet].recolour(indices, to: color & 0xFF_FFFF) else { return false }
        deletedSheets.removeAll()
        return true
    }

    /// Appends copies of the current sheet's strokes at `indices`, moved by `offset`, as one
    /// undoable edit; deletions become final. Returns the copies' indices.
    @discardableResult
    public mutating func duplicate(_ indices: Set<Int>, offset: Point) -> Range<Int> {
        let copies = sheets[currentSheet].duplicate(indices, offset: offset)
        if !copies.isEmpty { deletedSheets.removeAll() }
        return copies
    }

    /// Gives the current sheet `paper` as one undoable edit; deletions become final. Returns
    /// whether the paper changed.
    @discardableResult
    public mutating func setPaper(_ paper: Paper) -> Bool {
        guard sheets[currentSheet].setPaper(paper) else { return false }
        deletedSheets.removeAll()
        return true
    }

    /// What `undo()` would do now; nil when there is nothing to undo.
    public var nextUndo: Undo? {
        if !deletedSheets.isEmpty { return .restoreSheet }
        return sheet.canUndo ? .stroke : nil
    }

    /// Undoes the book's newest action (a deletion) first, otherwise the current sheet's newest
    /// edit (a stroke, or an eraser pass); returns what it did, or nil when there was nothing to undo.
    @discardableResult
    public mutating func undo() -> Undo? {
        guard let deleted = deletedSheets.popLast() else {
            return sheets[currentSheet].undo() == nil ? nil : .stroke
        }
        // Only page turns (and later deletions, undone first) happen between a deletion and its
        // undo, so the book is as the deletion left it: the blank stand-in, or a gap at `index`.
        if deleted.replacedByBlank {
            sheets = [deleted.sheet]
        } else {
            sheets.insert(deleted.sheet, at: deleted.index)
        }
        currentSheet = deleted.index
        return .restoreSheet
    }

    public var canRedo: Bool { sheet.canRedo }

    /// Redoes the current sheet's stroke undo took most recently; deletions become final.
    /// Returns whether there was one.
    @discardableResult
    public mutating func redo() -> Bool {
        guard sheets[currentSheet].redo() != nil else { return false }
        deletedSheets.removeAll()
        return true
    }
}
