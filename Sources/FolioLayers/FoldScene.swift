import FolioGeometry

/// The pinch fold's layer tree, built as Core Animation would hold it: a root the size of
/// the window and, left then right, a shadow layer carrying the page transform that holds the
/// masked content layer showing its half of the canvas.
public final class FoldScene {
    public enum Side: Sendable { case left, right }

    /// One page: the shadow layer (transform, shadow) and its content layer (contents, mask).
    public struct Page {
        public let side: Side
        public let shadowLayer: Layer
        public let contentLayer: Layer
    }

    public static let perspectiveDistance = 2000.0
    public static let cornerRadius = 25.0
    public static let shadowOpacity = 0.9
    public static let shadowRadius = 100.0
    public static let minimumScale = 0.48

    public let root: Layer
    /// Left first: the drawing order.
    public let pages: [Page]
    /// The fold scale the transforms show (1 = open).
    public private(set) var scale = 1.0
    /// The perspective distance d of this scene's pages (a setting; `perspectiveDistance` by default).
    public var distance = FoldScene.perspectiveDistance {
        didSet { setScale(scale) }
    }

    /// The perspective every page transform starts from: identity with m34 = −1/2000.
    public static let perspective = Transform3D.perspective(distance: perspectiveDistance)

    public init(width: Double, height: Double) {
        root = Layer(bounds: Rect(x: 0, y: 0, width: width, height: height))
        root.anchorPoint = .zero
        let pageBounds = Rect(x: 0, y: 0, width: width / 2, height: height)
        var pages: [Page] = []
        for side in [Side.left, .right] {
            let shadow = Layer(bounds: pageBounds)
            shadow.anchorPoint = Point(x: side == .left ? 1 : 0, y: 0.5)
            shadow.position = Point(x: width / 2, y: height / 2)
            let corners: LayerPath.Corners = side == .left ? [.topLeft, .bottomLeft] : [.topRight, .bottomRight]
            let outline = LayerPath(roundedRect: pageBounds, radius: Self.cornerRadius, corners: corners)
            shadow.shadowPath = outline
            shadow.shadowColor = .black
            shadow.shadowOpacity = Self.shadowOpacity
            shadow.shadowRadius = Self.shadowRadius
            shadow.shadowOffset = Point(x: 0, y: -3)
            let content = Layer(bounds: pageBounds)
            content.position = Point(x: width / 4, y: height / 2)
            content.contentsRect = Rect(x: side == .left ? 0 : 0.5, y: 0, width: 0.5, height: 1)
            content.mask = outline
            shadow.addSublayer(content)
            root.addSublayer(shadow)
            pages.append(Page(side: side, shadowLayer: shadow, contentLayer: content))
        }
        self.pages = pages
        setScale(1)
    }

    /// The page transform at fold scale `s` (already clamped): `Rotate(Scale(P, s, s, s), ±(1 − s)π, y)`,
    /// `+` for the left page.
    public static func pageTransform(scale s: Double, side: Side, distance: Double = perspectiveDistance) -> Transform3D {
        let angle = (side == .left ? 1.0 : -1.0) * (1 - s) * Double.pi
        let perspective = distance == perspectiveDistance ? perspective : Transform3D.perspective(distance: distance)
        return perspective.scaled(s, s, s).rotated(angle, 0, 1, 0)
    }

    /// The pinch's scale limited to what the fold shows: 0.48 (past edge-on) to 1 (open).
    public static func clamp(_ s: Double) -> Double {
        min(max(s, minimumScale), 1)
    }

    /// Shows the fold at scale `s`, clamped to 0.48…1 (live tracking: applied at once).
    public func setScale(_ s: Double) {
        scale = Self.clamp(s)
        for page in pages {
            page.shadowLayer.transform = Self.pageTransform(scale: scale, side: page.side, distance: distance)
        }
    }

    /// Puts `contents` (the canvas image) into both pages.
    public func setContents(_ contents: AnyObject?) {
        for page in pages { page.contentLayer.contents = contents }
    }
}
