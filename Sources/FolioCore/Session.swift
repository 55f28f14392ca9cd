import FolioGeometry
import FolioGestures
import FolioInput
import FolioLayers
import FolioPixels
import FolioRender
import FolioSketchbook
import FolioToolbar

/// Folio without a screen: input in, frames out. The live Wayland app and `folio replay`
/// both drive this one class, so a replayed trace ends exactly where the live app would.
public final class Session {
    public private(set) var book: Sketchbook {
        didSet {
            revision += 1
            refreshDisabledControls()
        }
    }
    /// Counts changes to `book`, so a saver knows when there is something new to write.
    public private(set) var revision = 0
    public private(set) var timeline: [TimelineEvent] = []
    /// How many of the newest timeline events are kept at least (at most twice as many are held):
    /// a replay keeps them all for its summary, the live app only enough for a look back.
    public var timelineCapacity = Int.max
    public let fold: FoldController
    public let turn: TurnController
    /// The one animation clock: the fold's pages and the turn's leaf animate in its transactions,
    /// and it tells whether anything still animates.
    public let transaction = Transaction()
    /// Logical size in surface pixels.
    public private(set) var width: Int
    public private(set) var height: Int
    /// Buffer pixels per logical pixel (fractional where the compositor prefers it).
    public private(set) var scale: BufferScale
    /// Called when the session needs the window to do something (fullscreen, quit, save).
    public var onRequest: ((SessionRequest) -> Void)?
    /// The touch controls: what is shown, pressed and chosen. Drawn on a layer of its own.
    public private(set) var toolbar: Toolbar {
        didSet {
            guard toolbar != oldValue else { return }
            toolbarNeedsFrame = true
            recognizer.controlAreas = toolbar.touchAreas
            if toolbar.isShown != oldValue.isShown { record(toolbar.isShown ? "toolbar.shown" : "toolbar.hidden", at: now) }
        }
    }
    /// Whether the toolbar looks different from its last `renderToolbar()`.
    public private(set) var toolbarNeedsFrame = true
    private var toolbarRenderer: ToolbarRenderer

    /// What the session is doing, with the data only that doing has (the stroke being drawn).
    private enum State {
        case idle
        case drawing(LiveStroke)
        case erasing(EraserPass)
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
    /// The newest time (ms) the session has seen, from input and frame callbacks.
    public private(set) var now = 0.0
    /// Whether a clamped point was reported since the last stroke ended.
    private var reportedClamp = false

    /// Pictures of big sheets kept with the book, shown instead of drawing every stroke.
    private let pictures: SheetPictureCache?

    /// A session for a window of `width`×`height` logical pixels at `scale` (fitted to
    /// `SurfaceLimits`: callers report what they asked for beyond them).
    public init(book: Sketchbook = Sketchbook(), width: Int, height: Int, scale: BufferScale = 1, pictures: SheetPictureCache? = nil) {
        self.pictures = pictures
        let size = SurfaceLimits.fit(width: width, height: height, scale: scale)
        self.book = book
        self.width = size.width
        self.height = size.height
        self.scale = size.scale
        canvas = CanvasRenderer(width: size.width, height: size.height, scale: size.scale.factor)
        let scene = Self.sceneSize(of: canvas)
        fold = FoldController(width: scene.width, height: scene.height, transaction: transaction)
        turn = TurnController(width: scene.width, height: scene.height, transaction: transaction)
        recognizer.width = Double(size.width)
        toolbar = Toolbar(layout: ToolbarLayout(width: Double(size.width), height: Double(size.height), scale: size.scale.factor))
        toolbarRenderer = ToolbarRenderer(scale: size.scale.factor)
        damage = Region(draw(book.sheet.strokes, on: canvas))
        recognizer.controlAreas = toolbar.touchAreas
        refreshDisabledControls()
    }

    /// Draws `strokes` on `canvas`: from their kept picture where there is one, else stroke by stroke.
    private func draw(_ strokes: [Stroke], on canvas: CanvasRenderer) -> PixelRect {
        if let picture = pictures?.picture(of: strokes, width: canvas.baked.width, height: canvas.baked.height, scale: canvas.scale),
           canvas.show(strokes: strokes, from: picture) {
            return canvas.frame.bounds
        }
        return canvas.rebuild(strokes: strokes)
    }

