#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FolioGeometry

/// A colour with straight (not premultiplied) components in 0…1.
public struct LayerColor: Hashable, Sendable {
    public var red, green, blue, alpha: Double
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }
    public static let black = LayerColor(red: 0, green: 0, blue: 0)
    public static let white = LayerColor(red: 1, green: 1, blue: 1)
}

/// The outlines the fold needs for masks and shadow paths: a rectangle whose chosen corners are
/// rounded (as UIKit's `UIBezierPath bezierPathWithRoundedRect:byRoundingCorners:cornerRadii:`).
public struct LayerPath: Hashable, Sendable {
    public struct Corners: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let topLeft = Corners(rawValue: 1)
        public static let topRight = Corners(rawValue: 2)
        public static let bottomRight = Corners(rawValue: 4)
        public static let bottomLeft = Corners(rawValue: 8)
        public static let all: Corners = [.topLeft, .topRight, .bottomRight, .bottomLeft]
    }

    public var rect: Rect
    public var radius: Double
    public var roundedCorners: Corners

    public init(roundedRect rect: Rect, radius: Double, corners: Corners = .all) {
        self.rect = rect
        self.radius = max(0, min(radius, rect.width / 2, rect.height / 2))
        roundedCorners = corners
    }

    public init(rect: Rect) {
        self.init(roundedRect: rect, radius: 0, corners: [])
    }

    public func offsetBy(dx: Double, dy: Double) -> LayerPath {
        var p = self
        p.rect.origin = p.rect.origin + Point(x: dx, y: dy)
        return p
    }

    /// Coverage-free inside test (points on the edge count as inside).
    public func contains(_ p: Point) -> Bool {
        guard p.x >= rect.minX, p.x <= rect.maxX, p.y >= rect.minY, p.y <= rect.maxY else { return false }
        guard let (centre, _) = cornerCircle(near: p) else { return true }
        return p.distance(to: centre) <= radius
    }

    /// The centre of the rounded corner whose square holds `p`, if any, and which corner.
    public func cornerCircle(near p: Point) -> (Point, Corners)? {
        guard radius > 0 else { return nil }
        let left = p.x < rect.minX + radius, right = p.x > rect.maxX - radius
        let top = p.y < rect.minY + radius, bottom = p.y > rect.maxY - radius
        let corner: Corners? = top && left ? .topLeft : top && right ? .topRight
            : bottom && right ? .bottomRight : bottom && left ? .bottomLeft : nil
        guard let corner, roundedCorners.contains(corner) else { return nil }
        let cx = corner == .topLeft || corner == .bottomLeft ? rect.minX + radius : rect.maxX - radius
        let cy = corner == .topLeft || corner == .topRight ? rect.minY + radius : rect.maxY - radius
        return (Point(x: cx, y: cy), corner)
    }

    /// The outline as a polygon (each rounded corner split into `segments` pieces), clockwise from the top left.
    public func polygon(segmentsPerCorner segments: Int = 8) -> [Point] {
        let r = rect, k = radius
        var points: [Point] = []
        func corner(_ c: Corners, square: Point, centre: Point, start: Double) {
            guard roundedCorners.contains(c), k > 0 else {
                points.append(square)
                return
            }
            for i in 0...segments {
                let a = start + Double(i) / Double(segments) * (Double.pi / 2)
                points.append(Point(x: centre.x + k * cos(a), y: centre.y + k * sin(a)))
            }
        }
        corner(.topLeft, square: Point(x: r.minX, y: r.minY), centre: Point(x: r.minX + k, y: r.minY + k), start: .pi)
        corner(.topRight, square: Point(x: r.maxX, y: r.minY), centre: Point(x: r.maxX - k, y: r.minY + k), start: 1.5 * .pi)
        corner(.bottomRight, square: Point(x: r.maxX, y: r.maxY), centre: Point(x: r.maxX - k, y: r.maxY - k), start: 0)
        corner(.bottomLeft, square: Point(x: r.minX, y: r.maxY), centre: Point(x: r.minX + k, y: r.maxY - k), start: 0.5 * .pi)
        return points
    }
}

