import FolioGeometry
import FolioGestures
import FolioInput
import FolioLayers
import FolioPixels
import FolioRender
import FolioSketchbook

/// Folio without a screen: input in, frames out. The live Wayland app and `folio replay`
/// both drive this one class, so a replayed trace ends exactly where the live app would.
public final class Session {
    public private(set) var book: Sketchbook {
        didSet { revision += 1 }
    }
    /// Counts changes to `book`, so a saver knows when there is something new to write.
    public private(set) var revision = 0
    public private(set) var timeline: [TimelineEvent] = []
    /// How many of the newest timeline events are kept at least (at most twice as many are held):
    /// a replay keeps them all for its summary, the live app only enough for a look back.
    public var timelineCapacity = Int.max
    public let fold: FoldController
    public let turn: TurnController
    /// Logical size in surface pixels.
    public private(set) var width: Int
    public private(set) var height: Int
    /// Buffer pixels per logical pixel.
    public private(set) var scale: Int
    /// Called when the session needs the window to do something (fullscreen, quit, save).
    public var onRequest: ((SessionRequest) -> Void)?

    /// What the session is doing, with the data only that doing has (the stroke being drawn).
    private enum State {
        case idle
        case drawing(LiveStroke)
        case folding(Mode.FoldDriver)
        case unfolding
        case turning(TurnTrack)
        case settlingTurn
    }

    /// A turn following a finger: which way, and where the finger landed.
    private struct TurnTrack {
        var direction: Mode.TurnDirection
        var start: Point
    }

    private var state = State.idle {
        didSet {
            // The curtain going up or down changes every pixel.
            if Self.mode(of: oldValue).showsCurtain != mode.showsCurtain { damageWholeFrame() }
        }
    }
    private var recognizer = GestureRecognizer()
    private var canvas: CanvasRenderer
    /// The picture of the sheet a turn goes to or comes from (made on the first turn, kept).
    private var otherSheetStorage: CanvasRenderer?
    /// Made on the first fold or turn and kept (they are large): the renderer and the frame it draws.
    private var sceneRendererStorage: PageRenderer?
    private var sceneFrameStorage: Bitmap?
    private var damage = Region.empty
    private var now = 0.0
    /// Whether a clamped point was reported since the last stroke ended.
    private var reportedClamp = false

    /// A session for a window of `width`×`height` logical pixels at `scale` (fitted to
    /// `SurfaceLimits`: callers report what they asked for beyond them).
    public init(book: Sketchbook = Sketchbook(), width: Int, height: Int, scale: Int = 1) {
        let size = SurfaceLimits.fit(width: width, height: height, scale: scale)
        self.book = book
        self.width = size.width
        self.height = size.height
        self.scale = size.scale
        canvas = CanvasRenderer(width: size.width, height: size.height, scale: Double(size.scale))
        fold = FoldController(width: Double(size.width), height: Double(size.height))
        turn = TurnController(width: Double(size.width), height: Double(size.height))
        recognizer.width = Double(size.width)
        damage = Region(canvas.rebuild(strokes: book.sheet.strokes))
    }

    /// How fold frames are dressed (backdrop, shadows, render threads).
    public var foldOptions = PageRenderOptions()

    /// What the session is doing now.
    public var mode: Mode { Self.mode(of: state) }

    private static func mode(of state: State) -> Mode {
        switch state {
        case .idle: .idle
        case .drawing: .drawing
        case let .folding(driver): .folding(driver)
        case .unfolding: .unfolding
        case let .turning(track): .turning(track.direction)
        case .settlingTurn: .settlingTurn
        }
    }

    /// The fold scale on screen: 1 when open, the tracked scale while folding, and during the
    /// unfold the scale part of the animated page transform.
    public var foldScale: Double {
        switch state {
        case .idle, .drawing, .turning, .settlingTurn: 1
        case .folding: fold.trackedScale
        case .unfolding: fold.animatedScale
        }
    }

    /// The frame the screen shows, as of the last `renderFrame()`.
    public var frame: Bitmap { mode.showsCurtain ? sceneFrame() : canvas.frame }
    public var pixelWidth: Int { canvas.frame.width }
    public var pixelHeight: Int { canvas.frame.height }

