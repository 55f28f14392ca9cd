import Dispatch
import FolioSketchbook

/// Keeps the picture of the sheet on the easel fresh while the app runs, so that a first open
/// after a crash starts from a recent picture: once neither the book nor input has changed for `idleDelay`,
/// and the sheet is big and its kept picture lags behind it by `lagWorthRedrawing` strokes or
/// more, a background queue draws the missing strokes over the kept picture (or the whole sheet,
/// when none matches) on a canvas of its own and keeps the result. Frames never wait for it.
public final class SheetPictureKeeper: Sendable {
    /// How long the book must stay unchanged before the picture is brought up to date.
    public static let idleDelay = Duration.seconds(2)
    /// A picture behind its sheet by fewer strokes is left as it is: drawing them at open is quick.
    public static let lagWorthRedrawing = 32

    /// The canvas the pictures must fit: the live canvas's size in logical pixels and its scale.
    public struct Canvas: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public var scale: Double

        public init(width: Int, height: Int, scale: Double) {
            self.width = width
            self.height = height
            self.scale = scale
        }
    }

    private struct State {
        var book: Sketchbook?
        var canvas: Canvas?
        /// Bumped by every change: a refresh armed before the latest change does nothing.
        var generation = 0
        /// The last input's time: a refresh waits until input has stopped for `idleDelay` too.
        var lastInput: ContinuousClock.Instant?
        var closed = false
    }

    private let cache: SheetPictureCache
    private let state = Locked(State())
    /// Held while a picture file is written or removed, so `close` can wait for the file work.
    private let files = SerialLock()
    private let timer: any SaveTimer
    private let report: @Sendable (String) -> Void

    /// `timer` defaults to a background queue's clock; `report` gets a failure to keep a picture.
    public init(cache: SheetPictureCache, timer: (any SaveTimer)? = nil, report: @escaping @Sendable (String) -> Void) {
        self.cache = cache
        self.timer = timer ?? DispatchSaveTimer(queue: DispatchQueue(label: "folio.pictures", qos: .utility))
        self.report = report
    }

    /// The book changed (or the canvas did): the picture is refreshed once both stay so for `idleDelay`.
    public func changed(_ book: Sketchbook, canvas: Canvas) {
        let generation = state.withLock { state -> Int? in
            guard !state.closed else { return nil }
            state.book = book
            state.canvas = canvas
            state.generation += 1
            return state.generation
        }
        guard let generation else { return }
        timer.after(Self.idleDelay) { self.refresh(ifStill: generation) }
    }

    /// Input arrived (a stroke under way, a pinch): the refresh waits until it has stopped.
    public func inputArrived() {
        state.withLock { $0.lastInput = .now }
    }

    /// Stops refreshing: after it returns no picture file is written (at quit, before the
    /// canvas's own picture is kept). Waits for a file being written, not for a drawing.
    public func close() {
        state.withLock { $0.closed = true }
        files.withLock {}
    }

    /// Brings the picture of the current sheet up to date if nothing changed since `generation`.
    /// Returns whether a picture was kept.
    @discardableResult
    func refresh(ifStill generation: Int) -> Bool {
        guard let (book, canvas, quietFor) = state.withLock({ state -> (Sketchbook, Canvas, Duration)? in
            guard !state.closed, state.generation == generation, let book = state.book, let canvas = state.canvas else { return nil }
            return (book, canvas, state.lastInput.map { .now - $0 } ?? Self.idleDelay)
        }) else { return false }
        guard quietFor >= Self.idleDelay else {
            timer.after(Self.idleDelay - quietFor) { self.refresh(ifStill: generation) }
            return false
        }
        let strokes = book.sheet.strokes, paper = book.sheet.paper
        guard strokes.count >= SheetPictureCache.worthKeeping else { return false }
        let pixels = CanvasRenderer(width: canvas.width, height: canvas.height, scale: canvas.scale)
        let kept = cache.picture(of: strokes, paper: paper, width: pixels.baked.width, height: pixels.baked.height, scale: canvas.scale)
        guard strokes.count - (kept?.coveredCount ?? 0) >= Self.lagWorthRedrawing else { return false }
        if let kept, pixels.show(strokes: strokes, from: kept, paper: paper) {} else { pixels.rebuild(strokes: strokes, paper: paper) }
        let picture = pixels.picture()
        return files.withLock {
            guard !state.withLock({ $0.closed }) else { return false }
            do {
                try cache.keep(picture, book: book)
                return true
            } catch {
                report("\(error); the sheet will be drawn from its strokes next time")
                return false
            }
        }
    }
}
