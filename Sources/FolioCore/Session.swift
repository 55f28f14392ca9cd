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
    public let fold: FoldController
    /// Logical size in surface pixels.
    public private(set) var width: Int
    public private(set) var height: Int
    /// Buffer pixels per logical pixel.
    public private(set) var scale: Int
    /// Called when the session needs the window to do something (fullscreen, quit, save).
    public var onRequest: ((SessionRequest) -> Void)?

    private var recognizer = GestureRecognizer()
    private var canvas: CanvasRenderer
    private var live: LiveStroke?
    /// Made on the first fold and kept (they are large): the renderer and the frame it draws.
    private var foldRendererStorage: FoldRenderer?
    private var foldFrameStorage: Bitmap?
    /// Whether the fold follows a pinch now (not keyboard steps).
    private var pinching = false
    private var damage = Region.empty
    private var now = 0.0

    public init(book: Sketchbook = Sketchbook(), width: Int, height: Int, scale: Int = 1) {
        self.book = book
        self.width = width
        self.height = height
        self.scale = scale
        canvas = CanvasRenderer(width: width, height: height, scale: Double(scale))
        fold = FoldController(width: Double(width), height: Double(height))
        damage = Region(canvas.rebuild(strokes: book.sheet.strokes))
        fold.onUnfoldCompleted = { [unowned self] time in
            record("unfold.completed", at: time)
            damage = damage.union(canvas.frame.bounds)
        }
    }

    /// How fold frames are dressed (backdrop, shadows, render threads).
    public var foldOptions = FoldRenderOptions()

    /// The frame the screen shows, as of the last `renderFrame()`.
    public var frame: Bitmap { fold.isFolded ? foldFrame() : canvas.frame }
    public var pixelWidth: Int { canvas.frame.width }
    public var pixelHeight: Int { canvas.frame.height }

    /// Whether a new frame would differ from the last one rendered.
    public var needsFrame: Bool { !damage.isEmpty }

    /// Brings `frame` up to date and returns the buffer pixels that changed since the last call.
    /// Stroke work happens as input arrives; fold frames are drawn here, once per frame, from
    /// the newest state, so pinch updates never queue behind each other.
    public func renderFrame() -> Region {
        defer { damage = Region.empty }
        if fold.isFolded, !damage.isEmpty {
            foldRenderer().render(pageTransforms: fold.pageTransforms, into: foldFrame(), options: foldOptions)
        }
        return damage
    }

    /// Whether the animation clock must keep ticking (frames wanted even without input).
    public var isAnimating: Bool { fold.isAnimating }

    /// Whether a finger (or the mouse) is drawing right now.
    public var isDrawing: Bool { live != nil }

    /// Feeds one input event that happened at `time` (ms).
    public func handle(_ event: InputEvent, at time: Double) {
        now = max(now, time)
        fold.advance(to: now)
        if case let .resize(width, height, scale) = event {
            resize(width: width, height: height, scale: scale ?? self.scale)
            return
        }
        for gesture in recognizer.handle(event, time: time) {
            apply(gesture, at: time)
        }
    }

    /// Moves the animation clock to `time` (ms): called once per frame by whoever paces frames.
    public func advance(to time: Double) {
        now = max(now, time)
        fold.advance(to: now)
        if fold.isAnimating { damage = damage.union(canvas.frame.bounds) }
    }

    /// Builds the fold renderer, its frame and its backdrop texture ahead of the first pinch (one
    /// untimed frame does it): they are large, and making them when the fingers land would delay
    /// the first fold frame. The pinch then pays only for taking the pages from the canvas.
    public func prepareToFold() {
        guard !fold.isFolded else { return }
        let renderer = foldRenderer()
        renderer.prepare(canvas: canvas.baked)
        renderer.render(foldScale: 1, into: foldFrame(), options: foldOptions)
    }

    /// Ends whatever is being drawn and keeps it: the compositor went away, or the app quits.
    public func finishActiveStroke() {
        if live != nil { endStroke(at: now) }
    }

    // MARK: - Gestures

    private func apply(_ gesture: Gesture, at time: Double) {
        switch gesture {
        case let .strokeBegan(p):
            guard !fold.isFolded else { return }  // input during the fold does not draw
            beginStroke(at: p, time: time)
        case let .strokeMoved(p):
            extendStroke(to: p)
        case .strokeEnded:
            if live != nil { endStroke(at: time) }
        case .strokeWithdrawn:
            withdrawStroke(at: time)
        case .pinchBegan:
            guard fold.phase == .idle else { return }  // a pinch during the unfold is ignored
            foldRenderer().prepare(canvas: canvas.baked)
            fold.begin(contents: canvas.baked)
            pinching = true
            damage = damage.union(canvas.frame.bounds)
            record("fold.began", at: time)
        case let .pinchChanged(rawScale):
            guard pinching else { return }
            if fold.track(rawScale) { damage = damage.union(canvas.frame.bounds) }
        case .pinchEnded:
            guard pinching else { return }
            pinching = false
            fold.release()
            record("fold.ended", at: time)
        case let .command(command):
            perform(command)
        }
    }

    private func perform(_ command: Command) {
        switch command {
        case .undo:
            guard book.sheet.canUndo else { return }
            book.sheet.undo()
            redrawAll()
        case .redo:
            guard book.sheet.canRedo else { return }
            book.sheet.redo()
            redrawAll()
        case .toggleFullscreen:
            onRequest?(.toggleFullscreen)
        case .quit:
            finishActiveStroke()
            onRequest?(.quit)
        case .save:
            onRequest?(.save)
        case .foldStep:
            guard !pinching, !isDrawing, fold.phase != .animating else { return }
            if fold.phase == .idle { foldRenderer().prepare(canvas: canvas.baked) }
            fold.foldStep(contents: canvas.baked)
            damage = damage.union(canvas.frame.bounds)
        case .unfoldStep:
            guard !pinching, fold.phase == .tracking else { return }
            fold.unfoldSteps()
            damage = damage.union(canvas.frame.bounds)
        }
    }

    // MARK: - Strokes

    private func beginStroke(at p: Point, time: Double) {
        live = LiveStroke(start: p)
        record("stroke.began", at: time)
        if let live { draw(live, changed: live.stroke.bounds) }
    }

    private func extendStroke(to p: Point) {
        guard var stroke = live else { return }
        let changed = stroke.add(p)
        live = stroke
        draw(stroke, changed: changed)
    }

    private func endStroke(at time: Double) {
        guard let stroke = live?.stroke else { return }
        live = nil
        book.sheet.append(stroke)
        damage = damage.union(canvas.bake(stroke))
        record("stroke.ended", at: time)
    }

    private func withdrawStroke(at time: Double) {
        guard live != nil else { return }
        live = nil
        damage = damage.union(canvas.clearLive())
        record("stroke.withdrawn", at: time)
    }

    private func draw(_ live: LiveStroke, changed: Rect) {
        damage = damage.union(canvas.drawLive(live.path, tail: live.tail, style: live.stroke.style, changed: changed))
    }

    private func redrawAll() {
        damage = damage.union(canvas.rebuild(strokes: book.sheet.strokes))
        if let live { draw(live, changed: live.stroke.bounds) }
    }

    private func resize(width: Int, height: Int, scale: Int) {
        guard width != self.width || height != self.height || scale != self.scale else { return }
        self.width = width
        self.height = height
        self.scale = scale
        canvas = CanvasRenderer(width: width, height: height, scale: Double(scale))
        fold.resize(width: Double(width), height: Double(height))
        // The whole new frame changes; damage of the old size means nothing now.
        damage = Region.empty
        redrawAll()
    }

    private func foldRenderer() -> FoldRenderer {
        if let renderer = foldRendererStorage, renderer.pixelWidth == pixelWidth, renderer.pixelHeight == pixelHeight {
            return renderer
        }
        let renderer = FoldRenderer(pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: Double(scale))
        if fold.isFolded { renderer.prepare(canvas: canvas.baked) }
        foldRendererStorage = renderer
        return renderer
    }

    private func foldFrame() -> Bitmap {
        if let bitmap = foldFrameStorage, bitmap.width == pixelWidth, bitmap.height == pixelHeight { return bitmap }
        let bitmap = Bitmap(width: pixelWidth, height: pixelHeight)
        foldFrameStorage = bitmap
        return bitmap
    }

    private func record(_ name: String, at time: Double) {
        timeline.append(TimelineEvent(time: time, name: name))
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
