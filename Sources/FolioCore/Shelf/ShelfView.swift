import FolioGeometry
import FolioLayers
import FolioPixels
import FolioRender
import FolioShelf
#if canImport(Glibc)
import Glibc
#endif

/// The shelf on screen: the books of a `BookShelf` as covers in a `ShelfScene`, scrolled by a
/// finger (`ShelfScroller`), hit-tested, and drawn by a `ShelfRenderer` into a frame of its own,
/// only where something changed (a glide changes the whole frame; a new cover colour, its cover).
public final class ShelfView {
    public let shelf: BookShelf
    /// The books as last read from the shelf, in shelf order.
    public private(set) var books: [ShelfBook] = []
    public let scene: ShelfScene
    public private(set) var scroller = ShelfScroller()
    public private(set) var width: Double
    public private(set) var height: Double
    public private(set) var scale: Double
    /// The shelf's frame: buffer pixels, kept between frames.
    public private(set) var frame: Bitmap
    /// How the shelf is dressed: the fold's backdrop and shadows.
    public var options = PageRenderOptions() {
        didSet { damageAll() }
    }
    /// Buffer pixels changed since the last `render`.
    public private(set) var damage = Region.empty
    private var renderer: ShelfRenderer
    /// Each book's cover art, the look it was drawn for and the picture on it (held, so that no
    /// other picture takes its identity in the look).
    private var art: [String: (look: CoverLook, bitmap: Bitmap, picture: Bitmap?)] = [:]
    /// What each cover on screen showed when last laid out, by shelf index.
    private var shown: [Int: CoverLook] = [:]
    /// Where the finger landed and whether it has moved beyond a tap.
    private var contact: (start: Point, dragged: Bool)?
    /// The shelf's controls, above the covers.
    public private(set) var bar: ShelfBar
    /// The control waiting for a tap on a cover (recolour or delete), lit on the bar.
    public var choosing: ShelfControl? {
        didSet { if choosing != oldValue { damageBar() } }
    }
    /// Controls that would do nothing (undo with nothing deleted), drawn faded.
    public var disabledControls: Set<ShelfControl> = [] {
        didSet { if disabledControls != oldValue { damageBar() } }
    }
    /// The book whose name is being typed, and the name so far: its cover shows it with a caret.
    public var editing: (id: String, name: String)? {
        didSet {
            if editing == nil { composing = "" }
            guard editing?.id != oldValue?.id || editing?.name != oldValue?.name else { return }
            layOut()
        }
    }
    /// What an input method composes at the caret of the name being typed (not yet part of it).
    public var composing = "" {
        didSet { if composing != oldValue, editing != nil { layOut() } }
    }
    /// The bar's image and the look it was drawn for.
    private var barArt: (look: [String], bitmap: Bitmap, origin: PixelRect)?

    /// What a tap on the shelf landed on.
    public enum Tap: Equatable {
        case book(ShelfBook)
        case control(ShelfControl)
        /// Neither: a tap on the backdrop.
        case nothing
    }

    /// A finger moving farther than this (logical px) scrolls rather than taps.
    public static let tapSlop = 10.0

    /// What a cover shows: when it changes, the cover is drawn again.
    struct CoverLook: Equatable {
        var id: String
        var name: String
        var color: UInt32
        var picture: ObjectIdentifier?
        var size: Size
        var scale: Double
    }

    /// The shelf for a window of `width`×`height` logical pixels at `scale`; `pixelWidth`×`pixelHeight`
    /// is its buffer (the session's, rounded as it rounds).
    public init(shelf: BookShelf, width: Double, height: Double, pixelWidth: Int, pixelHeight: Int, scale: Double) {
        self.shelf = shelf
        self.width = width
        self.height = height
        self.scale = scale
        frame = Bitmap.onHugePages(width: pixelWidth, height: pixelHeight)
        renderer = ShelfRenderer(pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale)
        scene = ShelfScene(layout: ShelfLayout(width: width, height: height, count: 0))
        bar = ShelfBar(width: width)
        reload()
        damageAll()
    }

