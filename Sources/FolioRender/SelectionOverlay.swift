import FolioGeometry
import FolioPixels
import FolioSketchbook
import FolioToolbar

/// A lasso's selection on the canvas's frame: the selected strokes lifted off the canvas with a
/// highlight under them, a dashed box round them, and the bar beside it. They are drawn once,
/// into an image of their own, when the selection is made; moving them then costs copying the
/// area they leave and the area they take (the canvas without them is kept too), never drawing
/// a stroke, however many are selected. The baked canvas is left as it is.
public final class SelectionOverlay {
    /// The highlight under selected strokes: a pale blue halo, `highlightGrowth / 2` round the ink.
    public static let highlight: UInt32 = 0xA8CCFF
    public static let highlightGrowth = 8.0
    /// How far the box stands off the selected ink (logical px).
    public static let boxMargin = 4.0
    static let barColor: UInt32 = 0xEEEEEE
    static let barEdgeColor: UInt32 = 0xC4C4C4
    static let iconColor: UInt32 = 0x2A2A2A

    private let canvas: CanvasRenderer
    /// The canvas without the selected strokes.
    private let under: Bitmap
    /// The selected strokes and their highlight, clear elsewhere, over `liftedArea`.
    private let lifted: Bitmap
    private let liftedArea: PixelRect
    /// The box round the selected ink where it was selected (logical px).
    public let box: Rect
    /// What the overlay painted in the frame last (buffer px).
    private var shown: [PixelRect] = []
    private let ink = InkRasterizer()

    /// Lifts `strokes[selected]` off `canvas`, which shows `strokes`.
    public init(canvas: CanvasRenderer, strokes: [Stroke], selected: [Int]) {
        self.canvas = canvas
        let scale = canvas.scale
        let chosen = Set(selected)
        box = selected.reduce(Rect.null) { $0.union(strokes[$1].bounds) }
            .insetBy(dx: -Self.highlightGrowth / 2 - Self.boxMargin, dy: -Self.highlightGrowth / 2 - Self.boxMargin)

        under = Bitmap(width: canvas.baked.width, height: canvas.baked.height)
        under.copy(under.bounds, from: canvas.baked)
        let left = selected.reduce(PixelRect.empty) { $0.union(canvas.reach(of: strokes[$1])) }
        if !left.isEmpty {
            canvas.fillPaper(under, in: left)
            for (index, stroke) in strokes.enumerated() where !chosen.contains(index) && !canvas.reach(of: stroke).intersection(left).isEmpty {
                canvas.draw(stroke, into: under, clip: left)
            }
        }

        liftedArea = PixelRect(covering: box, scale: scale).intersection(canvas.baked.bounds)
        lifted = Bitmap(width: max(liftedArea.width, 1), height: max(liftedArea.height, 1))
        // Drawn relative to the image's corner: the strokes moved by it, in logical px.
        let corner = Point(x: -Double(liftedArea.x) / scale, y: -Double(liftedArea.y) / scale)
        let moved = selected.map { strokes[$0].moved(by: corner) }
        for stroke in moved { canvas.draw(stroke, into: lifted, clip: lifted.bounds) }
        Halo.add(under: lifted, radius: Int((Self.highlightGrowth / 2 * scale).rounded()), color: Self.highlight)
    }

    /// `offset` (logical px) rounded to whole buffer pixels, so the lifted image moves exactly as
    /// the strokes will.
    public func snapped(_ offset: Point) -> Point {
        let scale = canvas.scale
        return Point(x: (offset.x * scale).rounded() / scale, y: (offset.y * scale).rounded() / scale)
    }