    /// Whether a new frame would differ from the last one rendered.
    public var needsFrame: Bool { !damage.isEmpty }

    /// Brings `frame` up to date and returns the buffer pixels that changed since the last call.
    /// Stroke work happens as input arrives; fold frames are drawn here, once per frame, from
    /// the newest state, so pinch updates never queue behind each other.
    public func renderFrame() -> Region {
        defer { damage = Region.empty }
        if mode.isTurning, !damage.isEmpty {
            sceneRenderer().render(turn.scene.root, into: sceneFrame(), options: foldOptions)
        } else if mode.showsCurtain, !damage.isEmpty {
            sceneRenderer().render(fold.scene.root, at: fold.transaction.now, into: sceneFrame(), options: foldOptions)
        }
        return damage
    }

    /// Whether the animation clock must keep ticking (frames wanted even without input).
    public var isAnimating: Bool { mode == .unfolding || mode == .settlingTurn || fold.isAnimating }

    /// Whether a finger (or the mouse) is drawing right now.
    public var isDrawing: Bool { mode == .drawing }

    /// Feeds one input event that happened at `time` (ms).
    public func handle(_ event: InputEvent, at time: Double) {
        now = max(now, time)
        fold.advance(to: now)
        turn.advance(to: now)
        if case let .resize(width, height, scale) = event {
            resize(width: width, height: height, scale: scale ?? self.scale)
            return
        }
        guard let event = withinReach(event) else { return }
        for gesture in recognizer.handle(event, time: time) {
            transition(gesture, at: time)
        }
    }

    /// The one gate for positions from outside: points are clamped to
    /// `SurfaceLimits.farthestCoordinate` (a compositor's wl_fixed reaches ±8388608, and a NaN or
    /// infinity would spread through strokes, pinches and page turns), reported once per stroke,
    /// so a saved book always reads back; a pinch scale that is not a number is dropped.
    private func withinReach(_ event: InputEvent) -> InputEvent? {
        func clamp(_ p: Point) -> Point {
            let q = SurfaceLimits.clamp(p)
            if q != p, !reportedClamp {
                reportedClamp = true
                onRequest?(.warn("a point at \(p) is beyond ±\(Int(SurfaceLimits.farthestCoordinate)) logical pixels; "
                                 + "Folio takes it at that edge"))
            }
            return q
        }
        switch event {
        case let .touchDown(id, p): return .touchDown(id: id, at: clamp(p))
        case let .touchMotion(id, p): return .touchMotion(id: id, to: clamp(p))
        case let .pointerMotion(p): return .pointerMotion(to: clamp(p))
        case let .pinchUpdate(scale, _, _, _) where scale.isNaN: return nil
        default: return event
        }
    }

    /// Moves the animation clock to `time` (ms): called once per frame by whoever paces frames.
    public func advance(to time: Double) {
        now = max(now, time)
        fold.advance(to: now)
        turn.advance(to: now)
        if isAnimating { damageWholeFrame() }
    }

    /// Builds the fold renderer, its frame and its backdrop texture ahead of the first pinch (one
    /// untimed frame does it): they are large, and making them when the fingers land would delay
    /// the first fold frame. The pinch then pays only for taking the pages from the canvas.
    public func prepareToFold() {
        guard !mode.showsCurtain else { return }
        let renderer = sceneRenderer()
        fold.scene.setContents(canvas.baked)
        renderer.prepare(fold.scene.root)
        renderer.render(fold.scene.root, at: fold.transaction.now, into: sceneFrame(), options: foldOptions)
    }

    /// Ends whatever is being drawn and keeps it: the compositor went away, or the app quits.
    public func finishActiveStroke() {
        if case .drawing = state { endStroke(at: now) }
    }

    // MARK: - The one transition function

