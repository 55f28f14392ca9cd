import CPixman
import FolioGeometry
import FolioLayers
import FolioPixels

/// Draws a shelf's layer tree (`ShelfScene`) over the fold's backdrop: each cover layer whose
/// contents are a bitmap (its `CoverArt`, any size) is drawn through its presentation transform
/// chain in perspective, lit by its normal as the page renderer lights a page, under the soft
/// shadow its caster's `shadowPath` throws (`ShadowSprite`). Each cover with its shadow is mapped
/// once into a sprite (`ProjectiveDraw`), kept while the cover only moves; only the clip given is drawn.
public final class ShelfRenderer {
    public let pixelWidth: Int
    public let pixelHeight: Int
    public let scale: Double
    /// The backdrop texture's tile, a whole period wide and the frame's height (made on first use).
    private var textureTile: Bitmap?
    /// The shadow of the newest cover outline and blur (every cover on a shelf shares them).
    private var shadowSprite: (key: [Double], sprite: ShadowSprite)?

    public init(pixelWidth: Int, pixelHeight: Int, scale: Double) {
        precondition(pixelWidth >= 1 && pixelHeight >= 1 && scale > 0, "shelf renderer size \(pixelWidth)x\(pixelHeight) at \(scale)")
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.scale = scale
    }

    /// Draws the tree under `root` into `target` with each transform as it is at `time` (ms on its
    /// clock; nil: the model's), only inside `clip` (buffer pixels; nil: everything).
    public func render(_ root: Layer, at time: Double? = nil, into target: Bitmap, clip: PixelRect? = nil,
                       options: PageRenderOptions = PageRenderOptions()) {
        precondition(target.width == pixelWidth && target.height == pixelHeight, "target size differs from the shelf renderer's")
        let area = (clip ?? target.bounds).intersection(target.bounds)
        guard !area.isEmpty else { return }
        var region = pixman_region32_t()
        pixman_region32_init_rect(&region, Int32(area.x), Int32(area.y), UInt32(area.width), UInt32(area.height))
        defer {
            pixman_image_set_clip_region32(target.image, nil)
            pixman_region32_fini(&region)
        }
        pixman_image_set_clip_region32(target.image, &region)
        drawBackdrop(into: target, area: area, options: options)
        var used = Set<ObjectIdentifier>()
        for caster in root.sublayers where !caster.isHidden {
            let m = caster.transformToRoot(at: time)
            guard let anchor = m.project(caster.anchorInBounds) else { continue }
            // Whole buffer pixels: a cover that only moved (the shelf scrolled) is its sprite again.
            let x = Int((anchor.x * scale).rounded()), y = Int((anchor.y * scale).rounded())
            if options.shadows, let shadow = castShadow(of: caster, at: time, anchor: anchor) {
                target.draw(shadow.image, atX: x + shadow.origin.x, y: y + shadow.origin.y)
            }
            let key = SpriteKey(caster: caster, at: time)
            let id = ObjectIdentifier(caster)
            used.insert(id)
            let sprite: CoverSprite
            if let kept = sprites[id], kept.key == key {
                sprite = kept
            } else if let made = makeSprite(caster, key: key, at: time, anchor: anchor) {
                sprite = made
                sprites[id] = made
            } else {
                continue
            }
            target.draw(sprite.image, atX: x + sprite.origin.x, y: y + sprite.origin.y)
        }
        sprites = sprites.filter { used.contains($0.key) }
    }

    /// A cover as drawn in perspective, kept while it only moves on the frame.
    private struct CoverSprite {
        let key: SpriteKey
        let image: Bitmap
        /// The image's top-left corner relative to the cover's anchor on the frame, buffer pixels.
        let origin: (x: Int, y: Int)
        /// The contents drawn, held so that no new contents object takes one's identity in the key.
        let contents: [AnyObject]
    }

    /// What a cover sprite shows apart from where: the layers' turns (their transforms without
    /// positions), sizes and contents. Equal keys draw the same pixels.
    private struct SpriteKey: Equatable {
        var turns: [Transform3D]
        var bounds: [Rect]
        var contents: [ObjectIdentifier?]
        var offsets: [Point]

