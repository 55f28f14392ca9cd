import FolioGeometry

/// The page turn's layer tree: over the backdrop lie, flat, the left half of the earlier sheet
/// and the right half of the later one; the leaf — the earlier sheet's right half in front, the
/// later sheet's left half behind — turns about the spine by θ from 0 (open on the earlier sheet)
/// to −π (turned: the later sheet shows whole). A forward turn runs 0 → −π, a backward one
/// −π → 0. Outer corners are rounded; gradient shadows darken toward the spine with the turn's
/// progress.
///
/// The angle is the scene's animatable property, on its `transaction`'s clock as the fold's page
/// transforms are on theirs. The layers have no transactions of their own: they show the angle
/// on screen (`present(at:)`), and everything else about them follows from it.
public final class PageTurnScene: Animating {
    public static let cornerRadius = 25.0
    /// The gradient shadows' opacity at the spine, per unit of progress q = |θ| / π.
    public static let shadowOpacity = 0.5

    public let root: Layer
    /// The earlier sheet's left half, flat.
    public let earlierLeft: Layer
    /// The later sheet's right half, flat, beneath the leaf.
    public let laterRight: Layer
    /// Carries the turn about the spine; holds the leaf's two faces.
    public let leaf: Layer
    /// The earlier sheet's right half, seen while the leaf faces the viewer.
    public let leafFront: Layer
    /// The later sheet's left half, seen past 90° (turned π inside the leaf, so it reads the right way).
    public let leafBack: Layer
    /// The camera of the turn: `m34 = −1/(1.25·W)`. A fixed −4.5/2000 suits a phone; at tablet
    /// widths that camera would sit in front of the turning edge.
    public let perspective: Transform3D
    /// The leaf's angle about the spine, −π…0, as the model has it: where the leaf goes
    /// (`presentationAngle(at:)` says where it is).
    public var angle: Double { animatedAngle.value }
    private var animatedAngle = AnimatedValue(0.0)
    /// The transactions the angle animates in, and the clock it animates on.
    public var transaction: Transaction? {
        didSet {
            oldValue?.detach(self)
            transaction?.attach(self)
        }
    }
    /// How strongly the earlier drawing shows through the leaf's back as the layers show it, 0…1:
    /// fully until the leaf passes 90°, then fading as it comes down on the left, so a turned
    /// leaf's back is exactly the later sheet.
    public private(set) var showThrough = 1.0

    public init(width: Double, height: Double) {
        root = Layer(bounds: Rect(x: 0, y: 0, width: width, height: height))
        root.anchorPoint = .zero
        perspective = Transform3D.perspective(distance: 1.25 * width)
        let half = Rect(x: 0, y: 0, width: width / 2, height: height)
        let spine = Point(x: width / 2, y: height / 2)
        let leftCorners: LayerPath.Corners = [.topLeft, .bottomLeft], rightCorners: LayerPath.Corners = [.topRight, .bottomRight]
        func halfPage(right: Bool) -> Layer {
            let layer = Layer(bounds: half)
            layer.anchorPoint = Point(x: right ? 0 : 1, y: 0.5)
            layer.position = spine
            layer.contentsRect = Rect(x: right ? 0.5 : 0, y: 0, width: 0.5, height: 1)
            layer.mask = LayerPath(roundedRect: half, radius: Self.cornerRadius, corners: right ? rightCorners : leftCorners)
            return layer
        }
        earlierLeft = halfPage(right: false)
        laterRight = halfPage(right: true)
        leaf = Layer(bounds: half)
        leaf.anchorPoint = Point(x: 0, y: 0.5)
        leaf.position = spine
        leafFront = halfPage(right: true)
        leafFront.anchorPoint = Point(x: 0.5, y: 0.5)
        leafFront.position = Point(x: width / 4, y: height / 2)
        leafFront.isDoubleSided = false
        // The back shows the later sheet's left half: turned over inside the leaf, its left edge
        // lies at the leaf's outer edge, which past 90° is on the screen's left.
        leafBack = halfPage(right: false)
        leafBack.anchorPoint = Point(x: 0.5, y: 0.5)
        leafBack.position = Point(x: width / 4, y: height / 2)
        leafBack.transform = .rotation(.pi, 0, 1, 0)
        leafBack.isDoubleSided = false
        root.addSublayer(earlierLeft)
        root.addSublayer(laterRight)
        leaf.addSublayer(leafFront)
        leaf.addSublayer(leafBack)
        root.addSublayer(leaf)
        setAngle(0)
    }

    /// Turns the leaf to `angle` (clamped to −π…0), animated implicitly when the transaction's
    /// actions allow, at once otherwise; the layers show where it is now.
    public func setAngle(_ angle: Double) {
        animatedAngle.set(Self.clamp(angle), in: transaction)
        present(at: transaction?.now ?? 0)
    }

    /// Turns the leaf to `angle` (clamped) over `duration` ms on `timing`, from where it is on
    /// screen, whatever the transaction says of actions (an explicit animation); its completion
    /// waits for it. Without a transaction there is no clock: the leaf turns at once.
    public func setAngle(_ angle: Double, duration: Double, timing: TimingFunction = .default) {
        guard let transaction else { return setAngle(angle) }
        animatedAngle.animate(to: Self.clamp(angle), in: transaction, duration: duration, timing: timing)
        present(at: transaction.now)
    }

    /// The leaf's angle on screen at `time` (ms).
    public func presentationAngle(at time: Double) -> Double {
        animatedAngle.presentation(at: time)
    }

    public func isAnimating(at time: Double) -> Bool {
        animatedAngle.isAnimating(at: time)
    }

    /// The layers show the leaf as it is on screen at `time` (ms): `Rotate(P′, θ, y)`, the
    /// gradient shadows with it, and how much shows through its back. Before 90° the leaf and
    /// the later sheet's right half beneath it darken toward the spine; past 90° the earlier
    /// sheet's left half beneath the leaf does.
    public func present(at time: Double) {
        let theta = presentationAngle(at: time)
        leaf.transform = perspective.rotated(theta, 0, 1, 0)
        let opacity = abs(theta) / Double.pi * Self.shadowOpacity
        let towardLeftSpine = HorizontalShading(left: opacity, right: 0)
        let beforeHalfway = theta > -Double.pi / 2
        leafFront.shading = beforeHalfway ? towardLeftSpine : nil
        laterRight.shading = beforeHalfway ? towardLeftSpine : nil
        earlierLeft.shading = beforeHalfway ? nil : HorizontalShading(left: 0, right: opacity)
        showThrough = min(max((Double.pi - abs(theta)) / (Double.pi / 2), 0), 1)
    }

    private static func clamp(_ angle: Double) -> Double {
        min(max(angle, -Double.pi), 0)
    }

    /// The sheets' pictures: the earlier sheet (flat left half, leaf front), the later sheet
    /// (flat right half), and what the leaf's back shows (the later sheet's picture, with the
    /// earlier drawing showing through `showThrough`; a renderer composes it, or a test gives it).
    public func setContents(earlier: AnyObject?, later: AnyObject?, leafBack back: AnyObject?) {
        earlierLeft.contents = earlier
        leafFront.contents = earlier
        laterRight.contents = later
        leafBack.contents = back
    }
}
