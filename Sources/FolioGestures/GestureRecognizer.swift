import FolioGeometry
import FolioInput

/// What the recogniser makes of the input: strokes, pinches and commands.
public enum Gesture: Hashable, Sendable {
    case strokeBegan(at: Point)
    case strokeMoved(to: Point)
    /// The stroke is finished and kept (lift, cancel, or a pinch that began late enough).
    case strokeEnded
    /// The stroke was the first finger of a pinch: it leaves no ink and no undo entry.
    case strokeWithdrawn
    case pinchBegan
    /// `scale` is the raw ratio of finger distances (or the touchpad's scale), not yet clamped.
    case pinchChanged(scale: Double)
    case pinchEnded(cancelled: Bool)
    /// A finger or the mouse landed by an edge: it turns the page (forward from the right edge,
    /// backward from the left) and never draws.
    case turnBegan(edge: Edge, at: Point)
    case turnMoved(to: Point)
    /// Let go (or the compositor took the touch away: `cancelled`).
    case turnEnded(cancelled: Bool)
    /// A finger or the mouse landed on the toolbar (`controlAreas`): it never draws.
    case controlPressed(at: Point)
    /// It lifted at `at`, or was taken away or into a pinch (`cancelled`).
    case controlReleased(at: Point, cancelled: Bool)
    case command(Command)
}

/// The window edge a page turn starts from.
public enum Edge: Hashable, Sendable {
    case left, right
}

/// Keyboard commands: the app's keys, the fold steps (`]` folds a step, `[` opens the book) and
/// the sketchbook's sheets (turn forward or back, a new sheet, delete the current one).
public enum Command: String, Hashable, Sendable {
    case undo, redo, toggleFullscreen, quit, save, foldStep, unfoldStep
    case nextSheet, previousSheet, newSheet, deleteSheet
    /// Exports the sheet on the easel as a PNG picture.
    case export
}

/// Turns input events into gestures. Touch events take effect at `touch.frame`, so however a
/// compositor groups fingers into frames, the outcome is the same.
public struct GestureRecognizer: Sendable {
    /// A pinch that begins within this long of its first finger's stroke withdraws that stroke.
    public static let withdrawalWindow: Double = 300
    /// A touch or press landing this close (logical px) to the left or right edge turns the page.
    public static let edgeZone: Double = 32

    /// The window's logical width, for the edge zones (none while unknown).
    public var width: Double?
    /// Where a touch or press belongs to the toolbar (logical px). The edge zones come first, so
    /// a page turn still starts at the toolbar's height.
    public var controlAreas: [Rect] = []
    /// Settings: a touch by an edge turns the page; two fingers (or a touchpad pinch) fold.
    public var edgeTurns = true
    public var pinches = true

    private enum State: Hashable, Sendable {
        case idle
        case drawingTouch(id: Int32, began: Double)
        case drawingPointer
        case turningTouch(id: Int32)
        case turningPointer
        case pressingTouch(id: Int32)
        case pressingPointer
        case pinchingTouch(first: Int32, second: Int32, startDistance: Double)
        case pinchingTouchpad
        /// After a pinch: fingers still down do nothing until every one has lifted.
        case waitingForLift
    }

    private var state = State.idle
    private var touches: [Int32: Point] = [:]
    private var pending: [InputEvent] = []
    private var pointer = Point.zero
    private var lastScale = 1.0
    /// The drawing finger's last point sent on, so a frame without motion sends nothing.
    private var lastDrawn: Point?
    /// Where the finger on the toolbar is now.
    private var pressPoint = Point.zero

    public init() {}