    /// Reads the books again (one was made, deleted, renamed, recoloured, or drawn in): covers
    /// that look different are drawn again, and only their part of the frame changes.
    public func reload() {
        books = shelf.books
        pictures = [:]
        let ids = Set(books.map(\.id))
        art = art.filter { ids.contains($0.key) }
        layOut()
    }

    /// Book `id`'s cover picture was drawn again (in the background): its cover is drawn again
    /// with it, if it shows, and nothing else.
    public func coverChanged(id: String) {
        guard pictures[id] != nil else { return }
        pictures[id] = nil
        layOut()
    }

    /// The cover pictures the shelf gave since the last reload (asked for only as covers show:
    /// a long shelf's first frame reads the pictures on screen, not all of them).
    private var pictures: [String: Bitmap?] = [:]

    /// A new window size or scale: everything is laid out and drawn again.
    public func resize(width: Double, height: Double, pixelWidth: Int, pixelHeight: Int, scale: Double) {
        self.width = width
        self.height = height
        self.scale = scale
        if frame.width != pixelWidth || frame.height != pixelHeight || renderer.scale != scale {
            frame = Bitmap.onHugePages(width: pixelWidth, height: pixelHeight)
            renderer = ShelfRenderer(pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale)
        }
        shown = [:]
        bar = ShelfBar(width: width)
        layOut()
        damageAll()
    }

    /// The whole frame is to be drawn again.
    public func damageAll() {
        damage.formUnion(frame.bounds)
    }

    /// The book whose cover is at `p` (logical px), if any.
    public func book(at p: Point) -> ShelfBook? {
        scene.coverIndex(at: p).flatMap { books.indices.contains($0) ? books[$0] : nil }
    }

    /// Where book `id`'s cover shows on screen (logical px), if it is laid out.
    public func screenQuad(of id: String) -> Quad? {
        books.firstIndex { $0.id == id }.flatMap { scene.screenQuad(of: $0) }
    }

    // MARK: - A finger or the mouse

    /// A contact began at `p`: a glide stops under it.
    public func press(at p: Point, time: Double) {
        contact = (p, false)
        scroller.begin(y: p.y, at: time)
    }

    /// The contact moved: past the tap slop it scrolls the shelf.
    public func move(to p: Point, time: Double) {
        guard var current = contact else { return }
        if !current.dragged, current.start.distance(to: p) > Self.tapSlop { current.dragged = true }
        contact = current
        guard current.dragged, scroller.move(y: p.y, at: time) else { return }
        layOut()
        damageAll()
    }

    /// The contact lifted (or was taken away: `cancelled`). A tap returns what it landed on: a
    /// control of the bar (over the covers), else the book under it; a drag, nil.
    public func release(time: Double, cancelled: Bool = false) -> Tap? {
        guard let current = contact else { return nil }
        contact = nil
        scroller.end(at: time)
        guard !current.dragged, !cancelled else { return nil }
        if let control = bar.control(at: current.start) { return .control(control) }
        return book(at: current.start).map(Tap.book) ?? .nothing
    }

    /// Whether the shelf glides (frames are wanted without input).
    public var isGliding: Bool { scroller.isGliding }

    /// The glide at `time` (ms).
    public func advance(to time: Double) {
        guard scroller.advance(to: time) else { return }
        layOut()
        damageAll()
    }

    // MARK: - Frames

    /// Brings `frame` up to date and returns the buffer pixels that changed.
    public func render() -> Region {
        defer { damage = Region.empty }
        guard !damage.isEmpty else { return damage }
        let clip = damage.bounds
        renderer.render(scene.root, into: frame, clip: clip, options: options)
        drawBar(clip: clip)
        return damage
    }

    /// Draws the shelf into `target` (a buffer the compositor will read) where it changed and
    /// where the buffer lacks earlier frames (`missing`); returns what changed.
    public func render(into target: Bitmap, missing: Region) -> Region {
        let changed = render()
        for rect in missing.union(changed).rectangles { target.copy(rect, from: frame) }
        return changed
    }