/// A black gradient over a layer's contents, varying linearly across its width: the page turn's
/// shadows, a black-to-clear gradient over each half page (a CAGradientLayer in Core Animation).
public struct HorizontalShading: Hashable, Sendable {
    /// Opacity (0…1) at the layer's left and right edges.
    public var left: Double
    public var right: Double

    public init(left: Double, right: Double) {
        self.left = left
        self.right = right
    }

    /// The opacity at `fraction` (0 at the left edge, 1 at the right), within 0…1.
    public func opacity(at fraction: Double) -> Double {
        min(max(left + (right - left) * fraction, 0), 1)
    }
}

/// A Core Animation–style layer: geometry (bounds, anchor, position, transforms, zPosition),
/// contents through a contents rectangle, a path mask, a shadow, and a tree of sublayers.
/// Changing `transform` animates implicitly, the way a standalone CALayer does,
/// when the tree has a `Transaction` and its actions are enabled; renderers read the
/// presentation values (`presentationTransform(at:)`), the model keeps the target.
public final class Layer {
    /// The layer's own coordinate space: its origin and size.
    public var bounds: Rect
    /// Normalised point in `bounds` that `position` places and transforms turn about.
    public var anchorPoint = Point(x: 0.5, y: 0.5)
    /// Where the anchor sits in the superlayer's coordinates.
    public var position = Point.zero
    public var zPosition = 0.0
    public var transform = Transform3D.identity {
        didSet { implicitlyAnimateTransform(from: oldValue) }
    }
    /// Applied to the sublayers, about this layer's anchor (a shared vanishing point).
    public var sublayerTransform = Transform3D.identity
    /// An image for a renderer (the fold: the canvas bitmap); opaque to the model.
    public var contents: AnyObject?
    /// The normalised part of `contents` shown, stretched over `bounds`.
    public var contentsRect = Rect(x: 0, y: 0, width: 1, height: 1)
    /// Only what lies inside this path (in the layer's coordinates) is drawn.
    public var mask: LayerPath?
    public var shadowPath: LayerPath?
    public var shadowColor = LayerColor.black
    public var shadowOpacity = 0.0
    /// Apple's "blur radius"; renderers treat it as a Gaussian σ in logical pixels.
    public var shadowRadius = 3.0
    /// In the layer's own coordinates.
    public var shadowOffset = Point(x: 0, y: -3)
    /// Whether the back of the layer is drawn when it faces away from the viewer.
    public var isDoubleSided = true
    /// A gradient shadow over the contents, if any.
    public var shading: HorizontalShading?
    /// Behind the contents; a renderer's backdrop, on the root.
    public var backgroundColor: LayerColor?
    public var isHidden = false

    /// The transactions that decide whether changes animate; set on the root, found by sublayers.
    public var transaction: Transaction? {
        didSet {
            oldValue?.detach(self)
            transaction?.attach(self)
        }
    }
    var transformAnimation: PropertyAnimation<Transform3D>?

    public private(set) var sublayers: [Layer] = []
    public private(set) weak var superlayer: Layer?

    public init(bounds: Rect = Rect(x: 0, y: 0, width: 0, height: 0)) {
        self.bounds = bounds
    }

    public func addSublayer(_ layer: Layer) {
        layer.removeFromSuperlayer()
        layer.superlayer = self
        sublayers.append(layer)
    }

    public func removeFromSuperlayer() {
        guard let parent = superlayer else { return }
        parent.sublayers.removeAll { $0 === self }
        superlayer = nil
    }

    /// The anchor in the layer's own coordinates.
    public var anchorInBounds: Point {
        Point(x: bounds.minX + anchorPoint.x * bounds.width, y: bounds.minY + anchorPoint.y * bounds.height)
    }

    /// CA's derived frame: the bounding box of the transformed bounds in the superlayer
    /// (origin = position − anchorPoint × size when the transform is the identity).
    public var frame: Rect {
        guard let quad = transformToSuperlayer.project(bounds) else { return .null }
        return quad.boundingBox
    }

    /// Maps points from this layer's coordinates to its superlayer's (before the superlayer's
    /// `sublayerTransform`, which belongs to the superlayer).
    public var transformToSuperlayer: Transform3D { transformToSuperlayer(at: nil) }

