import FolioGeometry
import FolioInput

/// What the recogniser makes of the input: strokes, pinches and commands.
public enum Gesture: Hashable, Sendable {
    /// A finger or the mouse touched the canvas: a stroke with the tool in use (the session's
    /// `ToolState` says whether it draws or erases).
    case strokeBegan(at: Point)
    case strokeMoved(to: Point)
    /// A pen touched down (not its eraser end): a stroke whose samples carry the pen's pressure.
    case penStrokeBegan(PenSample)
    case penStrokeMoved(PenSample)
    /// The pen's eraser end (or the pen with a barrel button held) touched down:
    /// its `strokeMoved` points remove the strokes they cross, `strokeEnded` makes that one
    /// undoable edit and `strokeWithdrawn` puts them back (a pinch took the finger).
    case eraseBegan(at: Point)
    /// The stroke is finished and kept (lift, cancel, or a pinch that began late enough).
    case strokeEnded
    /// The stroke was the first finger of a pinch: it leaves no ink and no undo entry.
    case strokeWithdrawn
    case pinchBegan
    /// `scale` is the raw ratio of finger distances (or the touchpad's scale), not yet clamped.
    case pinchChanged(scale: Double)
    case pinchEnded(cancelled: Bool)
    /// The pinch was the start of a two- or three-finger tap: it never moved the pages, and they
    /// close at once, unanimated. A `tap` follows when the last finger lifts.
    case pinchWithdrawn
    /// Two or three fingers tapped together (`TapTracker` says what counts as a tap).
    case tap(fingers: Int)
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
    /// Characters typed (a key's text, or an on-screen keyboard's): only a name being edited takes them.
    case text(String)
    /// What an input method composes, shown in a name being edited until it commits (empty: nothing).
    case composing(String)
    /// A pen's barrel button went down or up (while one is held the pen erases, if set so).
    case penBarrel(pressed: Bool)
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
    /// Escape: the open book closes onto the shelf (or a name being typed is left as it was).
    case closeBook
    /// BackSpace and Return, while a name is typed: the last character goes, the name is kept.
    case deleteBackward, confirm
}

/// Where a pen is and how it presses: `pressure` 0–1 when the tablet reports it.
public struct PenSample: Hashable, Sendable {
    public var point: Point
    public var pressure: Double?
    public var tilt: PenTilt?

    public init(point: Point, pressure: Double? = nil, tilt: PenTilt? = nil) {
        self.point = point
        self.pressure = pressure
        self.tilt = tilt
    }
}

/// Turns input events into gestures. Touch events take effect at `touch.frame`, so however a
/// compositor groups fingers into frames, the outcome is the same.
public struct GestureRecognizer: Sendable {
    /// A pinch that begins within this long of its first finger's stroke withdraws that stroke.
    public static let withdrawalWindow: Double = 300
    /// A touch or press landing this close (logical px) to the left or right edge turns the page.
    public static let edgeZone: Double = 32

    /// After a pen leaves proximity, touches still do not draw for this long (ms).
    public static let palmWindow: Double = 500
    /// A touch whose contact's major axis is longer than this (logical px, `wl_touch.shape`) is
    /// a palm, not a fingertip (a fingertip is 7–15 mm across; 60 px is 16 mm at 96 dpi).
    public static let palmContact: Double = 60

    /// The window's logical width, for the edge zones (none while unknown).
    public var width: Double?
    /// Where a touch or press belongs to the toolbar (logical px). The edge zones come first, so
    /// a page turn still starts at the toolbar's height.
    public var controlAreas: [Rect] = []
    /// Settings: a touch by an edge turns the page; two fingers (or a touchpad pinch) fold.
    public var edgeTurns = true
    public var pinches = true
    /// Fingers never draw (nor erase); they still pinch and turn pages.
    public var penOnly = false
    /// Setting: two- and three-finger taps (their pinch withdrawn when they lift).
    public var taps = true
    /// Setting: while a barrel button is held the pen erases, as its eraser end does.
    public var barrelButtonErases = true
    /// The evdev codes of a stylus's barrel buttons: BTN_STYLUS and BTN_STYLUS2.
    public static let barrelButtons: Set<Int> = [0x14b, 0x14c]

    private enum State: Hashable, Sendable {
        case idle
        case drawingTouch(id: Int32, began: Double)
        /// One finger down that may not draw (a palm, or fingers are off): it can still pinch.
        case holdingTouch(id: Int32)
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
    /// Touches that landed as a palm (or while fingers may not draw): they never draw.
    private var palms: Set<Int32> = []
    private var pendingTablet: [InputEvent] = []
    private var pen = PenState()
    private var tap = TapTracker()