        init(caster: Layer, at time: Double?) {
            turns = []
            bounds = []
            contents = []
            offsets = []
            var layers = [caster]
            while let layer = layers.popLast() {
                guard !layer.isHidden else { continue }
                turns.append(layer.turnToRoot(at: time))
                bounds.append(layer.bounds)
                contents.append((layer.contents as? Bitmap).map(ObjectIdentifier.init))
                offsets.append(layer === caster ? layer.anchorPoint : layer.position - caster.anchorInBounds)
                layers.append(contentsOf: layer.sublayers.reversed())
            }
        }
    }

    /// The cover sprites of the last frame, by caster layer.
    private var sprites: [ObjectIdentifier: CoverSprite] = [:]

    /// What a cast shadow looks like apart from where: every cover of a shelf casts the same one.
    private struct ShadowKey: Equatable {
        var turn: Transform3D
        var bounds: Rect
        var anchorPoint: Point
        var path: LayerPath?
        var radius, opacity: Double
        var offset: Point
        var color: LayerColor

        init(_ caster: Layer, at time: Double?) {
            turn = caster.turnToRoot(at: time)
            bounds = caster.bounds
            anchorPoint = caster.anchorPoint
            path = caster.shadowPath
            radius = caster.shadowRadius
            opacity = caster.shadowOpacity
            offset = caster.shadowOffset
            color = caster.shadowColor
        }
    }

    /// The newest cast shadow drawn in perspective, and where it lies from its caster's anchor.
    private var castShadowCache: (key: ShadowKey, image: Bitmap, origin: (x: Int, y: Int))?

    /// `caster`'s shadow in perspective (the caster's anchor at `anchor` on the frame, logical px):
    /// drawn once for a shelf whose covers all cast the same, then only placed.
    private func castShadow(of caster: Layer, at time: Double?, anchor: Point) -> (image: Bitmap, origin: (x: Int, y: Int))? {
        guard let path = caster.shadowPath, caster.shadowOpacity > 0 else { return nil }
        let key = ShadowKey(caster, at: time)
        if let kept = castShadowCache, kept.key == key { return (kept.image, kept.origin) }
        let toAnchor = Transform3D.translation(-anchor.x, -anchor.y, 0)
        let reach = 3 * caster.shadowRadius
        let r = path.rect.insetBy(dx: -reach, dy: -reach)
        let outline = Rect(x: r.minX + caster.shadowOffset.x, y: r.minY + caster.shadowOffset.y, width: r.width, height: r.height)
        guard let quad = caster.transformToRoot(at: time).concatenating(toAnchor).project(outline) else { return nil }
        let box = PixelRect(covering: quad.boundingBox, scale: scale)
        guard box.width > 0, box.height > 0, box.width <= 16384, box.height <= 16384 else { return nil }
        let image = Bitmap(width: box.width, height: box.height)
        drawShadow(of: caster, at: time, shift: toAnchor.concatenating(.translation(-Double(box.x) / scale, -Double(box.y) / scale, 0)),
                   into: image)
        castShadowCache = (key, image, (box.x, box.y))
        return (image, (box.x, box.y))
    }

    /// Draws `caster`'s covers into a sprite of their own, placed relative to the caster's anchor
    /// (at `anchor` on the frame now, logical px).
    private func makeSprite(_ caster: Layer, key: SpriteKey, at time: Double?, anchor: Point) -> CoverSprite? {
        let toAnchor = Transform3D.translation(-anchor.x, -anchor.y, 0)
        // The sprite's extent: every cover's bounds.
        var extent = Rect.null
        func include(_ layer: Layer, _ rect: Rect) {
            if let quad = layer.transformToRoot(at: time).concatenating(toAnchor).project(rect) { extent = extent.union(quad.boundingBox) }
        }
        var layers = [caster]
        var contents: [AnyObject] = []
        while let layer = layers.popLast() {
            if let art = layer.contents as? Bitmap {
                include(layer, layer.bounds)
                contents.append(art)
            }
            layers.append(contentsOf: layer.sublayers)
        }
        guard !extent.isEmpty else { return nil }
        let box = PixelRect(covering: extent, scale: scale)
        guard box.width > 0, box.height > 0, box.width <= 16384, box.height <= 16384 else { return nil }
        let image = Bitmap(width: box.width, height: box.height)
        let shift = toAnchor.concatenating(.translation(-Double(box.x) / scale, -Double(box.y) / scale, 0))
        drawCovers(under: caster, at: time, shift: shift, into: image)
        return CoverSprite(key: key, image: image, origin: (box.x, box.y), contents: contents)
    }

