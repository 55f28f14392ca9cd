import FolioGeometry

/// The shelf's layer tree, built like the fold's (`FoldScene`): a root the size of the window
/// and, per cover on screen, a shadow layer carrying the cover's transform (turned a little
/// about its spine, under a perspective) that holds the masked content layer showing the cover.
/// Only the covers on screen have layers, so a long shelf costs what the window shows.
public final class ShelfScene {
    /// One cover on screen: the book's index on the shelf and its two layers.
    public struct Cover {
        public let index: Int
        public let shadowLayer: Layer
        public let contentLayer: Layer
    }

    /// Covers stand turned away about their spine by this angle (radians), seen in perspective.
    public static let tilt = -0.35
    /// The perspective of each cover: closer than the fold's page, as a cover is smaller.
    public static let perspectiveDistance = 900.0
    public static let cornerRadius = 10.0
    /// The fold's shadow (opacity 0.9, radius 100 for a page the window's height), scaled to a
    /// cover about a quarter of that height.
    public static let shadowOpacity = FoldScene.shadowOpacity
    public static let shadowRadius = FoldScene.shadowRadius / 4
    public static let shadowOffset = Point(x: 0, y: -3)

    public let root: Layer
    /// In shelf order: the drawing order.
    public private(set) var covers: [Cover] = []
    public private(set) var layout: ShelfLayout
    public private(set) var scroll = 0.0

    public init(layout: ShelfLayout) {
        self.layout = layout
        root = Layer(bounds: Rect(x: 0, y: 0, width: layout.width, height: layout.height))
        root.anchorPoint = .zero
    }

    /// How far beyond a cover its shadow may darken (logical px).
    public static var shadowReach: Double { 3 * shadowRadius + abs(shadowOffset.y) }

    /// The cover transform: `Rotate(P, tilt, y)`, turned about the spine (the layer's anchor).
    public static let coverTransform = Transform3D.perspective(distance: perspectiveDistance).rotated(tilt, 0, 1, 0)

    /// Lays the covers on screen out for `layout` scrolled by `scroll`, each showing
    /// `contents(index)`; layers of covers still on screen are kept.
    public func update(layout: ShelfLayout, scroll: Double, contents: (Int) -> AnyObject?) {
        self.layout = layout
        self.scroll = scroll
        root.bounds = Rect(x: 0, y: 0, width: layout.width, height: layout.height)
        let shown = layout.visible(scroll: scroll, reach: Self.shadowReach)
        var kept: [Int: Cover] = [:]
        for cover in covers {
            cover.shadowLayer.removeFromSuperlayer()
            if shown.contains(cover.index) { kept[cover.index] = cover }
        }
        covers = shown.map { index in
            let cover = kept[index] ?? Self.makeCover(index: index, size: layout.coverSize)
            place(cover, layout: layout)
            cover.contentLayer.contents = contents(index)
            root.addSublayer(cover.shadowLayer)
            return cover
        }
    }

    /// The book whose cover is under `p` (window coordinates), the topmost one.
    public func coverIndex(at p: Point) -> Int? {
        for cover in covers.reversed() {
            let layer = cover.contentLayer
            guard let local = layer.transformToRoot.unproject(p) else { continue }
            if (layer.mask ?? LayerPath(rect: layer.bounds)).contains(local) { return cover.index }
        }
        return nil
    }

    /// Where book `index`'s cover shows on screen, if it is laid out.
    public func screenQuad(of index: Int) -> Quad? {
        covers.first { $0.index == index }?.contentLayer.screenQuad
    }

    private func place(_ cover: Cover, layout: ShelfLayout) {
        let rect = layout.coverRect(cover.index)
        let bounds = Rect(x: 0, y: 0, width: rect.width, height: rect.height)
        if cover.shadowLayer.bounds != bounds {
            cover.shadowLayer.bounds = bounds
            cover.contentLayer.bounds = bounds
            cover.contentLayer.position = Point(x: rect.width / 2, y: rect.height / 2)
            let outline = LayerPath(roundedRect: bounds, radius: Self.cornerRadius)
            cover.shadowLayer.shadowPath = outline
            cover.contentLayer.mask = outline
        }
        cover.shadowLayer.position = Point(x: rect.minX, y: rect.minY + rect.height / 2 - scroll)
    }

    private static func makeCover(index: Int, size: Size) -> Cover {
        let bounds = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let outline = LayerPath(roundedRect: bounds, radius: cornerRadius)
        let shadow = Layer(bounds: bounds)
        shadow.anchorPoint = Point(x: 0, y: 0.5)
        shadow.transform = coverTransform
        shadow.shadowPath = outline
        shadow.shadowColor = .black
        shadow.shadowOpacity = shadowOpacity
        shadow.shadowRadius = shadowRadius
        shadow.shadowOffset = shadowOffset
        let content = Layer(bounds: bounds)
        content.position = Point(x: size.width / 2, y: size.height / 2)
        content.mask = outline
        shadow.addSublayer(content)
        return Cover(index: index, shadowLayer: shadow, contentLayer: content)
    }
}
