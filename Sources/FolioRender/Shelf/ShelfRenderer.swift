import CPixman
import FolioGeometry
import FolioLayers
import FolioPixels

/// Draws a shelf's layer tree (`ShelfScene`) over the fold's backdrop: each cover layer whose
/// contents are a bitmap (its `CoverArt`, any size) is drawn through its presentation transform
/// chain in perspective, lit by its normal as the page renderer lights a page, under the soft
/// shadow its caster's `shadowPath` throws (`ShadowSprite`). Covers are small and few, so pixman
/// maps each one with a projective transform; only the clip given is drawn.
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
            let key = SpriteKey(caster: caster, at: time, shadows: options.shadows)
            let id = ObjectIdentifier(caster)
            used.insert(id)
            let sprite: CoverSprite
            if let kept = sprites[id], kept.key == key {
                sprite = kept
            } else if let made = makeSprite(caster, key: key, at: time, anchor: anchor, shadows: options.shadows) {
                sprite = made
                sprites[id] = made
            } else {
                continue
            }
            target.draw(sprite.image, atX: x + sprite.origin.x, y: y + sprite.origin.y)
        }
        sprites = sprites.filter { used.contains($0.key) }
    }

    /// A cover and its shadow as drawn in perspective, kept while it only moves on the frame.
    private struct CoverSprite {
        let key: SpriteKey
        let image: Bitmap
        /// The image's top-left corner relative to the cover's anchor on the frame, buffer pixels.
        let origin: (x: Int, y: Int)
        /// The contents drawn, held so that no new contents object takes one's identity in the key.
        let contents: [AnyObject]
    }

    /// What a cover sprite shows apart from where: the layers' turns (their transforms without
    /// positions), sizes, contents and shadow. Equal keys draw the same pixels.
    private struct SpriteKey: Equatable {
        var turns: [Transform3D]
        var bounds: [Rect]
        var contents: [ObjectIdentifier?]
        var offsets: [Point]
        var shadows: Bool

        init(caster: Layer, at time: Double?, shadows: Bool) {
            turns = []
            bounds = []
            contents = []
            offsets = []
            self.shadows = shadows
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

    /// Draws `caster`'s shadow and covers into a sprite of their own, placed relative to the
    /// caster's anchor (at `anchor` on the frame now, logical px).
    private func makeSprite(_ caster: Layer, key: SpriteKey, at time: Double?, anchor: Point, shadows: Bool) -> CoverSprite? {
        let toAnchor = Transform3D.translation(-anchor.x, -anchor.y, 0)
        // The sprite's extent: the shadow's outline (offset and blurred) and every cover's bounds.
        var extent = Rect.null
        func include(_ layer: Layer, _ rect: Rect) {
            if let quad = layer.transformToRoot(at: time).concatenating(toAnchor).project(rect) { extent = extent.union(quad.boundingBox) }
        }
        if shadows, let path = caster.shadowPath, caster.shadowOpacity > 0 {
            let reach = 3 * caster.shadowRadius
            let r = path.rect.insetBy(dx: -reach, dy: -reach)
            include(caster, Rect(x: r.minX + caster.shadowOffset.x, y: r.minY + caster.shadowOffset.y, width: r.width, height: r.height))
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
        if shadows { drawShadow(of: caster, at: time, shift: shift, into: image) }
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
        composite(solid: (c.red * alpha, c.green * alpha, c.blue * alpha, alpha), mask: sprite.image,
                  transform: layer.transformToRoot(at: time).concatenating(shift), planePerPixel: sprite.cell, origin: origin, into: target)
    }

    /// Every layer at or under `layer` that shows a bitmap, lit by how it is turned.
    private func drawCovers(under layer: Layer, at time: Double?, shift: Transform3D, into target: Bitmap) {
        guard !layer.isHidden else { return }
        if let art = layer.contents as? Bitmap, layer.bounds.width > 0 {
            let m = layer.transformToRoot(at: time).concatenating(shift)
            let k = layer.bounds.width / Double(art.width)
            let origin = layer.bounds.origin
            let light = PageRenderer.ambientLight + (1 - PageRenderer.ambientLight) * abs(layer.turnToRoot(at: time).normal.z)
            pixman_image_set_filter(art.image, PIXMAN_FILTER_BILINEAR, nil, 0)
            if let box = setTransform(of: art, m: m, planePerPixel: k, origin: origin, target: target) {
                pixman_image_composite32(PIXMAN_OP_OVER, art.image, nil, target.image, 0, 0, 0, 0,
                                         Int32(box.x), Int32(box.y), Int32(box.width), Int32(box.height))
                if light < 1 {
                    composite(solid: (0, 0, 0, 1 - light), mask: art, transform: m, planePerPixel: k, origin: origin, into: target)
                }
            }
            pixman_image_set_transform(art.image, nil)
        }
        for sublayer in layer.sublayers { drawCovers(under: sublayer, at: time, shift: shift, into: target) }
    }

    /// A solid colour (premultiplied components 0…1) through `mask`'s alpha, the mask mapped to the screen.
    private func composite(solid rgba: (Double, Double, Double, Double), mask: Bitmap, transform m: Transform3D,
                           planePerPixel k: Double, origin: Point, into target: Bitmap) {
        func channel(_ v: Double) -> UInt16 { UInt16((min(max(v, 0), 1) * 65535).rounded()) }
        var color = pixman_color_t(red: channel(rgba.0), green: channel(rgba.1), blue: channel(rgba.2), alpha: channel(rgba.3))
        guard let solid = pixman_image_create_solid_fill(&color) else { return }
        defer { pixman_image_unref(solid) }
        pixman_image_set_filter(mask.image, PIXMAN_FILTER_BILINEAR, nil, 0)
        if let box = setTransform(of: mask, m: m, planePerPixel: k, origin: origin, target: target) {
            pixman_image_composite32(PIXMAN_OP_OVER, solid, mask.image, target.image, 0, 0, 0, 0,
                                     Int32(box.x), Int32(box.y), Int32(box.width), Int32(box.height))
        }
        pixman_image_set_transform(mask.image, nil)
    }

    /// Sets on `image` the transform pixman samples it with: from a frame pixel back to the image
    /// pixel that shows there, the inverse of image pixel → plane (`origin` + `k` · pixel) →
    /// screen (`m`, homogeneous) → buffer (`scale`). Returns the frame pixels the image covers,
    /// or nil when it is seen edge-on, from behind the viewer or off the frame. The transform
    /// counts frame pixels from that box's corner (composite from image position 0 to the box):
    /// small coordinates keep pixman's 16.16 arithmetic exact and far from overflow.
    private func setTransform(of image: Bitmap, m: Transform3D, planePerPixel k: Double, origin: Point, target: Bitmap) -> PixelRect? {
        let s = scale
        // Row-major 3×3 homography of image pixels (u, v, 1) to buffer pixels, homogeneous.
        let forward: [Double] = [
            s * m.m11 * k, s * m.m21 * k, s * (m.m11 * origin.x + m.m21 * origin.y + m.m41),
            s * m.m12 * k, s * m.m22 * k, s * (m.m12 * origin.x + m.m22 * origin.y + m.m42),
            m.m14 * k, m.m24 * k, m.m14 * origin.x + m.m24 * origin.y + m.m44,
        ]
        var corners: [Point] = []
        for (u, v) in [(0.0, 0.0), (Double(image.width), 0), (Double(image.width), Double(image.height)), (0, Double(image.height))] {
            let w = forward[6] * u + forward[7] * v + forward[8]
            guard w > 1e-9 else { return nil }
            corners.append(Point(x: (forward[0] * u + forward[1] * v + forward[2]) / w, y: (forward[3] * u + forward[4] * v + forward[5]) / w))
        }
        let box = PixelRect(covering: Rect(bounding: corners), scale: 1).intersection(target.bounds)
        guard !box.isEmpty else { return nil }
        // Buffer pixels from the box's corner: (x − box.x, y − box.y) in the forward map's output.
        var shifted = forward
        for c in 0..<3 {
            shifted[c] -= Double(box.x) * forward[6 + c]
            shifted[3 + c] -= Double(box.y) * forward[6 + c]
        }
        var f = pixman_f_transform()
        withUnsafeMutableBytes(of: &f.m) { raw in
            for (i, v) in shifted.enumerated() { raw.storeBytes(of: v, toByteOffset: i * 8, as: Double.self) }
        }
        var inverse = pixman_f_transform()
        guard pixman_f_transform_invert(&inverse, &f) != 0 else { return nil }
        let entries = withUnsafeBytes(of: inverse.m) { Array($0.bindMemory(to: Double.self)) }
        // A homography is defined up to a factor. pixman holds the homogeneous image point (u·w,
        // v·w, w) in 16.16 fixed point: w near 16 over the box keeps u·w within range for images
        // up to 2000 px and the small perspective terms precise.
        var largestW = 0.0
        for (i, j) in [(0.0, 0.0), (Double(box.width), 0.0), (0.0, Double(box.height)), (Double(box.width), Double(box.height))] {
            let w: Double = entries[6] * i + entries[7] * j + entries[8]
            largestW = max(largestW, abs(w))
        }
        guard largestW > 0, largestW.isFinite else { return nil }
        var fixed = pixman_transform()
        withUnsafeMutableBytes(of: &fixed.matrix) { raw in
            for (i, v) in entries.enumerated() {
                raw.storeBytes(of: pixman_fixed_t((v * 16 / largestW * 65536).rounded()), toByteOffset: i * 4, as: pixman_fixed_t.self)
            }
        }
        return pixman_image_set_transform(image.image, &fixed) != 0 ? box : nil
    }
}
