import FolioGeometry
import FolioLayers
import FolioPixels
import FolioRender
import FolioSketchbook
import FolioToolbar
import FolioTools

/// What a `Session` draws with and what it has drawn since the last frame: the canvas, the page
/// renderer and its frame, the picture of the sheet a turn shows, the toolbar's image. The
/// session decides what is on screen (its mode); this type only draws it.
final class SessionDisplay {
    /// The flat canvas: the finished strokes baked, the live stroke over them.
    private(set) var canvas: CanvasRenderer
    /// How page frames are dressed (backdrop, shadows, render threads).
    var options = PageRenderOptions()
    /// The column kernels pages are drawn with (all give the same bytes): a new choice takes
    /// effect with a new renderer.
    var kernels = PageKernels.best {
        didSet { sceneRendererStorage = nil }
    }
    /// Whether the toolbar looks different from its last `renderToolbar(_:)`.
    var toolbarNeedsFrame = true
    /// Buffer pixels changed since the last `renderFrame(_:)`.
    var damage = Region.empty
    private var toolbarRenderer: ToolbarRenderer
    /// Pictures of big sheets kept with the open book, shown instead of drawing every stroke
    /// (each book opened from a shelf brings its own).
    var pictures: SheetPictureCache?
    /// The picture of the sheet a turn goes to or comes from (made on the first turn, kept).
    private var otherSheetStorage: CanvasRenderer?
    /// Made on the first fold or turn and kept (they are large): the renderer and the frame it draws.
    private var sceneRendererStorage: PageRenderer?
    private var sceneFrameStorage: Bitmap?
    /// Where the newest scene frame was drawn: a buffer given by `renderFrame(_:into:)`, else
    /// the scene frame of our own.
    private var shownSceneFrame: Bitmap?

    /// Drawing for a window of `width`×`height` logical pixels at `scale` (already fitted).
    init(width: Int, height: Int, scale: Double, pictures: SheetPictureCache?) {
        self.pictures = pictures
        canvas = CanvasRenderer(width: width, height: height, scale: scale)
        toolbarRenderer = ToolbarRenderer(scale: scale)
    }

    /// A new window size or scale: a new canvas (empty until strokes are shown on it) and toolbar
    /// renderer; the scene renderer and frame follow on their next use.
    func resize(width: Int, height: Int, scale: Double) {
        canvas = CanvasRenderer(width: width, height: height, scale: scale)
        shownSceneFrame = nil
        toolbarRenderer = ToolbarRenderer(scale: scale)
        toolbarNeedsFrame = true
    }

    // MARK: - Frames

    var pixelWidth: Int { canvas.frame.width }
    var pixelHeight: Int { canvas.frame.height }

    /// The logical size the page scenes span: the buffer over the scale (see `Session.sceneSize`).
    var sceneSize: Size {
        Size(width: Double(canvas.frame.width) / canvas.scale, height: Double(canvas.frame.height) / canvas.scale)
    }

    /// Whether a new frame would differ from the last one rendered.
    var needsFrame: Bool { !damage.isEmpty }

    /// The frame the screen shows: the newest scene frame when the curtain is up, else the canvas's.
    func frame(curtainUp: Bool) -> Bitmap { curtainUp ? shownSceneFrame ?? sceneFrame() : canvas.frame }

    /// A page scene on screen, and the time (ms) on its clock it is shown at.
    enum Scene {
        /// The fold's layer tree.
        case fold(Layer, at: Double)
        /// A page turn: its tree, and the leaf's back the renderer composes for it.
        case turn(PageTurnScene, at: Double)
    }

    /// Draws `scene` when something changed, and returns the buffer pixels that changed since the
    /// last call.
    func renderFrame(_ scene: Scene?) -> Region {
        defer { damage = Region.empty }
        guard !damage.isEmpty else { return damage }
        if let scene { render(scene, into: sceneFrame()) }
        return damage
    }

    /// Draws the frame into `target`, a buffer the compositor will read: a scene is drawn whole
    /// (the renderer writes every pixel); the canvas's pixels are copied where the frame changed
    /// and where the buffer lacks the frames before. Returns the buffer pixels that changed since
    /// the last frame.
    func renderFrame(_ scene: Scene?, into target: FrameTarget) -> Region {
        defer { damage = Region.empty }
        guard !damage.isEmpty || !target.missing.isEmpty else { return damage }
        if let scene {
            render(scene, into: target.bitmap)
        } else {
            for rect in target.missing.union(damage).rectangles { target.bitmap.copy(rect, from: canvas.frame) }
        }
        return damage
    }

    private func render(_ scene: Scene, into target: Bitmap) {
        switch scene {
        case let .fold(root, time):
            sceneRenderer().render(root, at: time, into: target, options: options)
        case let .turn(turn, time):
            sceneRenderer().render(turn, at: time, into: target, options: options)
        }
        shownSceneFrame = target
    }

    /// Takes the pages of the tree under `root` into the renderer (once per gesture: it is slow).
    func prepare(_ root: Layer) {
        sceneRenderer().prepare(root)
    }

    /// Takes a page turn's pages, and the drawing that shows through its leaf, into the renderer.
    func prepare(_ turn: PageTurnScene) {
        sceneRenderer().prepare(turn)
    }

