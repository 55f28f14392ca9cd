import FolioGeometry
import FolioPixels
import FolioRender
import FolioSketchbook
import FolioToolbar

/// The lasso on the canvas's frame: its loop while drawn, then the selection over the canvas.
extension SessionDisplay {
    /// A loop beginning at `p`.
    func beginLoop(at p: Point) -> LassoTrail {
        LassoTrail(canvas: canvas, start: p)
    }

    /// Extends `trail` to `p`.
    func extend(_ trail: LassoTrail, to p: Point) {
        damage.formUnion(trail.add(p))
    }

    /// Takes `trail`'s loop off the frame.
    func clear(_ trail: LassoTrail) {
        damage.formUnion(trail.clear())
    }

    /// Lifts `strokes[selected]` (the sheet the canvas shows) into an overlay.
    func lift(_ selected: [Int], of strokes: [Stroke]) -> SelectionOverlay {
        SelectionOverlay(canvas: canvas, strokes: strokes, selected: selected)
    }

    /// Shows `overlay` moved by `offset`, with `bar`.
    func show(_ overlay: SelectionOverlay, offset: Point, bar: SelectionBar?, colors: [UInt32]) {
        for area in overlay.show(offset: offset, bar: bar, colors: colors) { damage.formUnion(area) }
    }

    /// Takes `overlay` off the frame.
    func remove(_ overlay: SelectionOverlay) {
        for area in overlay.remove() { damage.formUnion(area) }
    }
}