    /// Keeps the picture of the sheet on the easel with the book when it is big, and drops the
    /// pictures of strokes the book no longer has: at quit, so the sheet opens at once next time.
    public func keepPicture() throws {
        let picture = canvas.strokes.count >= SheetPictureCache.worthKeeping ? canvas.picture() : nil
        try pictures?.keep(picture, book: book)
    }

    /// How fold frames are dressed (backdrop, shadows, render threads).
    public var foldOptions = PageRenderOptions()

    /// What the session is doing now.
    public var mode: Mode { Self.mode(of: state) }

    private static func mode(of state: State) -> Mode {
        switch state {
        case .idle: .idle
        case .drawing: .drawing
        case .erasing: .erasing
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
        case .idle, .drawing, .erasing, .turning, .settlingTurn: 1
        case .folding: fold.trackedScale
        case .unfolding: fold.animatedScale
        }
    }

    /// The logical size the page scenes (fold, turn) span: the buffer over the scale. A fractional
    /// scale rounds the buffer to whole pixels (1281 px at 1.25 is 1601 px, not 1601.25), and the
    /// compositor stretches that buffer over the window; scenes of this size put canvas pixels
    /// exactly on buffer pixels, so an open page is the canvas itself. Within 1/2 buffer pixel
    /// of `width`×`height`; the same at whole scales.
    public var sceneSize: Size { Self.sceneSize(of: canvas) }

    private static func sceneSize(of canvas: CanvasRenderer) -> Size {
        Size(width: Double(canvas.frame.width) / canvas.scale, height: Double(canvas.frame.height) / canvas.scale)
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
            sceneRenderer().render(turn.scene, at: transaction.now, into: sceneFrame(), options: foldOptions)
        } else if mode.showsCurtain, !damage.isEmpty {
            sceneRenderer().render(fold.scene.root, at: fold.transaction.now, into: sceneFrame(), options: foldOptions)
        }
        return damage
    }

    /// Whether the animation clock must keep ticking (frames wanted even without input). The
    /// toolbar's hiding and notice are deadlines on the same `now`, not animations: `nextChange`.
    public var isAnimating: Bool { transaction.isAnimating }

    /// When (ms) the screen changes with no input and no animation: the toolbar hiding after a
    /// while, or its confirmation going. The frame loop sleeps until then instead of ticking.
    public var nextChange: Double? { toolbar.deadline }

    /// Draws the toolbar as it is now (buffer pixels) and where it goes (logical px).
    public func renderToolbar() -> (image: Bitmap, origin: Point) {
        toolbarNeedsFrame = false
        return (toolbarRenderer.render(toolbar), toolbar.layout.shownBounds.origin)
    }

    /// The ink a new stroke is drawn with.
    public var ink: InkStyle { InkStyle(width: toolbar.width, color: toolbar.color) }

    /// Replaces the palette and the chosen ink (from settings).
    public func applyChoices(palette: Palette, colorIndex: Int, widthIndex: Int) {
        var updated = Toolbar(layout: toolbar.layout, palette: palette)
        updated.choose(colorIndex: colorIndex, widthIndex: widthIndex)
        updated.disabled = toolbar.disabled
        toolbar = updated
    }

    /// Settings: which gestures are on, and the fold's perspective distance (logical px,
    /// clamped to 500–20000; applied from the next fold on).
    public func configure(edgeTurn: Bool, pinch: Bool, foldPerspective: Double) {
        recognizer.edgeTurns = edgeTurn
        recognizer.pinches = pinch
        let distance = foldPerspective.isNaN ? FoldScene.perspectiveDistance : min(max(foldPerspective, 500), 20000)
        if !mode.showsCurtain {
            fold.transaction.perform(disableActions: true) { fold.scene.distance = distance }
        }
    }

    /// An export asked for by `SessionRequest.exportSheet` finished: a brief confirmation shows.
    public func exportFinished(succeeded: Bool) {
        toolbar.showNotice(succeeded: succeeded, at: now)
        record(succeeded ? "export.written" : "export.failed", at: now)
    }