    /// Shows the selection moved by `offset` (logical px, `snapped`), with `bar` drawn in
    /// `colors` (the palette's). Returns the damage: where it was and where it is.
    public func show(offset: Point, bar: SelectionBar?, colors: [UInt32]) -> [PixelRect] {
        let scale = canvas.scale, frame = canvas.frame
        let dx = Int((offset.x * scale).rounded()), dy = Int((offset.y * scale).rounded())
        let moved = Rect(origin: box.origin + offset, size: box.size)
        var now = [PixelRect(covering: moved.insetBy(dx: -Dashes.width, dy: -Dashes.width), scale: scale)]
        if let bar { now.append(PixelRect(covering: bar.rect, scale: scale)) }
        now = now.map { $0.intersection(frame.bounds) }
        let damage = shown + now
        for area in damage { frame.copy(area, from: under) }
        frame.draw(lifted, atX: liftedArea.x + dx, y: liftedArea.y + dy)
        var dashes = Dashes()
        let corners = [moved.origin, Point(x: moved.maxX, y: moved.minY), Point(x: moved.maxX, y: moved.maxY),
                       Point(x: moved.minX, y: moved.maxY), moved.origin]
        let visible = Dashes.visible(on: canvas)
        let segments = zip(corners, corners.dropFirst()).flatMap { dashes.segments(from: $0, to: $1, within: visible) }
        _ = Dashes.draw(segments, with: ink, into: frame, scale: scale, clip: frame.bounds)
        if let bar { draw(bar, colors: colors) }
        shown = now
        return damage
    }

    /// Takes the selection off the frame, which shows the baked canvas there again.
    public func remove() -> [PixelRect] {
        for area in shown { canvas.frame.copy(area, from: canvas.baked) }
        defer { shown = [] }
        return shown
    }

    // MARK: - The bar

    private func draw(_ bar: SelectionBar, colors: [UInt32]) {
        let scale = canvas.scale, frame = canvas.frame
        frame.fill(0xFF00_0000 | Self.barEdgeColor, in: PixelRect(covering: bar.rect, scale: scale))
        frame.fill(0xFF00_0000 | Self.barColor, in: PixelRect(covering: bar.rect.insetBy(dx: 1, dy: 1), scale: scale))
        for button in bar.buttons {
            let c = Point(x: (button.rect.minX + button.rect.maxX) / 2, y: (button.rect.minY + button.rect.maxY) / 2)
            switch button.action {
            case .delete:
                icon(Self.bin, at: c)
            case .duplicate:
                icon(Self.twoSheets, at: c)
            case let .color(index):
                guard colors.indices.contains(index) else { continue }
                ink.draw([.move(to: c)], style: InkStyle(width: 28, color: colors[index]), into: frame, scale: scale, clip: frame.bounds)
            }
        }
    }

    private func icon(_ lines: [[Point]], at c: Point) {
        for line in lines {
            guard let first = line.first else { continue }
            let path = [PathElement.move(to: first + c)] + line.dropFirst().map { PathElement.line(to: $0 + c) }
            ink.draw(path, style: InkStyle(width: 2.5, color: Self.iconColor), into: canvas.frame, scale: canvas.scale,
                     clip: canvas.frame.bounds)
        }
    }

    /// A waste bin: lid, handle, body and two ribs.
    private static let bin: [[Point]] = [
        [Point(x: -11, y: -8), Point(x: 11, y: -8)],
        [Point(x: -4, y: -8), Point(x: -3, y: -12), Point(x: 3, y: -12), Point(x: 4, y: -8)],
        [Point(x: -8, y: -8), Point(x: -6, y: 12), Point(x: 6, y: 12), Point(x: 8, y: -8)],
        [Point(x: -2, y: -3), Point(x: -2, y: 7)], [Point(x: 2, y: -3), Point(x: 2, y: 7)],
    ]

    /// Two overlapping squares: a copy.
    private static let twoSheets: [[Point]] = [
        [Point(x: -11, y: -3), Point(x: -11, y: 11), Point(x: 3, y: 11), Point(x: 3, y: -3), Point(x: -11, y: -3)],
        [Point(x: -3, y: -7), Point(x: -3, y: -11), Point(x: 11, y: -11), Point(x: 11, y: 3), Point(x: 7, y: 3)],
    ]
}