    /// What a gesture means in the current mode. Whatever is not listed means nothing there: input
    /// while the book opens does not draw, a pinch does not take over the fold keys' steps.
    private func transition(_ gesture: Gesture, at time: Double) {
        // Here, not in the switch: its subject holds a copy of `state`, and with it the live
        // stroke's points, so adding a point there copied the whole stroke.
        if case let .strokeMoved(p) = gesture, case .drawing = state { return extendStroke(to: p) }
        switch (state, gesture) {
        case let (_, .command(command)):
            perform(command)
        case let (.idle, .strokeBegan(p)):
            beginStroke(at: p, time: time)
        case (.drawing, .strokeEnded):
            endStroke(at: time)
        case (.drawing, .strokeWithdrawn):
            withdrawStroke(at: time)
        case (.drawing, .pinchBegan):
            // The recogniser settles a stroke before a pinch begins; should one remain, it is kept.
            endStroke(at: time)
            beginPinch(at: time)
        case (.idle, .pinchBegan):
            beginPinch(at: time)
        case let (.folding(.pinch), .pinchChanged(rawScale)):
            if fold.track(rawScale) { damageWholeFrame() }
        case (.folding(.pinch), .pinchEnded):
            state = .unfolding
            fold.release { [unowned self] in
                state = .idle
                record("unfold.completed", at: fold.transaction.now)
            }
            record("fold.ended", at: time)
        case let (.idle, .turnBegan(edge, p)):
            beginTurn(edge == .right ? .forward : .backward, at: p, time: time)
        case let (.turning(track), .turnMoved(p)):
            turn.track(angle(of: track, at: p))
            damageWholeFrame()
        case let (.turning(track), .turnEnded(cancelled)):
            // Past 90° toward its goal the turn completes, otherwise it falls back (and a
            // cancelled touch always falls back).
            let pastHalfway = turn.angle < -Double.pi / 2
            settleTurn(track.direction, completes: !cancelled && (track.direction == .forward ? pastHalfway : !pastHalfway))
        default:
            break
        }
    }

    private func perform(_ command: Command) {
        switch (state, command) {
        case (.turning, .undo), (.turning, .redo), (.settlingTurn, .undo), (.settlingTurn, .redo):
            break  // the sheets on screen are turning: their pictures stay as they are
        case (_, .undo):
            // Undo restores deleted sheets before strokes (`Sketchbook`); a sheet comes back
            // only on the idle canvas, never under a stroke or the curtain.
            switch book.nextUndo {
            case .stroke:
                book.undo()
                redrawAll()
            case .restoreSheet where mode == .idle:
                book.undo()
                record("sheet.restored", at: now)
                show(sheetAt: book.currentSheet)
            case .restoreSheet, nil:
                return
            }
        case (_, .redo):
            guard book.canRedo else { return }
            book.redo()
            redrawAll()
        case (_, .toggleFullscreen):
            onRequest?(.toggleFullscreen)
        case (_, .quit):
            finishActiveStroke()
            onRequest?(.quit)
        case (_, .save):
            onRequest?(.save)
        case (.idle, .nextSheet):
            turnByKey(.forward)
        case (.idle, .previousSheet):
            turnByKey(.backward)
        case (.idle, .newSheet):
            changeSheets { $0.insertBlankSheet(); return true }
        case (.idle, .deleteSheet):
            record("sheet.deleted", at: now)
            book.deleteCurrentSheet()
            show(sheetAt: book.currentSheet)
        case (.idle, .foldStep):
            openCurtain(.keys)
            fold.foldStep()
        case (.folding(.keys), .foldStep):
            fold.foldStep()
            damageWholeFrame()
        case (.folding(.keys), .unfoldStep):
            fold.close()
            state = .idle
        default:
            break
        }
    }

    // MARK: - Sheets

    /// Applies a page turn or a new sheet to the book; when it changed something, the canvas
    /// shows the current sheet.
    private func changeSheets(_ change: (inout Sketchbook) -> Bool) {
        var changed = book
        guard change(&changed) else { return }
        if changed.sheets.count > book.sheets.count { record("sheet.added", at: now) }
        book = changed
        show(sheetAt: book.currentSheet)
    }

    /// Puts sheet `index` on the easel at once: the canvas is drawn again from its strokes, and
    /// the whole frame changes.
    private func show(sheetAt index: Int) {
        book.goToSheet(index)
        damage = damage.union(canvas.rebuild(strokes: book.sheet.strokes))
        record("sheet.changed", at: now)
    }

    /// The pages take the canvas and the curtain goes up, driven by `driver`.
    private func openCurtain(_ driver: Mode.FoldDriver) {
        fold.open(contents: canvas.baked)
        sceneRenderer().prepare(fold.scene.root)
        state = .folding(driver)
    }