    /// Whether a finger, the pen (or the mouse) is drawing right now.
    public var isDrawing: Bool { mode == .drawing }

    /// How a pen's pressure becomes width for the strokes drawn from now on.
    public var pressureCurve = PressureCurve.standard
    /// Fingers never draw (the pen does); they still pinch and turn pages.
    public var penOnly: Bool {
        get { recognizer.penOnly }
        set { recognizer.penOnly = newValue }
    }
    /// While a pen's barrel button is held, the pen erases (`pen.barrel_button = "eraser"`).
    public var barrelButtonErases: Bool {
        get { recognizer.barrelButtonErases }
        set { recognizer.barrelButtonErases = newValue }
    }
    /// How far from the eraser's centre line a stroke is crossed (logical px).
    public static let eraserRadius = 6.0

    /// Feeds one input event that happened at `time` (ms).
    public func handle(_ event: InputEvent, at time: Double) {
        now = max(now, time)
        transaction.advance(to: now)
        _ = toolbar.advance(to: now)
        if case let .resize(width, height, scale) = event {
            resize(width: width, height: height, scale: scale ?? self.scale)
            return
        }
        guard let event = withinReach(event) else { return }
        for gesture in recognizer.handle(event, time: time) {
            transition(gesture, at: time)
        }
    }

