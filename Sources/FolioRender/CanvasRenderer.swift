import FolioGeometry
import FolioPixels
import FolioSketchbook

/// The flat canvas: a "baked" bitmap of finished strokes (each drawn into it once, as it ends) and
/// the frame the screen shows, which is the baked bitmap with the live stroke drawn over it.
/// Every change reports the buffer pixels it touched, so a frame redraws only its damage.
public final class CanvasRenderer {
    /// Logical size in pixels.
    public let size: Size
    /// Buffer pixels per logical pixel.
    public let scale: Double
    public let baked: Bitmap
    public let frame: Bitmap
    /// Plain paper's white.
    public static let paper: UInt32 = PaperPainter.white
    /// The paper under the strokes (`rebuild` and `show(strokes:from:)` change it).
    public private(set) var sheetPaper = Paper.plain

    /// The finished strokes `baked` shows, in order.
    public private(set) var strokes: [Stroke] = []
    /// The pixels under the newest strokes before each was drawn: what undo puts back.
    public private(set) var undoTiles = UndoTiles()

    private let ink = InkRasterizer()
    /// What the live stroke covered in `frame` when last drawn, in buffer pixels.
    private var liveDamage = PixelRect.empty
    /// Where the predicted ink shown now may have painted, in buffer pixels (within `liveDamage`,
    /// so whatever withdraws or bakes the live stroke erases it too).
    private var predictedArea = PixelRect.empty
    /// Whether the frame shows predicted ink (the next frame must draw it again or erase it).
    public var showsPrediction: Bool { !predictedArea.isEmpty }
    /// The live stroke's finished part, rasterised once, so a redraw costs the damage and the end.
    private let live = LiveInk()
    /// Polygons of ink rasterised so far, live and baked: tests hold it to the ink drawn.
    var inkRasterised: Int { ink.rasterised + live.rasterised }

    public init(width: Int, height: Int, scale: Double) {
        size = Size(width: Double(width), height: Double(height))
        self.scale = scale
        // Sized as wp_fractional_scale_v1 rounds (the scale taken at its nearest 1/120).
        let exact = BufferScale(nearest: scale)
        let pixelWidth = exact?.pixels(width) ?? Int((Double(width) * scale).rounded())
        let pixelHeight = exact?.pixels(height) ?? Int((Double(height) * scale).rounded())
        baked = Bitmap(width: pixelWidth, height: pixelHeight, color: Self.paper)
        frame = Bitmap(width: pixelWidth, height: pixelHeight, color: Self.paper)
    }

    /// Draws every stroke on fresh paper (after undo, redo, a resize or loading a book): `paper`,
    /// or the paper the canvas has when nil.
    @discardableResult
    public func rebuild(strokes: [Stroke], paper: Paper? = nil) -> PixelRect {
        live.reset()
        if let paper { sheetPaper = paper }
        fillPaper(baked, in: baked.bounds)
        // Tiles for the newest strokes only: those the budget keeps anyway.
        let areas = strokes.map(pixelBounds(of:))
        var firstTile = areas.count, tileBytes = 0
        while firstTile > 0, areas.count - firstTile < UndoTiles.limit, tileBytes + areas[firstTile - 1].area * 4 <= UndoTiles.budget {
            firstTile -= 1
            tileBytes += areas[firstTile].area * 4
        }
        undoTiles.removeAll()
        for (index, stroke) in strokes.enumerated() {
            if index >= firstTile { undoTiles.capture(areas[index], of: baked) }
            draw(stroke, into: baked, clip: areas[index])
        }
        self.strokes = strokes
        frame.copy(baked.bounds, from: baked)
        liveDamage = PixelRect.empty
        predictedArea = PixelRect.empty
        return frame.bounds
    }

    /// Redraws the live stroke (its smoothed `path` and provisional `tail`) where it changed:
    /// `changed` is the logical area whose ink differs from the last frame (the new segment and
    /// the old and new tails). A pen's stroke gives its smoothed `pressures` (and their tail)
    /// and the `curve` that makes them widths. `predicted` ink is drawn past the end, replacing
    /// what was predicted before (nil erases it). Returns the damage.
    @discardableResult
    public func drawLive(_ path: [PathElement], tail: PathElement?, style: InkStyle, changed: Rect,
                         pressures: [PathElement] = [], pressureTail: PathElement? = nil, curve: PressureCurve? = nil,
                         predicted: PredictedInk? = nil) -> PixelRect {
        let newPrediction = predicted.map { PixelRect(covering: $0.bounds, scale: scale).intersection(frame.bounds) } ?? .empty
        let damage = PixelRect(covering: changed, scale: scale).intersection(frame.bounds).union(predictedArea).union(newPrediction)
        guard !damage.isEmpty else { return damage }
        frame.copy(damage, from: baked)
        live.draw(path, tail: tail, style: style, pressures: pressures, pressureTail: pressureTail, curve: curve, ink: ink,
                  into: frame, scale: scale, clip: damage)
        if let predicted, !newPrediction.isEmpty {
            ink.draw([.move(to: predicted.from), .line(to: predicted.to)], style: InkStyle(width: predicted.width, color: style.color),
                     into: frame, scale: scale, clip: newPrediction)
        }
        predictedArea = newPrediction
        liveDamage = liveDamage.union(damage)
        return damage
    }

