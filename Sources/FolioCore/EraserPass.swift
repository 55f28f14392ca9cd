import FolioGeometry
import FolioSketchbook

/// One pass of the eraser: where it last was, and the current sheet's strokes it has crossed.
/// The strokes stay in the book until the pass ends, so the whole pass is one undoable edit.
struct EraserPass {
    var last: Point
    var crossed: Set<Int> = []

    /// Moves the eraser to `p` over the sheet's `strokes`, crossing those within `radius` of its
    /// way there; returns whether it crossed one it had not.
    mutating func move(to p: Point, over strokes: [Stroke], radius: Double) -> Bool {
        var crossedNew = false
        for (index, stroke) in strokes.enumerated() where !crossed.contains(index) {
            if stroke.isCrossed(from: last, to: p, radius: radius) {
                crossed.insert(index)
                crossedNew = true
            }
        }
        last = p
        return crossedNew
    }

    /// `strokes` as the screen shows them during the pass: without those it crossed.
    func visible(_ strokes: [Stroke]) -> [Stroke] {
        guard !crossed.isEmpty else { return strokes }
        return strokes.enumerated().filter { !crossed.contains($0.offset) }.map(\.element)
    }
}