    private func beginPinch(at time: Double) {
        openCurtain(.pinch)
        record("fold.began", at: time)
    }

    // MARK: - Page turns

    /// A finger or the mouse landed by an edge (or a key asked): forward to the next sheet (a
    /// new blank one after the last, unless the last is blank already), backward to the
    /// previous sheet (none from the first). Where no sheet is there, nothing turns.
    @discardableResult
    private func beginTurn(_ direction: Mode.TurnDirection, at p: Point, time: Double) -> Bool {
        switch direction {
        case .forward:
            if book.isOnLastSheet && book.sheet.isBlank { return false }
            let next = book.isOnLastSheet ? [] : book.sheets[book.currentSheet + 1].strokes
            turn.begin(earlier: canvas.baked, later: otherSheetPicture(next), angle: 0, scale: Double(scale))
        case .backward:
            guard book.currentSheet > 0 else { return false }
            let previous = book.sheets[book.currentSheet - 1].strokes
            turn.begin(earlier: otherSheetPicture(previous), later: canvas.baked, angle: -Double.pi, scale: Double(scale))
        }
        sceneRenderer().prepare(turn.scene.root)
        state = .turning(TurnTrack(direction: direction, start: p))
        record("flip.began", at: time)
        return true
    }

    /// Page Down / Page Up: the same turn, played through on its own.
    private func turnByKey(_ direction: Mode.TurnDirection) {
        guard beginTurn(direction, at: Point(x: direction == .forward ? Double(width) : 0, y: Double(height) / 2), time: now)
        else { return }
        settleTurn(direction, completes: true)
    }

    /// The leaf's angle for the finger at `p`: forward, θ = −π · clamp((x0 − x) / x0, 0, 1);
    /// backward, θ = −π · (1 − clamp((x − x0) / (W − x0), 0, 1)).
    private func angle(of track: TurnTrack, at p: Point) -> Double {
        let x0 = track.start.x
        switch track.direction {
        case .forward:
            return -Double.pi * min(max((x0 - p.x) / max(x0, 1), 0), 1)
        case .backward:
            return -Double.pi * (1 - min(max((p.x - x0) / max(Double(width) - x0, 1), 0), 1))
        }
    }

    /// The leaf settles, animated, at the end the turn goes to (`completes`) or back where it
    /// began; then the sheet changes (or not) and drawing resumes.
    private func settleTurn(_ direction: Mode.TurnDirection, completes: Bool) {
        let turnedOver = direction == .forward ? completes : !completes
        state = .settlingTurn
        turn.release(to: turnedOver ? -Double.pi : 0) { [unowned self] in
            finishTurn(direction, completed: completes)
        }
    }

    private func finishTurn(_ direction: Mode.TurnDirection, completed: Bool) {
        state = .idle
        guard completed else {
            record("flip.cancelled", at: now)
            return
        }
        changeSheets { direction == .forward ? $0.turnForward() : $0.goToPreviousSheet() }
        record("flip.completed", at: now)
    }

    /// The picture of another sheet's `strokes`, at the canvas's size.
    private func otherSheetPicture(_ strokes: [Stroke]) -> Bitmap {
        let other: CanvasRenderer
        if let stored = otherSheetStorage, stored.baked.width == pixelWidth, stored.baked.height == pixelHeight {
            other = stored
        } else {
            other = CanvasRenderer(width: width, height: height, scale: Double(scale))
            otherSheetStorage = other
        }
        _ = other.rebuild(strokes: strokes)
        return other.baked
    }

    // MARK: - Strokes

    private func beginStroke(at p: Point, time: Double) {
        let live = LiveStroke(start: p)
        state = .drawing(live)
        record("stroke.began", at: time)
        draw(live, changed: live.stroke.bounds)
    }

    private func extendStroke(to p: Point) {
        guard case var .drawing(live) = state else { return }
        state = .idle  // hands the stroke's storage over, so adding a point does not copy it
        let changed = live.add(p)
        state = .drawing(live)
        draw(live, changed: changed)
    }

