import FolioGeometry
import FolioGestures
import FolioInput
import FolioLayers
import FolioPixels
import FolioRender
import FolioSketchbook
import FolioToolbar
import FolioTools

/// Folio without a screen: input in; edits, modes and frames out, the frames drawn by its
/// `SessionDisplay`. The live Wayland app and `folio replay` both drive this one class, so a
/// replayed trace ends exactly where the live app would.
public final class Session {
    public internal(set) var book: Sketchbook {
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
    /// The paper new sheets get; the toolbar's `paper` shows its kind.
    public var paper = Paper.plain {
        didSet { toolbar.paper = paper.kind }
    }
    /// The touch controls: what is shown, pressed and chosen. Drawn on a layer of its own.
    public internal(set) var toolbar: Toolbar {
        didSet {
            guard toolbar != oldValue else { return }
            display.toolbarNeedsFrame = true
            recognizer.controlAreas = toolbar.touchAreas
            if toolbar.isShown != oldValue.isShown { record(toolbar.isShown ? "toolbar.shown" : "toolbar.hidden", at: now) }
        }
    }
    /// The tool in use and its ink: the one record of it. The toolbar marks it chosen, the
    /// settings keep its ink, and each contact on the canvas takes its tool from it.
    public internal(set) var tools = ToolState() {
        didSet {
            if tools != oldValue { display.toolbarNeedsFrame = true }
        }
    }
    /// What the session draws with: the canvas, the page renderer, the toolbar's image.
    let display: SessionDisplay
    /// The shelf of books the open book came from and goes back to; nil for a book opened alone.
    public internal(set) var shelf: SessionShelf?

    /// What the session is doing, with the data only that doing has (the stroke being drawn).
    enum State {
        case idle
        case drawing(LiveStroke)
        case erasing(EraserPass)
        case folding(Mode.FoldDriver)
        case unfolding
        case turning(TurnTrack)
        case settlingTurn
        /// A lasso's loop is drawn.
        case lassoing(LassoTrail)
        /// A contact on a selection: moving it, on its bar, or ending it.
        case selecting(SelectionContact)
        /// The shelf shows instead of a book.
        case shelf
        /// The book folds shut onto the shelf.
        case closingBook
    }

    /// The lasso's selection on the current sheet, if any.
    var selection: Selection?
    /// The sheet playing back, if it is; and the contacts that stopped it, taken in until they end.
    var playback: Playback?
    var stoppedPlayback = HeldContacts()

    /// A turn following a finger: which way, and where the finger landed.
    struct TurnTrack {
        var direction: Mode.TurnDirection
        var start: Point
    }

    var state = State.idle {
        didSet {
            // The curtain going up or down changes every pixel.
            if Self.mode(of: oldValue).showsCurtain != mode.showsCurtain { damageWholeFrame() }
        }
    }
    private var recognizer = GestureRecognizer()
    /// The newest time (ms) the session has seen, from input and frame callbacks.
    public private(set) var now = 0.0
    /// The Unix time (seconds) of the session clock's 0, so strokes keep when they were drawn:
    /// the live app's monotonic clock maps onto the wall clock; a replay keeps 0 (its trace's `t`).
    public var clockEpoch = 0.0
    /// Whether a clamped point was reported since the last stroke ended.
    private var reportedClamp = false

    /// A session for a window of `width`×`height` logical pixels at `scale` (fitted to
    /// `SurfaceLimits`: callers report what they asked for beyond them).
    public init(book: Sketchbook = Sketchbook(), width: Int, height: Int, scale: BufferScale = 1, pictures: SheetPictureCache? = nil) {
        let size = SurfaceLimits.fit(width: width, height: height, scale: scale)
        self.book = book
        self.width = size.width
        self.height = size.height
        self.scale = size.scale
        display = SessionDisplay(width: size.width, height: size.height, scale: size.scale.factor, pictures: pictures)
        let scene = display.sceneSize
        fold = FoldController(width: scene.width, height: scene.height, transaction: transaction)
        turn = TurnController(width: scene.width, height: scene.height, transaction: transaction)
        recognizer.width = Double(size.width)
        toolbar = Toolbar(layout: ToolbarLayout(width: Double(size.width), height: Double(size.height), scale: size.scale.factor))
        display.showSheet(book.sheet)
        recognizer.controlAreas = toolbar.touchAreas
        refreshDisabledControls()
    }

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
        case .lassoing: .lassoing
        case .selecting: .selecting
        case .shelf: .shelf
        case .closingBook: .closingBook
        }
    }

    /// The fold scale on screen: 1 when open, the tracked scale while folding, and during the
    /// unfold the scale part of the animated page transform.
    public var foldScale: Double {
        switch state {
        case .idle, .drawing, .erasing, .turning, .settlingTurn, .lassoing, .selecting, .shelf: 1
        case .folding: fold.trackedScale
        case .unfolding, .closingBook: fold.animatedScale
        }
    }

    /// The logical size the page scenes (fold, turn) span: the buffer over the scale. A fractional
    /// scale rounds the buffer to whole pixels (1281 px at 1.25 is 1601 px, not 1601.25), and the
    /// compositor stretches that buffer over the window; scenes of this size put canvas pixels
    /// exactly on buffer pixels, so an open page is the canvas itself. Within 1/2 buffer pixel
    /// of `width`×`height`; the same at whole scales.
    public var sceneSize: Size { display.sceneSize }

    /// The frame the screen shows, as of the last `renderFrame()`.
    public var frame: Bitmap { shownShelf?.frame ?? display.frame(curtainUp: mode.showsCurtain) }
    public var pixelWidth: Int { display.pixelWidth }
    public var pixelHeight: Int { display.pixelHeight }

    /// Whether a new frame would differ from the last one rendered.
    public var needsFrame: Bool { display.needsFrame || shownShelf?.damage.isEmpty == false }

    /// How page frames (fold and turn) are dressed (backdrop, shadows, render threads).
    public var pageOptions: PageRenderOptions {
        get { display.options }
        set { display.options = newValue }
    }

    /// The column kernels page frames are drawn with (default: the fastest; all give the same bytes).
    public var kernels: PageKernels {
        get { display.kernels }
        set { display.kernels = newValue }
    }

    /// Brings `frame` up to date and returns the buffer pixels that changed since the last call.
    /// Stroke work happens as input arrives; fold frames are drawn here, once per frame, from
    /// the newest state, so pinch updates never queue behind each other.
    public func renderFrame() -> Region {
        if let shelf = shownShelf { return renderShelf(shelf) }
        return display.renderFrame(shownScene)
    }

    /// Draws the frame straight into `target` (a buffer the compositor will read), bringing up to
    /// date what it lacks, and returns the buffer pixels that changed since the last frame.
    public func renderFrame(into target: FrameTarget) -> Region {
        if let shelf = shownShelf { return renderShelf(shelf, into: target) }
        return display.renderFrame(shownScene, into: target)
    }

    /// The page scene on screen, at the animation clock's time; nil while the flat canvas shows.
    private var shownScene: SessionDisplay.Scene? {
        if mode.isTurning { return .turn(turn.scene, at: transaction.now) }
        if mode.showsCurtain { return .fold(fold.scene.root, at: transaction.now) }
        return nil
    }

    /// Whether the animation clock must keep ticking (frames wanted even without input): an
    /// animation runs, the sheet plays back, or the shelf glides. The toolbar's hiding and notice
    /// are deadlines on the same `now`, not animations: `nextChange`.
    public var isAnimating: Bool { transaction.isAnimating || playback != nil || shownShelf?.isGliding == true }

    /// When (ms) the screen changes with no input and no animation: the toolbar hiding after a
    /// while, its confirmation going, or a held stroke snapping to its shape. The frame loop
    /// sleeps until then instead of ticking.
    public var nextChange: Double? { [toolbar.deadline, holdDeadline].compactMap { $0 }.min() }

    /// Whether the toolbar looks different from its last `renderToolbar()`.
    public var toolbarNeedsFrame: Bool { display.toolbarNeedsFrame }

    /// Draws the toolbar as it is now (buffer pixels) and where it goes (logical px).
    public func renderToolbar() -> (image: Bitmap, origin: Point) {
        display.renderToolbar(toolbar, tools: tools)
    }

    /// Keeps the picture of the sheet on the easel with the book when it is big, and drops the
    /// pictures of strokes the book no longer has: at quit, so the sheet opens at once next time.
    public func keepPicture() throws {
        try display.keepPicture(of: book)
    }

    /// The ink a new stroke is drawn with.
    public var ink: InkStyle {
        let chosen = toolbar.palette.ink(tools.ink)
        return InkStyle(width: chosen.width, color: chosen.color)
    }

    /// Replaces the palette and the chosen ink (from settings; clamped to the palette).
    public func applyChoices(palette: Palette, ink: InkChoice) {
        var updated = Toolbar(layout: toolbar.layout, palette: palette)
        updated.disabled = toolbar.disabled
        updated.paper = toolbar.paper
        updated.isAway = toolbar.isAway
        toolbar = updated
        tools.ink = Palette.clamped(ink)
    }

    /// Chooses the tool fingers and the mouse use from their next contact, as the toolbar's
    /// controls do (the pen keeps its own rule: `Tool.used(by:)`).
    public func choose(_ tool: Tool) {
        tools.tool = tool
    }

    /// Settings: which gestures are on, and the fold's perspective distance (logical px,
    /// clamped to 500–20000; applied from the next fold on).
    public func configure(edgeTurn: Bool, pinch: Bool, foldPerspective: Double) {
        recognizer.edgeTurns = edgeTurn
        recognizer.pinches = pinch
        let distance = foldPerspective.isNaN ? FoldScene.perspectiveDistance : min(max(foldPerspective, 500), 20000)
        if !mode.showsCurtain {
            transaction.perform(disableActions: true) { fold.scene.distance = distance }
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
    /// Two-finger taps undo and three-finger taps redo (`gestures.tap_undo`).
    public var tapUndo: Bool {
        get { recognizer.taps }
        set { recognizer.taps = newValue }
    }
    /// While a pen's barrel button is held, the pen erases (`pen.barrel_button = "eraser"`).
    public var barrelButtonErases: Bool {
        get { recognizer.barrelButtonErases }
        set { recognizer.barrelButtonErases = newValue }
    }
    /// A stroke whose end is held still snaps to the shape it was meant to be (`gestures.hold_to_shape`).
    public var holdToShape = true
    /// Live strokes are drawn ahead of their newest sample, to where the pen is predicted to be
    /// when the frame is seen (`ink.prediction`); never saved, exported or left after the stroke.
    public var predictsInk = true

    /// Draws the live stroke's predicted ink for a frame to be presented as `forecast` says (nil:
    /// not known, and nothing is predicted): called by whoever paces frames, just before a frame
    /// is drawn. Nothing happens unless a stroke is live and predicted ink is on.
    public func predictInk(for forecast: PresentationForecast?) {
        guard predictsInk, case let .drawing(live) = state, live.snapped == nil, let end = live.stroke.points.last else { return }
        // No prediction now still erases the one drawn before.
        let predicted = forecast.flatMap { live.predictor.predict(at: $0.time, horizonCap: $0.horizonCap) }.map {
            PredictedInk(from: end, to: $0, width: live.endWidth)
        }
        display.drawLive(live, changed: .null, predicted: predicted)
    }

    /// The frame shows predicted ink: the next frame draws it again for its own vblank, or erases
    /// it once the samples are too old (a pen resting), even with no new input.
    public var showsPredictedInk: Bool { display.canvas.showsPrediction }

    /// How far from the eraser's centre line a stroke is crossed (logical px).
    public static let eraserRadius = 6.0

    /// Feeds one input event that happened at `time` (ms).
    public func handle(_ event: InputEvent, at time: Double) {
        now = max(now, time)
        transaction.advance(to: now)
        _ = toolbar.advance(to: now)
        settleHold()
        if case let .resize(width, height, scale) = event {
            resize(width: width, height: height, scale: scale ?? self.scale)
            return
        }
        guard !playbackTakes(event), let event = withinReach(event) else { return }
        for gesture in recognizer.handle(event, time: time) {
            transition(gesture, at: time)
        }
    }

    /// Runs a command as if its key were pressed at `time` (ms).
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
        settleHold()
        advancePlayback()
        shownShelf?.advance(to: now)
        if transaction.isAnimating { damageWholeFrame() }
    }

    /// Builds the page renderer, its frame and its backdrop texture ahead of the first pinch (one
    /// untimed frame does it): they are large, and making them when the fingers land would delay
    /// the first fold frame. The pinch then pays only for taking the pages from the canvas.
    public func prepareToFold() {
        guard !mode.showsCurtain else { return }
        fold.scene.setContents(display.canvas.baked)
        display.prepareToFold(fold.scene.root, at: transaction.now)
    }

    /// Ends whatever is being drawn and keeps it: the compositor went away, or the app quits.
    public func finishActiveStroke() {
        stopPlayback(showingSheet: true)
        if case .drawing = state { endStroke(at: now) }
        if case .erasing = state { endErase(at: now) }
        finishSelection(at: now)
    }

    // MARK: - Still frames

    /// Holds the fold at `scale` (clamped to 0.48…1), as a pinch that stops there does: a still
    /// frame drawn by the app's own path (`folio render --fold`). Only from the idle canvas;
    /// returns whether the fold shows.
    public func holdFold(at scale: Double) -> Bool {
        guard case .idle = state else { return false }
        transition(.pinchBegan, at: now)
        transition(.pinchChanged(scale: scale), at: now)
        return true
    }

    /// Holds the sheet on the easel turning forward with the leaf at `angle` (−π…0), as a finger
    /// that stops there does (`folio render --flip`); the sheet behind is blank when none follows,
    /// even where a finger could not turn. Only from the idle canvas; returns whether the leaf shows.
    public func holdTurn(at angle: Double) -> Bool {
        guard case .idle = state else { return false }
        showLeaf(.forward, at: angle)
        state = .turning(TurnTrack(direction: .forward, start: Point(x: Double(width), y: Double(height) / 2)))
        record("flip.began", at: now)
        return true
    }

    // MARK: - The one transition function

    /// What a gesture means in the current mode. Whatever is not listed means nothing there: input
    /// while the book opens does not draw, a pinch does not take over the fold keys' steps.
    private func transition(_ gesture: Gesture, at time: Double) {
        // Here, not in the switch: its subject holds a copy of `state`, and with it the live
        // stroke's points, so adding a point there copied the whole stroke.
        if case .shelf = state { return shelfTransition(gesture, at: time) }
        if case .closingBook = state {
            // The book is saved already: quitting (the app then ends on the shelf) and the window's keys still work.
            if case .command(.quit) = gesture { onRequest?(.quit) }
            if case .command(.toggleFullscreen) = gesture { onRequest?(.toggleFullscreen) }
            return
        }
        if case let .strokeMoved(p) = gesture, case .drawing = state { return extendStroke(to: PenSample(point: p), at: time) }
        if case let .penStrokeMoved(sample) = gesture, case .drawing = state { return extendStroke(to: sample, at: time) }
        switch (state, gesture) {
        case let (_, .command(command)):
            perform(command)
        case let (_, .tap(fingers)):
            // A tap is the undo or redo control's step, nothing more.
            guard let command: Command = fingers == 2 ? .undo : fingers == 3 ? .redo : nil else { break }
            record(command == .undo ? "tap.undo" : "tap.redo", at: time)
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
        case let (.idle, .strokeBegan(p)) where selection != nil, let (.idle, .eraseBegan(p)) where selection != nil:
            touchSelection(at: p, time: time)
        case let (.idle, .penStrokeBegan(sample)) where selection != nil:
            touchSelection(at: sample.point, time: time)
        case (.lassoing, _), (.selecting, _):
            lassoTransition(gesture, at: time)
        case let (.idle, .strokeBegan(p)):
            begin(tools.tool.used(by: .finger), at: PenSample(point: p), time: time)
        case let (.idle, .penStrokeBegan(sample)):
            begin(tools.tool.used(by: .pen), at: sample, time: time)
        case let (.idle, .eraseBegan(p)):
            begin(.eraser, at: PenSample(point: p), time: time)
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
        case (.folding(.pinch), .pinchWithdrawn):
            // The pages moved no further than a tap's fingers may: they close at once, unanimated.
            fold.close()
            state = .idle
            record("fold.withdrawn", at: time)
        case (.folding(.pinch), .pinchEnded):
            state = .unfolding
            fold.release { [unowned self] in
                state = .idle
                record("unfold.completed", at: transaction.now)
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
        case (.erasing, .undo), (.erasing, .redo), (.lassoing, .undo), (.lassoing, .redo), (.selecting, .undo), (.selecting, .redo):
            break  // the eraser's pass is not an edit yet, nor a lasso's contact
        case (_, .undo) where selection != nil, (_, .redo) where selection != nil,
             (.idle, .newSheet) where selection != nil, (.idle, .deleteSheet) where selection != nil:
            // These act on the sheet as the selection left it.
            endSelection(at: now)
            perform(command)
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
        case (_, .closeBook):
            closeBook()
        case (.idle, .nextSheet):
            turnByKey(.forward)
        case (.idle, .previousSheet):
            turnByKey(.backward)
        case (.idle, .newSheet):
            changeSheets { [paper] in $0.insertBlankSheet(paper: paper); return true }
        case (.idle, .deleteSheet):
            record("sheet.deleted", at: now)
            book.deleteCurrentSheet(paper: paper)
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
        case .play: beginPlayback()
        case .books: closeBook()
        case .eraser, .lasso: _ = tools.choose(action)
        case .paper: nextPaper()
        case .color, .width:
            _ = tools.choose(action)
            onRequest?(.choicesChanged)
        }
    }

    /// Sets the paper new sheets get (from the settings, at start). A book that is one blank
    /// sheet with nothing to undo (a new book) is a new sheet too: it takes the paper, without
    /// an undo step, so a first tap of undo never takes away paper nobody chose on it.
    public func useDefaultPaper(_ paper: Paper) {
        self.paper = paper
        guard paperNewBook() else { return }
        display.showSheet(book.sheet)
    }

    /// Gives a new book (one blank sheet, nothing to undo) the paper new sheets get, without an
    /// undo step; true when it changed.
    func paperNewBook() -> Bool {
        guard book.sheets.count == 1, book.sheet.isBlank, !book.sheet.canUndo, book.nextUndo == nil,
              book.sheet.paper != paper.forSheet else { return false }
        book = Sketchbook(sheets: [Sheet(paper: paper)])
        return true
    }

    /// The toolbar's paper: the next kind for new sheets, and for the sheet on the easel too
    /// while it has no ink (an undoable edit of that sheet; on a drawn sheet the paper stays, so
    /// a tap never changes what a drawing was made on).
    private func nextPaper() {
        paper.kind = paper.kind.next
        if mode == .idle, selection == nil, book.sheet.isBlank, book.setPaper(paper) { redrawAll() }
        onRequest?(.choicesChanged)
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
        if book.sheet.isBlank { disabled.insert(.play) }
        if shelf?.openBook == nil { disabled.insert(.books) }
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
        display.showSheet(book.sheet)
        record("sheet.changed", at: now)
    }

    /// The pages take the canvas and the curtain goes up, driven by `driver`.
    private func openCurtain(_ driver: Mode.FoldDriver) {
        toolbar.hide()
        fold.open(contents: display.canvas.baked)
        display.prepare(fold.scene.root)
        state = .folding(driver)
    }

    func beginPinch(at time: Double) {
        endSelection(at: time)
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
        endSelection(at: time)
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
            // From the last sheet the turn adds a blank one on the paper new sheets get.
            let next = book.isOnLastSheet ? Sheet(paper: paper) : book.sheets[book.currentSheet + 1]
            turn.begin(earlier: display.canvas.baked, later: display.otherSheetPicture(next), angle: angle)
        case .backward:
            let previous = book.sheets[book.currentSheet - 1]
            turn.begin(earlier: display.otherSheetPicture(previous), later: display.canvas.baked, angle: angle)
        }
        display.prepare(turn.scene)
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
        changeSheets { [paper] in direction == .forward ? $0.turnForward(paper: paper) : $0.goToPreviousSheet() }
        record("flip.completed", at: now)
    }

    // MARK: - The eraser

    /// Hides every stroke the eraser crosses on its way to `p` (removed from the book when the
    /// pass ends, as one undoable edit).
    private func erase(to p: Point) {
        guard case var .erasing(pass) = state else { return }
        let crossed = pass.move(to: p, over: book.sheet.strokes, radius: Self.eraserRadius)
        state = .erasing(pass)
        if crossed { display.rebuild(visibleStrokes) }
    }

    private func endErase(at time: Double) {
        guard case let .erasing(pass) = state else { return }
        state = .idle
        if !pass.crossed.isEmpty { book.erase(pass.crossed) }
        record("erase.ended", at: time)
    }

    // MARK: - Strokes

    /// A contact at `sample` begins whatever `tool` does.
    private func begin(_ tool: Tool, at sample: PenSample, time: Double) {
        switch tool {
        case .ink:
            beginStroke(at: sample, time: time)
        case .lasso:
            beginLoop(at: sample.point, time: time)
        case .eraser:
            state = .erasing(EraserPass(last: sample.point))
            toolbar.hide()
            record("erase.began", at: time)
            erase(to: sample.point)
        }
    }

    /// A stroke of the chosen ink; only a pen's samples carry pressure, and with it the curve.
    private func beginStroke(at sample: PenSample, time: Double) {
        let live = LiveStroke(start: sample, at: time, epoch: clockEpoch, style: ink, pressureCurve: sample.pressure != nil ? pressureCurve : nil)
        toolbar.hide()
        state = .drawing(live)
        record("stroke.began", at: time)
        display.drawLive(live, changed: live.stroke.bounds)
    }

    private func extendStroke(to sample: PenSample, at time: Double) {
        guard case var .drawing(live) = state else { return }
        state = .idle  // hands the stroke's storage over, so adding a point does not copy it
        if live.snapped != nil {
            let moved = live.drag(to: sample.point)
            state = .drawing(live)
            if moved { display.drawLive(live, changed: .null) }
            return
        }
        let changed = live.add(sample, at: time)
        state = .drawing(live)
        display.drawLive(live, changed: changed)
    }

    private func endStroke(at time: Double) {
        guard case let .drawing(live) = state else { return }
        state = .idle
        book.append(live.stroke)
        // A snapped stroke is its shape, one undo away from the stroke as drawn.
        if let shape = live.snapped?.stroke { book.reshapeNewest(to: shape) }
        display.bake(live.kept)
        record("stroke.ended", at: time)
        reportedClamp = false
    }

    // MARK: - Hold to shape

    /// When (ms) the live stroke's held end is to be recognised; nil when nothing waits.
    private var holdDeadline: Double? {
        guard holdToShape, case let .drawing(live) = state, live.snapped == nil else { return nil }
        return live.hold.deadline
    }

    /// Recognises the live stroke once its end has been held still long enough (`HoldTimer`) as
    /// of `now`: from the frame loop's clock, as a held finger sends nothing, and before any
    /// input at or after the deadline, so a replay snaps exactly where the app would.
    private func settleHold() {
        guard let deadline = holdDeadline, deadline <= now, case var .drawing(live) = state else { return }
        state = .idle
        let snapped = live.snap()
        state = .drawing(live)
        guard snapped, let kind = live.snapped?.shape.kind else { return }
        display.drawLive(live, changed: .null)
        record("shape.\(kind.rawValue)", at: deadline)
    }

    private func withdrawStroke(at time: Double) {
        guard case .drawing = state else { return }
        state = .idle
        display.clearLive()
        record("stroke.withdrawn", at: time)
        reportedClamp = false
    }

    /// The current sheet's strokes as the screen shows them: without those an eraser pass crossed.
    private var visibleStrokes: [Stroke] {
        guard case let .erasing(pass) = state else { return book.sheet.strokes }
        return pass.visible(book.sheet.strokes)
    }

    func redrawAll() {
        // Undo and redo change one stroke: the canvas redraws only its area (all of it for a paper).
        display.show(visibleStrokes, paper: book.sheet.paper)
        if case let .drawing(live) = state { display.drawLive(live, changed: live.stroke.bounds) }
    }

    private func damageWholeFrame() {
        display.damageWholeFrame()
    }

    private func resize(width requestedWidth: Int, height requestedHeight: Int, scale requestedScale: BufferScale) {
        let (width, height, scale, adjusted) = SurfaceLimits.fit(width: requestedWidth, height: requestedHeight, scale: requestedScale)
        if adjusted {
            onRequest?(.warn(SurfaceLimits.explain(width: requestedWidth, height: requestedHeight, scale: requestedScale,
                                                   fittedTo: (width, height, scale))))
        }
        guard width != self.width || height != self.height || scale != self.scale else { return }
        finishSelection(at: now)
        stopPlayback(showingSheet: false)
        let onlyScale = width == self.width && height == self.height
        let leafAngle = turn.angle
        self.width = width
        self.height = height
        self.scale = scale
        display.resize(width: width, height: height, scale: scale.factor)
        let scene = display.sceneSize
        fold.resize(width: scene.width, height: scene.height, contents: mode.showsCurtain ? display.canvas.baked : nil)
        turn.resize(width: scene.width, height: scene.height)
        recognizer.width = Double(width)
        shelf?.view.resize(width: scene.width, height: scene.height, pixelWidth: display.pixelWidth, pixelHeight: display.pixelHeight,
                           scale: scale.factor)
        toolbar.relayout(ToolbarLayout(width: Double(width), height: Double(height), scale: scale.factor))
        let heldTurn: Mode.TurnDirection? = if case let .turning(track) = state, onlyScale { track.direction } else { nil }
        if mode.isTurning && heldTurn == nil {
            // The pictures on the leaf were of the old size: the turn falls back at once.
            state = .idle
            record("flip.cancelled", at: now)
        }
        // The whole new frame changes; damage of the old size means nothing now.
        display.discardDamage()
        damageWholeFrame()
        redrawAll()
        // A fold goes on at the new size: the new renderer takes its pages, drawn again.
        if mode.showsCurtain && !mode.isTurning { display.prepare(fold.scene.root) }
        // A new scale alone (the window moved to another output) keeps a leaf the finger holds:
        // drawn again, crisp at the new scale, where the finger has it.
        if let heldTurn { showLeaf(heldTurn, at: leafAngle) }
    }

    func record(_ name: String, at time: Double) {
        timeline.append(TimelineEvent(time: time, name: name))
        if timeline.count / 2 >= timelineCapacity { timeline.removeFirst(timeline.count - timelineCapacity) }
    }
}