    /// The tablet tool as the frames so far have left it.
    private struct PenState: Hashable, Sendable {
        var tool: TabletTool?
        var inProximity = false
        /// When the pen last left proximity (ms), for the palm window.
        var leftAt = -Double.infinity
        var sample = PenSample(point: .zero)
        var isDown = false
        /// Barrel buttons held now (evdev codes).
        var barrel: Set<Int> = []
        var activity = Activity.none
        var lastSent: PenSample?

        enum Activity: Hashable, Sendable {
            case none, drawing, erasing
            /// Down on the toolbar: it presses the control there, as a finger would.
            case pressing
            /// Down, but another gesture had the canvas: nothing until it lifts.
            case ignored
        }
    }

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
            tap.spoil()
            pending.removeAll()
            touches.removeAll()
            palms.removeAll()
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
        case let .text(text):
            return [.text(text)]
        case let .composing(text):
            return [.composing(text)]
        case .resize:
            return []
        case .touchShape:
            pending.append(event)
            return []
        case .tabletProximityIn, .tabletProximityOut, .tabletDown, .tabletUp, .tabletMotion, .tabletButton:
            pendingTablet.append(event)
            return []
        case .tabletFrame:
            let frame = pendingTablet
            pendingTablet.removeAll()
            return applyTabletFrame(frame, time: time)
        }
    }

    /// Whether touches may draw at `time`: not in pen-only mode, not while a pen is near the
    /// screen, and not within `palmWindow` after it left.
    public func fingersMayDraw(at time: Double) -> Bool {
        !penOnly && !pen.inProximity && time - pen.leftAt >= Self.palmWindow
    }

    private mutating func applyTabletFrame(_ frame: [InputEvent], time: Double) -> [Gesture] {
        var gestures: [Gesture] = []
        var moved = false
        for event in frame {
            switch event {
            case let .tabletProximityIn(tool):
                pen.tool = tool
                pen.inProximity = true
                pen.sample.pressure = nil
                pen.sample.tilt = nil
                // A palm that landed just before the pen came near: its stroke goes (a young
                // one leaves no ink), and that finger draws no more.
                if case let .drawingTouch(id, began) = state {
                    gestures.append(time - began < Self.withdrawalWindow ? .strokeWithdrawn : .strokeEnded)
                    palms.insert(id)
                    state = .holdingTouch(id: id)
                }
            case .tabletProximityOut:
                gestures += penLifted(cancelled: true)
                // A tool out of reach holds no button, whether or not its release was sent.
                gestures += releaseBarrel()
                pen.inProximity = false
                pen.leftAt = time
            case let .tabletMotion(p, pressure, tilt):
                pen.sample.point = p
                // 0–1; anything else is taken at the nearer end (a NaN as the lightest touch).
                if let pressure { pen.sample.pressure = pressure.isNaN ? 0 : min(max(pressure, 0), 1) }
                if let tilt { pen.sample.tilt = tilt }
                moved = true
            case .tabletDown:
                pen.isDown = true
            case .tabletUp:
                gestures += penLifted()
            case let .tabletButton(button, pressed) where Self.barrelButtons.contains(button):
                guard pressed ? pen.barrel.insert(button).inserted : pen.barrel.remove(button) != nil else { continue }
                gestures.append(.penBarrel(pressed: pressed))
            default:
                continue
            }
        }
        if pen.isDown, pen.activity == .none {
            gestures += penLanded()
        } else if moved, pen.sample != pen.lastSent {
            pen.lastSent = pen.sample
            switch pen.activity {
            case .drawing: gestures.append(.penStrokeMoved(pen.sample))
            case .erasing: gestures.append(.strokeMoved(to: pen.sample.point))
            case .none, .pressing, .ignored: break
            }
        }
        return gestures
    }

    /// The pen touched down: on the toolbar it presses the control there; elsewhere it draws or
    /// erases, unless fingers are pinching, turning or drawing.
    private mutating func penLanded() -> [Gesture] {
        switch state {
        case .idle, .holdingTouch, .waitingForLift:
            pen.lastSent = pen.sample
            if isControl(pen.sample.point) {
                pen.activity = .pressing
                return [.controlPressed(at: pen.sample.point)]
            }
            if penErases {
                pen.activity = .erasing
                return [.eraseBegan(at: pen.sample.point)]
            }
            pen.activity = .drawing
            return [.penStrokeBegan(pen.sample)]
        default:
            pen.activity = .ignored
            return []
        }
    }

    /// The pen left the screen; `cancelled` when it left proximity without lifting first.
    private mutating func penLifted(cancelled: Bool = false) -> [Gesture] {
        defer {
            pen.isDown = false
            pen.activity = .none
        }
        switch pen.activity {
        case .drawing, .erasing: return [.strokeEnded]
        // A tap is where the pen lifts: off the control it pressed, it is no tap.
        case .pressing: return [.controlReleased(at: pen.sample.point, cancelled: cancelled)]
        case .none, .ignored: return []
        }
    }

    /// Whether the pen's next contact erases: its eraser end, or a barrel button held as it
    /// lands (a button pressed or let go mid-stroke waits for the next contact, so the stroke
    /// under the pen is neither cut nor erased by the pass that would follow it).
    private var penErases: Bool { pen.tool?.erases == true || barrelButtonErases && !pen.barrel.isEmpty }

    /// Every barrel button held is let go.
    private mutating func releaseBarrel() -> [Gesture] {
        defer { pen.barrel.removeAll() }
        return pen.barrel.map { _ in .penBarrel(pressed: false) }
    }

    /// Whether the pen is drawing or erasing (fingers then only rest or pinch).
    private var penBusy: Bool { pen.activity == .drawing || pen.activity == .erasing }

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
        case ([], "Escape"): .closeBook
        case ([], "BackSpace"): .deleteBackward
        case ([], "Return"), ([], "KP_Enter"): .confirm
        default: nil
        }
    }

    private mutating func applyTouchFrame(_ frame: [InputEvent], time: Double) -> [Gesture] {
        var gestures: [Gesture] = []
        var pinchMoved = false
        // A contact as large as a palm never draws; one that grows into a palm while drawing
        // takes its stroke back.
        for case let .touchShape(id, major, _) in frame where major > Self.palmContact {
            palms.insert(id)
            tap.spoil()
            if case .drawingTouch(id, _) = state {
                state = .holdingTouch(id: id)
                gestures.append(.strokeWithdrawn)
            }
        }
        for event in frame {
            switch event {
            case let .touchDown(id, p):
                tap.landed(id, at: p, time: time, newGroup: touches.isEmpty)
                touches[id] = p
                gestures += touchBegan(id: id, time: time)
            case let .touchMotion(id, p):
                guard touches[id] != nil else { continue }  // unknown id: ignored
                touches[id] = p
                tap.moved(id, to: p)
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
                palms.remove(id)
                gestures += touchEnded(id: id, time: time)
                if let fingers = tap.lifted(at: time, remaining: touches.count) { gestures.append(.tap(fingers: fingers)) }
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
            if penBusy {
                state = .holdingTouch(id: id)
                return []
            }
            if let edge = edge(at: p) {
                state = .turningTouch(id: id)
                return [.turnBegan(edge: edge, at: p)]
            }
            if isControl(p) {
                state = .pressingTouch(id: id)
                pressPoint = p
                return [.controlPressed(at: p)]
            }
            if palms.contains(id) || !fingersMayDraw(at: time) {
                state = .holdingTouch(id: id)
                return []
            }
            state = .drawingTouch(id: id, began: time)
            lastDrawn = p
            return [.strokeBegan(at: p)]
        case let .holdingTouch(first):
            guard pinches, let a = touches[first], let b = touches[id] else { return [] }
            // Two fingers pinch whatever else is going on; a pen stroke under way ends first.
            var ended: [Gesture] = []
            if penBusy {
                ended = [.strokeEnded]
                pen.activity = .ignored
            }
            state = .pinchingTouch(first: first, second: id, startDistance: max(a.distance(to: b), 1))
            lastScale = 1
            return ended + [.pinchBegan]
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

    private mutating func touchEnded(id: Int32, time: Double) -> [Gesture] {
        switch state {
        case let .drawingTouch(first, _) where first == id:
            state = .idle
            return [.strokeEnded]
        case let .pinchingTouch(first, second, _) where first == id || second == id:
            state = touches.isEmpty ? .idle : .waitingForLift
            // A pinch is withdrawn as a tap's only as its first finger lifts, so a pinch that
            // moves, or is held, folds exactly as it would with taps off.
            return [taps && tap.takePinch(at: time) ? .pinchWithdrawn : .pinchEnded(cancelled: false)]
        case let .turningTouch(turning) where turning == id:
            state = touches.isEmpty ? .idle : .waitingForLift
            return [.turnEnded(cancelled: false)]
        case let .pressingTouch(pressing) where pressing == id:
            state = touches.isEmpty ? .idle : .waitingForLift
            return [.controlReleased(at: pressPoint, cancelled: false)]
        case let .holdingTouch(held) where held == id:
            state = touches.isEmpty ? .idle : .waitingForLift
            return []
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
        case .waitingForLift, .holdingTouch:
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