    /// Feeds one event; returns the gestures it completes, in order.
    public mutating func handle(_ event: InputEvent, time: Double) -> [Gesture] {
        switch event {
        case .touchDown, .touchMotion, .touchUp:
            pending.append(event)
            return []
        case .touchFrame:
            let frame = pending
            pending.removeAll()
            return applyTouchFrame(frame, time: time)
        case .touchCancel:
            pending.removeAll()
            touches.removeAll()
            return cancelTouches()
        case let .pointerMotion(p):
            pointer = p
            switch state {
            case .drawingPointer: return [.strokeMoved(to: p)]
            case .turningPointer: return [.turnMoved(to: p)]
            case .pressingPointer:
                pressPoint = p
                return []
            default: return []
            }
        case let .pointerButton(button, pressed):
            guard button == .left else { return [] }
            if pressed, state == .idle {
                guard touches.isEmpty else { return [] }
                if let edge = edge(at: pointer) {
                    state = .turningPointer
                    return [.turnBegan(edge: edge, at: pointer)]
                }
                if isControl(pointer) {
                    state = .pressingPointer
                    pressPoint = pointer
                    return [.controlPressed(at: pointer)]
                }
                state = .drawingPointer
                return [.strokeBegan(at: pointer)]
            }
            if !pressed, state == .drawingPointer {
                state = .idle
                return [.strokeEnded]
            }
            if !pressed, state == .turningPointer {
                state = .idle
                return [.turnEnded(cancelled: false)]
            }
            if !pressed, state == .pressingPointer {
                state = .idle
                return [.controlReleased(at: pressPoint, cancelled: false)]
            }
            return []
        case .pinchBegin:
            guard pinches, state == .idle || state == .drawingPointer else { return [] }
            let ended: [Gesture] = state == .drawingPointer ? [.strokeEnded] : []
            state = .pinchingTouchpad
            lastScale = 1
            return ended + [.pinchBegan]
        case let .pinchUpdate(scale, _, _, _):
            guard state == .pinchingTouchpad, scale != lastScale else { return [] }
            lastScale = scale
            return [.pinchChanged(scale: scale)]
        case let .pinchEnd(cancelled):
            guard state == .pinchingTouchpad else { return [] }
            state = .idle
            return [.pinchEnded(cancelled: cancelled)]
        case let .key(chord, pressed):
            guard pressed, let command = Self.command(for: chord) else { return [] }
            return [.command(command)]
        case .resize:
            return []
        }
    }

    /// The command a key chord means, if any.
    public static func command(for chord: KeyChord) -> Command? {
        switch (chord.modifiers, chord.key) {
        case ([.ctrl], "z"): .undo
        case ([.ctrl, .shift], "z"), ([.ctrl], "y"): .redo
        case ([], "F11"): .toggleFullscreen
        case ([.ctrl], "q"): .quit
        case ([.ctrl], "s"): .save
        case ([], "bracketright"): .foldStep
        case ([], "bracketleft"): .unfoldStep
        case ([], "Next"): .nextSheet  // Page Down
        case ([], "Prior"): .previousSheet  // Page Up
        case ([.ctrl], "n"): .newSheet
        // Ctrl guards a whole sheet against a stray Delete (it is undoable all the same).
        case ([.ctrl], "Delete"): .deleteSheet
        case ([.ctrl], "e"): .export
        default: nil
        }
    }

    private mutating func applyTouchFrame(_ frame: [InputEvent], time: Double) -> [Gesture] {
        var gestures: [Gesture] = []
        var pinchMoved = false
        for event in frame {
            switch event {
            case let .touchDown(id, p):
                touches[id] = p
                gestures += touchBegan(id: id, time: time)
            case let .touchMotion(id, p):
                guard touches[id] != nil else { continue }  // unknown id: ignored
                touches[id] = p
                // Every point of the drawing finger counts, however the compositor batched them.
                if case .drawingTouch(id, _) = state, p != lastDrawn {
                    lastDrawn = p
                    gestures.append(.strokeMoved(to: p))
                }
                if case .pinchingTouch = state { pinchMoved = true }
                if case .turningTouch(id) = state { gestures.append(.turnMoved(to: p)) }
                if case .pressingTouch(id) = state { pressPoint = p }
            case let .touchUp(id):
                guard touches[id] != nil else { continue }
                // The pinch's motion earlier in this frame counts before a finger lifts.
                if pinchMoved { gestures += pinchMotion() }
                touches[id] = nil
                gestures += touchEnded(id: id)
            default:
                continue
            }
        }
        if pinchMoved { gestures += pinchMotion() }
        return gestures
    }

