import FolioGeometry
import FolioGestures
import FolioRender
import FolioSketchbook
import FolioToolbar
import FolioTools

/// A lasso's selection: which strokes of the current sheet, lifted on the frame, and how far
/// they have moved since they were lifted (their moves are in the book already).
struct Selection {
    var indices: [Int]
    var overlay: SelectionOverlay
    var offset = Point.zero
}

/// What a finger or the pen on a selection does until it lifts.
enum SelectionContact {
    /// Landed in the box: the selection follows it, `offset` from where it landed.
    case moving(start: Point, offset: Point)
    /// Landed on the bar's button `action` (nil: on the bar, on no button); acts on lifting there.
    case pressing(SelectionAction?)
    /// Landed elsewhere: the selection ended; nothing more until it lifts.
    case dismissing
}

extension Session {
    /// The selected strokes of the current sheet (indices, ascending); empty without a selection.
    public var selectedStrokes: [Int] { selection?.indices ?? [] }

    /// Where the selection's box is now (logical px).
    public var selectionBox: Rect? {
        guard let selection else { return nil }
        let box = selection.overlay.box
        return Rect(origin: box.origin + selection.offset + contactOffset, size: box.size)
    }

    /// The bar beside the selection: delete, duplicate and the palette's colours.
    public var selectionBar: SelectionBar? {
        selectionBox.map { SelectionBar(box: $0, width: Double(width), height: Double(height), colors: toolbar.palette.colors.count) }
    }

    /// How far a finger moving the selection has taken it, not yet in the book.
    private var contactOffset: Point {
        if case let .selecting(.moving(_, offset)) = state { return offset }
        return .zero
    }

    // MARK: - The loop

    func beginLoop(at p: Point, time: Double) {
        toolbar.hide()
        state = .lassoing(display.beginLoop(at: p))
        record("lasso.began", at: time)
    }

    /// What a gesture means while a loop is drawn or a contact is on a selection.
    func lassoTransition(_ gesture: Gesture, at time: Double) {
        switch (state, gesture) {
        case let (.lassoing(trail), .strokeMoved(p)):
            display.extend(trail, to: p)
        case let (.lassoing(trail), .penStrokeMoved(sample)):
            display.extend(trail, to: sample.point)
        case let (.lassoing(trail), .strokeEnded):
            endLoop(trail, at: time)
        case let (.lassoing(trail), .strokeWithdrawn), let (.lassoing(trail), .pinchBegan):
            display.clear(trail)
            state = .idle
            record("lasso.withdrawn", at: time)
            if case .pinchBegan = gesture { beginPinch(at: time) }
        case let (.selecting(.moving(start, _)), .strokeMoved(p)):
            drag(from: start, to: p)
        case let (.selecting(.moving(start, _)), .penStrokeMoved(sample)):
            drag(from: start, to: sample.point)
        case let (.selecting(.pressing(action?)), .strokeMoved(p)) where selectionBar?.action(at: p) != action:
            // Slid off its button: lifting does nothing.
            state = .selecting(.pressing(nil))
        case let (.selecting(.pressing(action?)), .penStrokeMoved(sample)) where selectionBar?.action(at: sample.point) != action:
            state = .selecting(.pressing(nil))
        case let (.selecting(contact), .strokeEnded):
            state = .idle
            lift(contact, at: time)
        case (.selecting, .strokeWithdrawn), (.selecting, .pinchBegan):
            // A second finger came soon: the contact was the start of a pinch or a tap.
            state = .idle
            showSelection()
            if case .pinchBegan = gesture { beginPinch(at: time) }
        default:
            break
        }
    }

    /// The loop is closed: the strokes it selects are lifted, and the next contact draws again.
    private func endLoop(_ trail: LassoTrail, at time: Double) {
        display.clear(trail)
        state = .idle
        tools.tool = .ink
        record("lasso.ended", at: time)
        let chosen = Lasso(points: trail.points).selection(of: book.sheet.strokes)
        guard !chosen.isEmpty else { return }
        select(chosen)
        record("selection.made", at: time)
    }

    // MARK: - The selection

    /// Lifts `indices` of the current sheet (the canvas brought up to the book first).
    private func select(_ indices: [Int]) {
        display.show(book.sheet.strokes, paper: book.sheet.paper)
        selection = Selection(indices: indices, overlay: display.lift(indices, of: book.sheet.strokes))
        showSelection()
    }

    private func showSelection() {
        guard let selection else { return }
        display.show(selection.overlay, offset: selection.offset + contactOffset, bar: selectionBar, colors: toolbar.palette.colors)
    }

    /// A finger or the pen landed while strokes are selected.
    func touchSelection(at p: Point, time: Double) {
        toolbar.hide()
        if let bar = selectionBar, bar.rect.contains(p) {
            state = .selecting(.pressing(bar.action(at: p)))
        } else if let box = selectionBox, box.contains(p) {
            state = .selecting(.moving(start: p, offset: .zero))
        } else {
            endSelection(at: time)
            state = .selecting(.dismissing)
        }
    }

    private func drag(from start: Point, to p: Point) {
        guard let selection else { return }
        state = .selecting(.moving(start: start, offset: selection.overlay.snapped(p - start)))
        showSelection()
    }

    /// The contact lifted: a move goes into the book, a button pressed and released acts.
    private func lift(_ contact: SelectionContact, at time: Double) {
        switch contact {
        case let .moving(_, offset):
            guard var moved = selection else { return }
            if offset != .zero, book.move(Set(moved.indices), by: offset) {
                moved.offset = moved.offset + offset
                selection = moved
                record("selection.moved", at: time)
            }
            showSelection()
        case let .pressing(action?):
            perform(action, at: time)
        case .pressing(nil), .dismissing:
            break
        }
    }

    /// What a button on the selection's bar does: each is one undo step.
    private func perform(_ action: SelectionAction, at time: Double) {
        guard let selection else { return }
        let indices = Set(selection.indices)
        record("control.\(action.name)", at: time)
        switch action {
        case .delete:
            endSelection(at: time)
            book.erase(indices)
            redrawAll()
        case .duplicate:
            let copies = book.duplicate(indices, offset: SelectionBar.duplicateOffset)
            reselect(copies.isEmpty ? selection.indices : Array(copies))
        case let .color(index):
            book.recolour(indices, to: toolbar.palette.ink(InkChoice(colorIndex: index, widthIndex: tools.ink.widthIndex)).color)
            reselect(selection.indices)
        }
    }

    /// Lifts `indices` afresh: the canvas shows the book as it is now (the old selection's moves
    /// and colours), then the new selection goes over it.
    private func reselect(_ indices: [Int]) {
        guard let selection else { return }
        display.remove(selection.overlay)
        self.selection = nil
        select(indices)
    }

    /// Ends the selection: the canvas shows the sheet as the book has it, the strokes in their
    /// places and order.
    func endSelection(at time: Double) {
        guard let selection else { return }
        display.remove(selection.overlay)
        self.selection = nil
        redrawAll()
        record("selection.ended", at: time)
    }

    /// Ends a contact on a selection (a move in progress is kept; a button held does nothing),
    /// then the selection: the app quits or the window changes size.
    func finishSelection(at time: Double) {
        if case let .selecting(contact) = state {
            state = .idle
            if case .moving = contact { lift(contact, at: time) }
        }
        if case let .lassoing(trail) = state {
            display.clear(trail)
            state = .idle
        }
        endSelection(at: time)
    }
}