    /// Withdraws the live stroke: the frame shows the baked canvas again.
    @discardableResult
    public func clearLive() -> PixelRect {
        live.reset()
        let damage = liveDamage
        frame.copy(damage, from: baked)
        liveDamage = PixelRect.empty
        predictedArea = PixelRect.empty
        return damage
    }

    /// Bakes a finished stroke into the canvas; the frame then shows exactly the baked pixels.
    @discardableResult
    public func bake(_ stroke: Stroke) -> PixelRect {
        live.reset()
        let area = pixelBounds(of: stroke)
        undoTiles.capture(area, of: baked)
        draw(stroke, into: baked, clip: area)
        strokes.append(stroke)
        let damage = area.union(liveDamage)
        frame.copy(damage, from: baked)
        liveDamage = PixelRect.empty
        predictedArea = PixelRect.empty
        return damage
    }

    /// Shows `strokes` on the canvas, redrawing only what changed where it can: strokes taken
    /// back from the end (undo) put their tiles back, strokes added at the end (redo, a
    /// duplicate) are baked; the newest stroke replaced (a snapped shape undone or redone) puts
    /// its tile back and bakes the new one; otherwise (a lasso's move or recolour, strokes erased
    /// or put back) only the areas of the strokes that differ are drawn again. Returns the damage.
    @discardableResult
    public func show(strokes new: [Stroke]) -> PixelRect {
        let removed = strokes.count - new.count
        if removed > 0, undoTiles.tiles.count >= removed, new[...] == strokes.dropLast(removed) {
            var damage = liveDamage
            for _ in 0..<removed {
                guard let tile = undoTiles.takeNewest() else { return rebuild(strokes: new) }
                UndoTiles.restore(tile, into: baked)
                strokes.removeLast()
                damage = damage.union(tile.area)
            }
            live.reset()
            frame.copy(damage, from: baked)
            liveDamage = PixelRect.empty
            predictedArea = PixelRect.empty
            return damage
        }
        if removed < 0, new.prefix(strokes.count) == strokes[...] {
            return new[strokes.count...].reduce(PixelRect.empty) { $0.union(bake($1)) }
        }
        // The newest stroke replaced (a snapped shape undone or redone): its tile, then the new one.
        if new.count == strokes.count, let last = new.last, last != strokes.last, undoTiles.tiles.count > 0,
           new.dropLast() == strokes.dropLast(),
           let tile = undoTiles.takeNewest() {
            UndoTiles.restore(tile, into: baked)
            frame.copy(tile.area, from: baked)
            strokes.removeLast()
            return tile.area.union(bake(last))
        }
        return redraw(strokes: new, where: changedAreas(to: new))
    }

    /// Where `new` paints differently from the strokes shown: the areas of strokes that went
    /// (or changed) and of strokes that came (or changed), one area when the two meet. Strokes
    /// common to both are paired in order, the first difference taken as a removal while the old
    /// strokes outnumber the new, an insertion while the new do, else a change in place; a pixel
    /// outside the areas is touched by the same strokes in the same order either way.
    private func changedAreas(to new: [Stroke]) -> [PixelRect] {
        var left = PixelRect.empty, taken = PixelRect.empty
        var i = 0, j = 0
        while i < strokes.count || j < new.count {
            let oldLeft = strokes.count - i, newLeft = new.count - j
            if oldLeft > 0, newLeft > 0, strokes[i] == new[j] {
                i += 1
                j += 1
            } else if oldLeft > newLeft {
                left = left.union(reach(of: strokes[i]))
                i += 1
            } else if newLeft > oldLeft {
                taken = taken.union(reach(of: new[j]))
                j += 1
            } else {
                left = left.union(reach(of: strokes[i]))
                taken = taken.union(reach(of: new[j]))
                i += 1
                j += 1
            }
        }
        return left.intersection(taken).isEmpty ? [left, taken] : [left.union(taken)]
    }