    /// Maps this layer's coordinates to the root layer's (the screen, for the root at the origin).
    /// Without flattening: the chain is one projective transform, as CATransformLayer keeps it.
    public var transformToRoot: Transform3D { transformToRoot(at: nil) }

    /// `transformToSuperlayer` with the transform on screen at `time` (ms; nil: the model's).
    public func transformToSuperlayer(at time: Double?) -> Transform3D {
        let anchor = anchorInBounds
        let own = time.map { presentationTransform(at: $0) } ?? transform
        var m = Transform3D.translation(-anchor.x, -anchor.y, 0).concatenating(own)
            .concatenating(.translation(position.x, position.y, zPosition))
        if let parent = superlayer, !parent.sublayerTransform.isIdentity {
            let a = parent.anchorInBounds
            m = m.concatenating(.translation(-a.x, -a.y, 0)).concatenating(parent.sublayerTransform)
                .concatenating(.translation(a.x, a.y, 0))
        }
        return m
    }

    /// `transformToRoot` with every transform as it is on screen at `time` (ms; nil: the model's).
    public func transformToRoot(at time: Double?) -> Transform3D {
        var m = Transform3D.identity
        var layer: Layer? = self
        while let current = layer, let parent = current.superlayer {
            m = m.concatenating(current.transformToSuperlayer(at: time))
            layer = parent
        }
        return m
    }

    /// How the layer is turned on screen: its transforms and its superlayers' up to the root,
    /// without positions. Its `normal` is the page normal that lights it.
    public func turnToRoot(at time: Double?) -> Transform3D {
        var m = Transform3D.identity
        var layer: Layer? = self
        while let current = layer, current.superlayer != nil {
            m = m.concatenating(time.map { current.presentationTransform(at: $0) } ?? current.transform)
            layer = current.superlayer
        }
        return m
    }

    /// The layer whose shadow this layer's drawing casts: the nearest at or above it with a
    /// shadow path and some opacity (in the fold, each page's shadow layer around its masked content).
    public var shadowCaster: Layer? {
        var layer: Layer? = self
        while let current = layer, current.superlayer != nil {
            if current.shadowPath != nil && current.shadowOpacity > 0 { return current }
            layer = current.superlayer
        }
        return nil
    }

    /// Whether the layer's back is drawn: it and every superlayer below the root are double-sided.
    public var isDoubleSidedToRoot: Bool {
        var layer: Layer? = self
        while let current = layer, current.superlayer != nil {
            if !current.isDoubleSided { return false }
            layer = current.superlayer
        }
        return true
    }

    /// Whether the page this layer belongs to turns about its right edge: the page's top-level
    /// layer (the root's sublayer holding it) turns about its anchor, and of this layer's two
    /// vertical edges the one nearer that anchor is the spine (the fold's left page: its right
    /// edge; a leaf's back, mirrored inside the leaf: its right edge too).
    public var spineOnRight: Bool {
        var top = self
        var toTop = Transform3D.identity
        while let parent = top.superlayer, parent.superlayer != nil {
            toTop = toTop.concatenating(top.transformToSuperlayer)
            top = parent
        }
        let axis = top.anchorInBounds.x, midY = bounds.minY + bounds.height / 2
        guard let left = toTop.project(Point(x: bounds.minX, y: midY)),
              let right = toTop.project(Point(x: bounds.maxX, y: midY)) else { return top.anchorPoint.x > 0.5 }
        return abs(right.x - axis) < abs(left.x - axis)
    }

    /// The layer's bounds on screen, or nil if part of them falls behind the viewer.
    public var screenQuad: Quad? { transformToRoot.project(bounds) }

    /// Whether the viewer sees the layer's back: its projected bounds wind the other way round.
    public var facesAway: Bool { facesAway(at: nil) }

    /// `facesAway` with every transform as it is on screen at `time` (ms; nil: the model's).
    public func facesAway(at time: Double?) -> Bool {
        guard let q = transformToRoot(at: time).project(bounds) else { return turnToRoot(at: time).normal.z < 0 }
        return q.signedArea < 0
    }
}