    /// Runs a command as if its key were pressed at `time` (ms): for touch controls such as the
    /// toolbar (`.fingerErases` and `.fingerDraws` switch what a finger does).
    public func handle(_ command: Command, at time: Double) {
        now = max(now, time)
        transition(.command(command), at: time)
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
        case let .tabletMotion(p, pressure, tilt): return .tabletMotion(to: clamp(p), pressure: pressure, tilt: tilt)
        case let .pinchUpdate(scale, _, _, _) where scale.isNaN: return nil
        default: return event
        }
    }

    /// Moves the animation clock to `time` (ms): called once per frame by whoever paces frames.
    public func advance(to time: Double) {
        now = max(now, time)
        transaction.advance(to: now)
        _ = toolbar.advance(to: now)
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
        if case .erasing = state { endErase(at: now) }
    }

    // MARK: - The one transition function

    /// What a gesture means in the current mode. Whatever is not listed means nothing there: input
    /// while the book opens does not draw, a pinch does not take over the fold keys' steps.
    private func transition(_ gesture: Gesture, at time: Double) {
        // Here, not in the switch: its subject holds a copy of `state`, and with it the live
        // stroke's points, so adding a point there copied the whole stroke.
        if case let .strokeMoved(p) = gesture, case .drawing = state { return extendStroke(to: PenSample(point: p)) }
        if case let .penStrokeMoved(sample) = gesture, case .drawing = state { return extendStroke(to: sample) }
        switch (state, gesture) {
        case let (_, .command(command)):
            recognizer.note(command)
            toolbar.isErasing = recognizer.fingerErases
            perform(command)
        case let (_, .penBarrel(pressed)):
            record(pressed ? "pen.barrel.pressed" : "pen.barrel.released", at: time)
        case let (_, .controlPressed(p)):
            toolbar.press(at: p, time: time)
        case let (_, .controlReleased(p, cancelled)):
            switch toolbar.release(at: p, cancelled: cancelled, time: time) {
            case let .control(action):
                record("control.\(action.name)", at: time)
                perform(action)
            case .handle, nil:
                break
            }
        case let (.idle, .strokeBegan(p)):
            beginStroke(at: PenSample(point: p), pen: false, time: time)
        case let (.idle, .penStrokeBegan(sample)):
            beginStroke(at: sample, pen: true, time: time)
        case let (.idle, .eraseBegan(p)):
            state = .erasing(EraserPass(last: p))
            toolbar.hide()
            record("erase.began", at: time)
            erase(to: p)
        case let (.erasing, .strokeMoved(p)):
            erase(to: p)
        case (.erasing, .strokeEnded):
            endErase(at: time)
        case (.erasing, .strokeWithdrawn):
            state = .idle
            redrawAll()
            record("erase.withdrawn", at: time)
        case (.erasing, .pinchBegan):
            endErase(at: time)
            beginPinch(at: time)
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
            // A finger turning the page hides the toolbar; its own sheet buttons keep it up.
            if beginTurn(edge == .right ? .forward : .backward, at: p, time: time) { toolbar.hide() }
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
        case (.erasing, .undo), (.erasing, .redo):
            break  // the eraser's pass is not an edit yet
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
        case (_, .export):
            onRequest?(.exportSheet)
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

    /// What a toolbar control does: the keyboard's command, or a new ink for the next stroke.
    private func perform(_ action: ControlAction) {
        switch action {
        case .undo: perform(Command.undo)
        case .redo: perform(Command.redo)
        case .newSheet: perform(Command.newSheet)
        case .previousSheet: perform(Command.previousSheet)
        case .nextSheet: perform(Command.nextSheet)
        case .deleteSheet: perform(Command.deleteSheet)
        case .export: perform(Command.export)
        case .fullscreen: perform(Command.toggleFullscreen)
        case .eraser: chooseFingerTool()
        case .color, .width:
            chooseFingerTool()
            onRequest?(.choicesChanged)
        }
    }

    /// The finger draws or erases as the toolbar now says (choosing an ink ends erasing).
    private func chooseFingerTool() {
        recognizer.note(toolbar.isErasing ? .fingerErases : .fingerDraws)
    }

    /// Controls that would do nothing look disabled: nothing to undo or redo, no sheet before
    /// this one, no sheet after a blank last one, nothing to delete.
    private func refreshDisabledControls() {
        var disabled: Set<ControlAction> = []
        if book.nextUndo == nil { disabled.insert(.undo) }
        if !book.canRedo { disabled.insert(.redo) }
        if book.currentSheet == 0 { disabled.insert(.previousSheet) }
        if book.isOnLastSheet && book.sheet.isBlank { disabled.insert(.nextSheet) }
        if book.sheets.count == 1 && book.sheet.isBlank { disabled.insert(.deleteSheet) }
        toolbar.disabled = disabled
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
        damage = damage.union(draw(book.sheet.strokes, on: canvas))
        record("sheet.changed", at: now)
    }

    /// The pages take the canvas and the curtain goes up, driven by `driver`.
    private func openCurtain(_ driver: Mode.FoldDriver) {
        toolbar.hide()
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
        case .backward:
            guard book.currentSheet > 0 else { return false }
        }
        showLeaf(direction, at: direction == .forward ? 0 : -Double.pi)
        state = .turning(TurnTrack(direction: direction, start: p))
        record("flip.began", at: time)
        return true
    }

    /// The leaf between this sheet and the next (forward) or previous one (backward), at `angle`,
    /// its pictures drawn at the current size and scale.
    private func showLeaf(_ direction: Mode.TurnDirection, at angle: Double) {
        switch direction {
        case .forward:
            let next = book.isOnLastSheet ? [] : book.sheets[book.currentSheet + 1].strokes
            turn.begin(earlier: canvas.baked, later: otherSheetPicture(next), angle: angle)
        case .backward:
            let previous = book.sheets[book.currentSheet - 1].strokes
            turn.begin(earlier: otherSheetPicture(previous), later: canvas.baked, angle: angle)
        }
        sceneRenderer().prepare(turn.scene)
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
            other = CanvasRenderer(width: width, height: height, scale: scale.factor)
            otherSheetStorage = other
        }
        if other.strokes != strokes { _ = draw(strokes, on: other) }
        return other.baked
    }

    // MARK: - The eraser

    /// Hides every stroke the eraser crosses on its way to `p` (removed from the book when the
    /// pass ends, as one undoable edit).
    private func erase(to p: Point) {
        guard case var .erasing(pass) = state else { return }
        var crossed = false
        for (index, stroke) in book.sheet.strokes.enumerated() where !pass.crossed.contains(index) {
            if stroke.isCrossed(from: pass.last, to: p, radius: Self.eraserRadius) {
                pass.crossed.insert(index)
                crossed = true
            }
        }
        pass.last = p
        state = .erasing(pass)
        if crossed { damage = damage.union(canvas.rebuild(strokes: visibleStrokes)) }
    }

    private func endErase(at time: Double) {
        guard case let .erasing(pass) = state else { return }
        state = .idle
        if !pass.crossed.isEmpty { book.erase(pass.crossed) }
        record("erase.ended", at: time)
    }

    // MARK: - Strokes

    private func beginStroke(at sample: PenSample, pen: Bool, time: Double) {
        let live = LiveStroke(start: sample, style: ink, pressureCurve: pen && sample.pressure != nil ? pressureCurve : nil)
        toolbar.hide()
        state = .drawing(live)
        record("stroke.began", at: time)
        draw(live, changed: live.stroke.bounds)
    }

    private func extendStroke(to sample: PenSample) {
        guard case var .drawing(live) = state else { return }
        state = .idle  // hands the stroke's storage over, so adding a point does not copy it
        let changed = live.add(sample)
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
        damage = damage.union(canvas.drawLive(live.path, tail: live.tail, style: live.stroke.style, changed: changed,
                                              pressures: live.pressurePath, pressureTail: live.pressureTail,
                                              curve: live.pressureCurve))
    }

    /// The current sheet's strokes as the screen shows them: without those an eraser pass crossed.
    private var visibleStrokes: [Stroke] {
        guard case let .erasing(pass) = state, !pass.crossed.isEmpty else { return book.sheet.strokes }
        return book.sheet.strokes.enumerated().filter { !pass.crossed.contains($0.offset) }.map(\.element)
    }

    private func redrawAll() {
        // Undo and redo change one stroke: the canvas redraws only its area.
        damage = damage.union(canvas.show(strokes: visibleStrokes))
        if case let .drawing(live) = state { draw(live, changed: live.stroke.bounds) }
    }

    private func damageWholeFrame() {
        damage = damage.union(canvas.frame.bounds)
    }

    private func resize(width requestedWidth: Int, height requestedHeight: Int, scale requestedScale: BufferScale) {
        let (width, height, scale, adjusted) = SurfaceLimits.fit(width: requestedWidth, height: requestedHeight, scale: requestedScale)
        if adjusted {
            onRequest?(.warn(SurfaceLimits.explain(width: requestedWidth, height: requestedHeight, scale: requestedScale,
                                                   fittedTo: (width, height, scale))))
        }
        guard width != self.width || height != self.height || scale != self.scale else { return }
        let onlyScale = width == self.width && height == self.height
        let leafAngle = turn.angle
        self.width = width
        self.height = height
        self.scale = scale
        canvas = CanvasRenderer(width: width, height: height, scale: scale.factor)
        let scene = Self.sceneSize(of: canvas)
        fold.resize(width: scene.width, height: scene.height, contents: mode.showsCurtain ? canvas.baked : nil)
        turn.resize(width: scene.width, height: scene.height)
        recognizer.width = Double(width)
        toolbar.relayout(ToolbarLayout(width: Double(width), height: Double(height), scale: scale.factor))
        toolbarRenderer = ToolbarRenderer(scale: scale.factor)
        toolbarNeedsFrame = true
        let heldTurn: Mode.TurnDirection? = if case let .turning(track) = state, onlyScale { track.direction } else { nil }
        if mode.isTurning && heldTurn == nil {
            // The pictures on the leaf were of the old size: the turn falls back at once.
            state = .idle
            record("flip.cancelled", at: now)
        }
        // The whole new frame changes; damage of the old size means nothing now.
        damage = Region.empty
        redrawAll()
        // A new scale alone (the window moved to another output) keeps a leaf the finger holds:
        // drawn again, crisp at the new scale, where the finger has it.
        if let heldTurn { showLeaf(heldTurn, at: leafAngle) }
    }

    private func sceneRenderer() -> PageRenderer {
        if let renderer = sceneRendererStorage, renderer.pixelWidth == pixelWidth, renderer.pixelHeight == pixelHeight {
            return renderer
        }
        let renderer = PageRenderer(pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale.factor)
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

/// One pass of the eraser: where it last was, and the current sheet's strokes it has crossed.
struct EraserPass {
    var last: Point
    var crossed: Set<Int> = []
}

/// The stroke under the finger or pen, with its smoothers, so each new point reports what it
/// changed. A pen's pressures are smoothed exactly as its points are.
struct LiveStroke {
    private(set) var stroke: Stroke
    private var smoother: InkSmoother
    private var pressureSmoother: InkSmoother?
    /// The curve widths follow, for a pen that reports pressure; nil for the fixed width.
    let pressureCurve: PressureCurve?

    init(start: PenSample, style: InkStyle, pressureCurve: PressureCurve?) {
        stroke = Stroke(points: [start.point], style: style)
        smoother = InkSmoother(start: start.point)
        if let pressureCurve, let pressure = start.pressure.map(Stroke.kept(pressure:)) {
            self.pressureCurve = pressureCurve
            stroke.pressureCurve = pressureCurve
            stroke.pressures = [pressure]
            stroke.tilts = start.tilt.map { [Stroke.kept(tilt: $0)] }
            pressureSmoother = InkSmoother(start: Point(x: pressure, y: 0))
        } else {
            self.pressureCurve = nil
        }
    }

    /// The smoothed path so far, kept as points arrive (never recomputed from all the points).
    var path: [PathElement] { smoother.path }
    var tail: PathElement? { smoother.tail }
    var pressurePath: [PathElement] { pressureSmoother?.path ?? [] }
    var pressureTail: PathElement? { pressureSmoother?.tail }

    /// Adds a point; returns the logical area whose ink may differ (old tail, new segment, new tail).
    mutating func add(_ sample: PenSample) -> Rect {
        let p = sample.point
        // Every changed piece starts at the end of the finished path; a pen's outline, at the
        // start of its last step into that end (the joint at the end moves with what follows).
        var changed = smoother.path.last.map { Rect(origin: $0.endPoint, size: .zero) } ?? .null
        if pressureCurve != nil, let last = smoother.path.last, smoother.path.count >= 2 {
            let start = smoother.path[smoother.path.count - 2].endPoint
            changed = changed.union(Rect(origin: PressureOutline.lastStepStart(of: last, from: start), size: .zero))
        }
        if let oldTail = smoother.tail { changed = changed.union(oldTail.controlBounds) }
        if let segment = smoother.add(p) { changed = changed.union(segment.controlBounds) }
        if let newTail = smoother.tail { changed = changed.union(newTail.controlBounds) }
        stroke.points.append(p)
        // The firmest pressure of the ink that changed: the last element's (its last step's
        // joint moves), the old tail's, the new segment's and the new tail's. Each is a Bézier,
        // so it stays within its control values; the x of a pressure element is the pressure.
        var firmest = -Double.infinity
        if pressureSmoother != nil {
            // The last element and its start, read by index: a copy of the path held across
            // `add` would copy it on write, and `suffix(2)` of the optional path resolves to
            // Sequence's, which walks all of it (a long stroke's segments grew slower).
            if let last = pressureSmoother?.path.last { firmest = max(firmest, last.controlBounds.maxX) }
            if let count = pressureSmoother?.path.count, count >= 2, let before = pressureSmoother?.path[count - 2] {
                firmest = max(firmest, before.endPoint.x)
            }
            if let oldTail = pressureSmoother?.tail { firmest = max(firmest, oldTail.controlBounds.maxX) }
            // A frame without a pressure keeps the last one (tablet-v2 sends only changes).
            // Pressure and tilt are kept in the book's steps, so a reopened stroke is this one.
            let pressure = sample.pressure.map(Stroke.kept(pressure:)) ?? stroke.pressures?.last ?? 0
            if let segment = pressureSmoother?.add(Point(x: pressure, y: 0)) { firmest = max(firmest, segment.controlBounds.maxX) }
            if let newTail = pressureSmoother?.tail { firmest = max(firmest, newTail.controlBounds.maxX) }
            stroke.pressures?.append(pressure)
            if let last = stroke.tilts?.last { stroke.tilts?.append(sample.tilt.map(Stroke.kept(tilt:)) ?? last) }
        }
        // Ink reaches half its width (and a pixel of antialiasing) past what changed: for a pen,
        // the width its firmest pressure there gives, so a light stroke damages no more than it needs.
        let margin = pressureCurve.map { $0.width(at: firmest) / 2 + 1 } ?? stroke.style.width / 2 + 1
        return changed.insetBy(dx: -margin, dy: -margin)
    }
}