    private func drawBackdrop(into target: Bitmap, area: PixelRect, options: PageRenderOptions) {
        switch options.background {
        case let .flat(rgb):
            target.fill(0xFF00_0000 | rgb, in: area)
        case .texture:
            let tile = textureTile ?? {
                let tile = Bitmap(width: BackdropTexture.period(scale: scale), height: pixelHeight)
                BackdropTexture.paint(tile, scale: scale)
                textureTile = tile
                return tile
            }()
            pixman_image_set_repeat(tile.image, PIXMAN_REPEAT_NORMAL)
            pixman_image_composite32(PIXMAN_OP_SRC, tile.image, nil, target.image, Int32(area.x), Int32(area.y), 0, 0,
                                     Int32(area.x), Int32(area.y), Int32(area.width), Int32(area.height))
        }
    }

    /// The layer's shadow: its path's sprite, offset, through the layer's transform to the screen.
    private func drawShadow(of layer: Layer, at time: Double?, shift: Transform3D, into target: Bitmap) {
        guard let path = layer.shadowPath, layer.shadowOpacity > 0 else { return }
        let key = [path.rect.width, path.rect.height, path.radius, layer.shadowRadius]
        let sprite: ShadowSprite
        if let cached = shadowSprite, cached.key == key {
            sprite = cached.sprite
        } else {
            sprite = ShadowSprite(width: path.rect.width, height: path.rect.height, radius: path.radius, sigma: layer.shadowRadius)
            shadowSprite = (key, sprite)
        }
        let origin = Point(x: path.rect.minX + layer.shadowOffset.x + sprite.origin, y: path.rect.minY + layer.shadowOffset.y + sprite.origin)
        let c = layer.shadowColor
        let alpha = min(max(layer.shadowOpacity * c.alpha, 0), 1)
        func channel(_ v: Double) -> UInt32 { UInt32((min(max(v * alpha, 0), 1) * 255).rounded()) }
        let solid = channel(1) << 24 | channel(c.red) << 16 | channel(c.green) << 8 | channel(c.blue)
        if let mapping = mapping(of: sprite.image, m: layer.transformToRoot(at: time).concatenating(shift), planePerPixel: sprite.cell,
                                 origin: origin, target: target) {
            ProjectiveDraw.draw(sprite.image, mapping: mapping, solid: solid, into: target)
        }
    }

    /// Every layer at or under `layer` that shows a bitmap, lit by how it is turned.
    private func drawCovers(under layer: Layer, at time: Double?, shift: Transform3D, into target: Bitmap) {
        guard !layer.isHidden else { return }
        if let art = layer.contents as? Bitmap, layer.bounds.width > 0 {
            let m = layer.transformToRoot(at: time).concatenating(shift)
            let k = layer.bounds.width / Double(art.width)
            let origin = layer.bounds.origin
            let light = PageRenderer.ambientLight + (1 - PageRenderer.ambientLight) * abs(layer.turnToRoot(at: time).normal.z)
            if let mapping = mapping(of: art, m: m, planePerPixel: k, origin: origin, target: target) {
                ProjectiveDraw.draw(art, mapping: mapping, light: UInt32((light * 256).rounded()), into: target)
            }
        }
        for sublayer in layer.sublayers { drawCovers(under: sublayer, at: time, shift: shift, into: target) }
    }

    /// How `image` maps onto `target`: image pixel → plane (`origin` + `k` · pixel) → screen
    /// (`m`, homogeneous) → buffer (`scale`).
    private func mapping(of image: Bitmap, m: Transform3D, planePerPixel k: Double, origin: Point, target: Bitmap) -> ProjectiveDraw.Mapping? {
        let s = scale
        let forward: [Double] = [
            s * m.m11 * k, s * m.m21 * k, s * (m.m11 * origin.x + m.m21 * origin.y + m.m41),
            s * m.m12 * k, s * m.m22 * k, s * (m.m12 * origin.x + m.m22 * origin.y + m.m42),
            m.m14 * k, m.m24 * k, m.m14 * origin.x + m.m24 * origin.y + m.m44,
        ]
        return ProjectiveDraw.Mapping(forward: forward, width: image.width, height: image.height, within: target.bounds)
    }
}