    // MARK: - The bar

    private func damageBar() {
        damage.formUnion(PixelRect(covering: bar.bounds, scale: scale).intersection(frame.bounds))
    }

    /// The bar over the covers, where `clip` reaches it.
    private func drawBar(clip: PixelRect) {
        let area = PixelRect(covering: bar.bounds, scale: scale)
        guard !area.intersection(clip).isEmpty else { return }
        let controls = bar.slots.map(\.control)
        let look = controls.map { "\($0.rawValue):\($0 == choosing):\(disabledControls.contains($0))" }
        if barArt?.look != look || barArt?.origin != area {
            let origin = Point(x: Double(area.x) / scale, y: Double(area.y) / scale)
            let bitmap = ShelfBarArt.draw(faces: controls.map(\.face), rects: bar.slots.map(\.rect),
                                          chosen: choosing.flatMap { controls.firstIndex(of: $0) },
                                          disabled: Set(controls.indices.filter { disabledControls.contains(controls[$0]) }),
                                          origin: origin, size: Size(width: Double(area.width) / scale, height: Double(area.height) / scale),
                                          scale: scale)
            barArt = (look, bitmap, area)
        }
        guard let art = barArt else { return }
        ShelfBarArt.draw(art.bitmap, over: frame, atX: area.x, y: area.y, clip: clip)
    }

    // MARK: - Layout

    private func layOut() {
        let layout = ShelfLayout(width: width, height: height, count: books.count)
        scroller.setLimit(layout.maximumScroll)
        let before = shown
        shown = [:]
        scene.update(layout: layout, scroll: scroller.offset) { index in
            let cover = coverArt(books[index], size: layout.coverSize)
            shown[index] = cover.look
            return cover.bitmap
        }
        // Covers whose look changed are drawn again, with their shadows; the rest stays.
        for (index, look) in shown where before[index] != look {
            damageCover(index)
        }
        for index in before.keys where shown[index] == nil {
            damageAll()
            break
        }
    }

    private func damageCover(_ index: Int) {
        guard let quad = scene.screenQuad(of: index) else { return damageAll() }
        let reach = ShelfScene.shadowReach
        let box = quad.boundingBox.insetBy(dx: -reach, dy: -reach)
        damage.formUnion(PixelRect(covering: box, scale: scale).intersection(frame.bounds))
    }

    private func coverArt(_ book: ShelfBook, size: Size) -> (look: CoverLook, bitmap: Bitmap) {
        let picture: Bitmap?
        if let known = pictures[book.id] {
            picture = known
        } else {
            picture = Self.same(shelf.coverPicture(id: book.id), as: art[book.id]?.picture)
            pictures[book.id] = .some(picture)
        }
        let name = editing.flatMap { $0.id == book.id ? $0.name + composing + "|" : nil } ?? book.name
        let look = CoverLook(id: book.id, name: name, color: book.coverColor, picture: picture.map(ObjectIdentifier.init),
                             size: size, scale: scale)
        if let kept = art[book.id], kept.look == look { return (kept.look, kept.bitmap) }
        let bitmap = CoverArt.draw(name: name, color: book.coverColor, picture: picture, width: size.width, height: size.height, scale: scale,
                                   keepingEnd: editing?.id == book.id)
        art[book.id] = (look, bitmap, picture)
        return (look, bitmap)
    }

    /// `picture`, or `kept` when it shows the same pixels: a shelf on disk hands out a new bitmap
    /// of a cover each time it is asked, and a cover that did not change is not drawn again.
    private static func same(_ picture: Bitmap?, as kept: Bitmap?) -> Bitmap? {
        guard let picture, let kept, picture !== kept, picture.width == kept.width, picture.height == kept.height else { return picture }
        let row = picture.width * 4
        for y in 0..<picture.height where memcmp(picture.pixels + y * picture.stride, kept.pixels + y * kept.stride, row) != 0 {
            return picture
        }
        return kept
    }
}