    /// Draws the canvas again from `new` in `areas` only: paper there, then every stroke that
    /// reaches it, in order. Undo tiles hold older pixels of those areas, so they go.
    private func redraw(strokes new: [Stroke], where areas: [PixelRect]) -> PixelRect {
        live.reset()
        var damage = liveDamage
        for area in areas where !area.isEmpty {
            fillPaper(baked, in: area)
            for stroke in new where !reach(of: stroke).intersection(area).isEmpty { draw(stroke, into: baked, clip: area) }
            damage = damage.union(area)
        }
        if !damage.isEmpty { undoTiles.removeAll() }
        strokes = new
        frame.copy(damage, from: baked)
        liveDamage = PixelRect.empty
        predictedArea = PixelRect.empty
        return damage
    }

    /// The pixels a stroke may paint, from the box of its input points (the smoothed path stays
    /// within their hull): cheaper than `Stroke.bounds`, which smooths the path.
    func reach(of stroke: Stroke) -> PixelRect {
        let margin = stroke.maximumWidth / 2 + 1
        return PixelRect(covering: Rect(bounding: stroke.points).insetBy(dx: -margin, dy: -margin), scale: scale).intersection(baked.bounds)
    }

    /// The canvas as a picture to keep (`SheetPictureCache`), with its undo tiles.
    public func picture() -> SheetPicture {
        var pixels = [UInt32](repeating: 0, count: baked.width * baked.height)
        pixels.withUnsafeMutableBytes { out in
            guard let base = out.baseAddress else { return }
            for row in 0..<baked.height {
                (base + row * baked.width * 4).copyMemory(from: baked.pixels + row * baked.stride, byteCount: baked.width * 4)
            }
        }
        return SheetPicture(key: SheetPicture.key(of: strokes, paper: sheetPaper), width: baked.width, height: baked.height, scale: scale,
                            pixels: pixels, tiles: undoTiles.tiles)
    }

    /// Shows `strokes` on `paper` (nil: the canvas's) from a kept picture of their first strokes
    /// instead of drawing them: the picture, then the strokes after those it covers drawn over
    /// it. False (and nothing changes) when the picture is not of the first strokes of these on
    /// this paper at this size.
    public func show(strokes: [Stroke], from picture: SheetPicture, paper: Paper? = nil) -> Bool {
        let paper = paper ?? sheetPaper
        let covered = picture.coveredCount
        guard picture.width == baked.width, picture.height == baked.height, picture.scale == scale,
              picture.pixels.count == baked.width * baked.height, covered <= strokes.count, picture.tiles.count <= covered,
              picture.tiles.allSatisfy({ baked.bounds.contains($0.area) && $0.pixels.count == $0.area.area }),
              picture.key == SheetPicture.key(of: strokes.prefix(covered), paper: paper) else { return false }
        sheetPaper = paper
        picture.pixels.withUnsafeBytes { source in
            guard let base = source.baseAddress else { return }
            for row in 0..<baked.height {
                (baked.pixels + row * baked.stride).copyMemory(from: base + row * baked.width * 4, byteCount: baked.width * 4)
            }
        }
        self.strokes = Array(strokes.prefix(covered))
        undoTiles = UndoTiles(picture.tiles)
        live.reset()
        liveDamage = PixelRect.empty
        predictedArea = PixelRect.empty
        for stroke in strokes[covered...] { bake(stroke) }
        frame.copy(baked.bounds, from: baked)
        return true
    }

    /// Paints the canvas's paper over `area` of `bitmap` (this canvas's size): what lies under every stroke.
    public func fillPaper(_ bitmap: Bitmap, in area: PixelRect) {
        PaperPainter.paint(sheetPaper, into: bitmap, in: area, scale: scale)
    }

    /// Paints a finished stroke whole: at its fixed width, or along its pressures.
    func draw(_ stroke: Stroke, into bitmap: Bitmap, clip: PixelRect) {
        if stroke.hasPressure {
            ink.drawPressure(stroke.path, pressures: stroke.pressurePath, curve: stroke.pressureCurve, color: stroke.style.color,
                             into: bitmap, scale: scale, clip: clip)
        } else {
            ink.draw(stroke.path, style: stroke.style, into: bitmap, scale: scale, clip: clip)
        }
    }

    private func pixelBounds(of stroke: Stroke) -> PixelRect {
        PixelRect(covering: stroke.bounds, scale: scale).intersection(baked.bounds)
    }
}