    private mutating func touchBegan(id: Int32, time: Double) -> [Gesture] {
        switch state {
        case .idle:
            guard touches.count == 1, let p = touches[id] else { return [] }
            if let edge = edge(at: p) {
                state = .turningTouch(id: id)
                return [.turnBegan(edge: edge, at: p)]
            }
            if isControl(p) {
                state = .pressingTouch(id: id)
                pressPoint = p
                return [.controlPressed(at: p)]
            }
            state = .drawingTouch(id: id, began: time)
            lastDrawn = p
            return [.strokeBegan(at: p)]
        case let .drawingTouch(first, began):
            guard pinches, let a = touches[first], let b = touches[id] else { return [] }
            // The first finger's motion in this frame belongs to the pinch, not the stroke.
            let stroke: Gesture = time - began < Self.withdrawalWindow ? .strokeWithdrawn : .strokeEnded
            state = .pinchingTouch(first: first, second: id, startDistance: max(a.distance(to: b), 1))
            lastScale = 1
            return [stroke, .pinchBegan]
        case let .pressingTouch(first):
            // A finger on the toolbar and a second one: a pinch, and the press counts for nothing.
            guard pinches, let a = touches[first], let b = touches[id] else { return [] }
            state = .pinchingTouch(first: first, second: id, startDistance: max(a.distance(to: b), 1))
            lastScale = 1
            return [.controlReleased(at: pressPoint, cancelled: true), .pinchBegan]
        case .pressingPointer,
             .drawingPointer, .pinchingTouch, .pinchingTouchpad, .waitingForLift, .turningTouch, .turningPointer:
            return []  // a third finger, a second during a turn, or touch during another gesture: ignored
        }
    }

    private mutating func touchEnded(id: Int32) -> [Gesture] {
        switch state {
        case let .drawingTouch(first, _) where first == id:
            state = .idle
            return [.strokeEnded]
        case let .pinchingTouch(first, second, _) where first == id || second == id:
            state = touches.isEmpty ? .idle : .waitingForLift
            return [.pinchEnded(cancelled: false)]
        case let .turningTouch(turning) where turning == id:
            state = touches.isEmpty ? .idle : .waitingForLift
            return [.turnEnded(cancelled: false)]
        case let .pressingTouch(pressing) where pressing == id:
            state = touches.isEmpty ? .idle : .waitingForLift
            return [.controlReleased(at: pressPoint, cancelled: false)]
        case .waitingForLift where touches.isEmpty:
            state = .idle
            return []
        default:
            return []
        }
    }

    /// The pinch's scale after a frame's motion, when it changed.
    private mutating func pinchMotion() -> [Gesture] {
        guard case let .pinchingTouch(first, second, startDistance) = state,
              let a = touches[first], let b = touches[second] else { return [] }
        let scale = a.distance(to: b) / startDistance
        guard scale != lastScale else { return [] }
        lastScale = scale
        return [.pinchChanged(scale: scale)]
    }

    private mutating func cancelTouches() -> [Gesture] {
        let previous = state
        switch previous {
        case .drawingTouch:
            state = .idle
            return [.strokeEnded]
        case .pinchingTouch:
            state = .idle
            return [.pinchEnded(cancelled: true)]
        case .turningTouch:
            state = .idle
            return [.turnEnded(cancelled: true)]
        case .pressingTouch:
            state = .idle
            return [.controlReleased(at: pressPoint, cancelled: true)]
        case .waitingForLift:
            state = .idle
            return []
        case .idle, .drawingPointer, .pinchingTouchpad, .turningPointer, .pressingPointer:
            return []
        }
    }

    private func isControl(_ p: Point) -> Bool {
        controlAreas.contains { $0.contains(p) }
    }

    /// The edge zone `p` lies in, if any.
    private func edge(at p: Point) -> Edge? {
        guard edgeTurns, let width, width > 2 * Self.edgeZone else { return nil }
        if p.x >= width - Self.edgeZone { return .right }
        if p.x <= Self.edgeZone { return .left }
        return nil
    }
}