    private func endStroke(at time: Double) {
        guard case let .drawing(live) = state else { return }
        state = .idle
        book.append(live.stroke)
        damage = damage.union(canvas.bake(live.stroke))
        record("stroke.ended", at: time)
        reportedClamp = false
    }

    private func withdrawStroke(at time: Double) {
        guard case .drawing = state else { return }
        state = .idle
        damage = damage.union(canvas.clearLive())
        record("stroke.withdrawn", at: time)
        reportedClamp = false
    }

    private func draw(_ live: LiveStroke, changed: Rect) {
        damage = damage.union(canvas.drawLive(live.path, tail: live.tail, style: live.stroke.style, changed: changed))
    }

    private func redrawAll() {
        damage = damage.union(canvas.rebuild(strokes: book.sheet.strokes))
        if case let .drawing(live) = state { draw(live, changed: live.stroke.bounds) }
    }

    private func damageWholeFrame() {
        damage = damage.union(canvas.frame.bounds)
    }

    private func resize(width requestedWidth: Int, height requestedHeight: Int, scale requestedScale: Int) {
        let (width, height, scale, adjusted) = SurfaceLimits.fit(width: requestedWidth, height: requestedHeight, scale: requestedScale)
        if adjusted {
            onRequest?(.warn(SurfaceLimits.explain(width: requestedWidth, height: requestedHeight, scale: requestedScale,
                                                   fittedTo: (width, height, scale))))
        }
        guard width != self.width || height != self.height || scale != self.scale else { return }
        self.width = width
        self.height = height
        self.scale = scale
        canvas = CanvasRenderer(width: width, height: height, scale: Double(scale))
        fold.resize(width: Double(width), height: Double(height), contents: mode.showsCurtain ? canvas.baked : nil)
        turn.resize(width: Double(width), height: Double(height))
        recognizer.width = Double(width)
        if mode.isTurning {
            // The pictures on the leaf were of the old size: the turn falls back at once.
            state = .idle
            record("flip.cancelled", at: now)
        }
        // The whole new frame changes; damage of the old size means nothing now.
        damage = Region.empty
        redrawAll()
    }

    private func sceneRenderer() -> PageRenderer {
        if let renderer = sceneRendererStorage, renderer.pixelWidth == pixelWidth, renderer.pixelHeight == pixelHeight {
            return renderer
        }
        let renderer = PageRenderer(pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: Double(scale))
        if mode.showsCurtain { renderer.prepare(fold.scene.root) }
        sceneRendererStorage = renderer
        return renderer
    }

    private func sceneFrame() -> Bitmap {
        if let bitmap = sceneFrameStorage, bitmap.width == pixelWidth, bitmap.height == pixelHeight { return bitmap }
        let bitmap = Bitmap(width: pixelWidth, height: pixelHeight)
        sceneFrameStorage = bitmap
        return bitmap
    }

    private func record(_ name: String, at time: Double) {
        timeline.append(TimelineEvent(time: time, name: name))
        if timeline.count / 2 >= timelineCapacity { timeline.removeFirst(timeline.count - timelineCapacity) }
    }
}

/// The stroke under the finger, with its smoother, so each new point reports what it changed.
struct LiveStroke {
    private(set) var stroke: Stroke
    private var smoother: InkSmoother

    init(start: Point) {
        stroke = Stroke(points: [start])
        smoother = InkSmoother(start: start)
    }

    /// The smoothed path so far, kept as points arrive (never recomputed from all the points).
    var path: [PathElement] { smoother.path }
    var tail: PathElement? { smoother.tail }

    /// Adds a point; returns the logical area whose ink may differ (old tail, new segment, new tail).
    mutating func add(_ p: Point) -> Rect {
        // Every changed piece starts at the end of the finished path.
        var changed = smoother.path.last.map { Rect(origin: $0.endPoint, size: .zero) } ?? .null
        if let oldTail = smoother.tail { changed = changed.union(oldTail.controlBounds) }
        if let segment = smoother.add(p) { changed = changed.union(segment.controlBounds) }
        if let newTail = smoother.tail { changed = changed.union(newTail.controlBounds) }
        stroke.points.append(p)
        let margin = stroke.style.width / 2 + 1
        return changed.insetBy(dx: -margin, dy: -margin)
    }
}