    /// Makes the renderer, its frame and its backdrop ahead of the first fold by drawing the fold's
    /// tree under `root` once (at `time` on its clock).
    func prepareToFold(_ root: Layer, at time: Double) {
        let renderer = sceneRenderer()
        renderer.prepare(root)
        renderer.render(root, at: time, into: sceneFrame(), options: options)
    }

    /// Draws the toolbar as it is now, `tools` marked chosen (buffer pixels), and where it goes
    /// (logical px).
    func renderToolbar(_ toolbar: Toolbar, tools: ToolState) -> (image: Bitmap, origin: Point) {
        toolbarNeedsFrame = false
        return (toolbarRenderer.render(toolbar, tools: tools), toolbar.layout.shownBounds.origin)
    }

    /// The whole frame changes.
    func damageWholeFrame() {
        damage.formUnion(canvas.frame.bounds)
    }

    /// Forgets what changed: after a resize, damage of the old size means nothing.
    func discardDamage() {
        damage = Region.empty
    }

    // MARK: - The canvas

    /// Puts a whole sheet on the canvas: from its kept picture where there is one.
    func showSheet(_ sheet: Sheet) {
        damage.formUnion(draw(sheet.strokes, paper: sheet.paper, on: canvas))
    }

    /// Shows `strokes` on `paper` after an undo or redo: only the area of what differs is drawn
    /// again (everything, when the paper changed).
    func show(_ strokes: [Stroke], paper: Paper) {
        damage.formUnion(paper == canvas.sheetPaper ? canvas.show(strokes: strokes) : canvas.rebuild(strokes: strokes, paper: paper))
    }

    /// Draws the canvas again from `strokes` (the eraser hid some).
    func rebuild(_ strokes: [Stroke]) {
        damage.formUnion(canvas.rebuild(strokes: strokes))
    }

    /// Draws the live stroke over the canvas where `changed` (logical px) says it may differ, with
    /// `predicted` ink past its end in place of any drawn before; a snapped stroke, its shape whole.
    func drawLive(_ live: LiveStroke, changed: Rect, predicted: PredictedInk? = nil) {
        if let shape = live.snapped?.stroke { return drawShape(shape) }
        damage.formUnion(canvas.drawLive(live.path, tail: live.tail, style: live.stroke.style, changed: changed,
                                         pressures: live.pressurePath, pressureTail: live.pressureTail,
                                         curve: live.pressureCurve, predicted: predicted))
    }

    /// Draws a snapped stroke's shape as the live stroke, in place of whatever was live: drawn
    /// whole, as it may change anywhere when the held end resizes it.
    private func drawShape(_ shape: Stroke) {
        damage.formUnion(canvas.clearLive())
        damage.formUnion(canvas.drawLive(shape.path, tail: nil, style: shape.style, changed: shape.bounds,
                                         pressures: shape.pressurePath, curve: shape.hasPressure ? shape.pressureCurve : nil))
    }

    /// Bakes a finished stroke into the canvas.
    func bake(_ stroke: Stroke) {
        damage.formUnion(canvas.bake(stroke))
    }

    /// Withdraws the live stroke: the canvas shows the finished strokes alone.
    func clearLive() {
        damage.formUnion(canvas.clearLive())
    }

    /// The picture of another sheet, at the canvas's size.
    func otherSheetPicture(_ sheet: Sheet) -> Bitmap {
        let other: CanvasRenderer
        if let stored = otherSheetStorage, stored.baked.width == pixelWidth, stored.baked.height == pixelHeight {
            other = stored
        } else {
            other = CanvasRenderer(width: Int(canvas.size.width), height: Int(canvas.size.height), scale: canvas.scale)
            otherSheetStorage = other
        }
        if other.strokes != sheet.strokes || other.sheetPaper != sheet.paper { _ = draw(sheet.strokes, paper: sheet.paper, on: other) }
        return other.baked
    }

    /// Keeps the picture of the sheet on the easel with `book` when it is big, and drops the
    /// pictures of strokes the book no longer has.
    func keepPicture(of book: Sketchbook) throws {
        let picture = canvas.strokes.count >= SheetPictureCache.worthKeeping ? canvas.picture() : nil
        try pictures?.keep(picture, book: book)
    }

    /// Draws `strokes` on `paper` on `canvas`: from their kept picture where there is one, else
    /// stroke by stroke.
    private func draw(_ strokes: [Stroke], paper: Paper, on canvas: CanvasRenderer) -> PixelRect {
        if let picture = pictures?.picture(of: strokes, paper: paper, width: canvas.baked.width, height: canvas.baked.height,
                                           scale: canvas.scale),
           canvas.show(strokes: strokes, from: picture, paper: paper) {
            return canvas.frame.bounds
        }
        return canvas.rebuild(strokes: strokes, paper: paper)
    }

    // MARK: - The page renderer

    private func sceneRenderer() -> PageRenderer {
        if let renderer = sceneRendererStorage, renderer.pixelWidth == pixelWidth, renderer.pixelHeight == pixelHeight,
           renderer.scale == canvas.scale {
            return renderer
        }
        let renderer = PageRenderer(pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: canvas.scale, kernels: kernels)
        sceneRendererStorage = renderer
        return renderer
    }

    private func sceneFrame() -> Bitmap {
        if let bitmap = sceneFrameStorage, bitmap.width == pixelWidth, bitmap.height == pixelHeight { return bitmap }
        let bitmap = Bitmap(width: pixelWidth, height: pixelHeight)
        sceneFrameStorage = bitmap
        return bitmap
    }
}
