import FolioGeometry
import FolioLayers

/// The pinch fold's layer tree and how it moves: live tracking applies the clamped scale at once
/// inside a disabled-actions transaction; the release animates both pages to identity over
/// 0.5 / s seconds, and the transaction's completion tells the session. When the fold may move
/// is for the session's mode to decide, not this type.
public final class FoldController {
    /// One keyboard fold step: Scale 0.95, then Rotate ±7.5° about y.
    public static let stepScale = 0.95
    public static let stepAngle = 7.5 * Double.pi / 180

    /// The layers the renderer draws: the same objects this controller animates.
    public private(set) var scene: FoldScene
    public let transaction: Transaction
    /// The clamped scale of the newest pinch update or key step (1 when open).
    public private(set) var trackedScale = 1.0

    public init(width: Double, height: Double, transaction: Transaction = Transaction()) {
        self.transaction = transaction
        scene = FoldScene(width: width, height: height)
        scene.root.transaction = transaction
    }

    /// The scale part of the page transform on screen (what the unfold animation shows).
    public var animatedScale: Double {
        DecomposedTransform(leftPageTransform)?.scale.x ?? trackedScale
    }

    /// The left page's transform on screen now (the right page mirrors it).
    public var leftPageTransform: Transform3D {
        scene.pages[0].shadowLayer.presentationTransform(at: transaction.now)
    }

    /// A new window size: a new scene whose pages keep the transforms and contents they had.
    func resize(width: Double, height: Double, contents: AnyObject?) {
        let transforms = scene.pages.map(\.shadowLayer.transform)
        let distance = scene.distance
        scene.root.transaction = nil
        scene = FoldScene(width: width, height: height)
        scene.root.transaction = transaction
        transaction.perform(disableActions: true) {
            scene.distance = distance
            for (page, transform) in zip(scene.pages, transforms) { page.shadowLayer.transform = transform }
        }
        scene.setContents(contents)
    }

    /// The curtain goes up with the pages at the bare perspective, showing `contents`.
    func open(contents: AnyObject?) {
        transaction.perform(disableActions: true) {
            scene.setContents(contents)
            scene.setScale(1)
        }
        trackedScale = 1
    }

    /// A pinch update: applied at once, no implicit animation. Returns whether the pages moved.
    func track(_ rawScale: Double) -> Bool {
        let clamped = FoldScene.clamp(rawScale)
        guard clamped != trackedScale else { return false }
        trackedScale = clamped
        transaction.perform(disableActions: true) { scene.setScale(clamped) }
        return true
    }

    /// The closed book drawn `height` (logical px) tall with its spine at `spine` instead of the
    /// window's middle: where a cover lay on the shelf. The release that follows brings it to the
    /// middle and full size as it opens.
    func place(spine: Point, height: Double) {
        let bounds = scene.root.bounds
        let middle = Point(x: bounds.width / 2, y: bounds.height / 2)
        // The closed book is already the tracked scale of the window's height.
        let k = min(1, max(0.05, height / (trackedScale * bounds.height)))
        let away = Transform3D.scale(k, k, 1).concatenating(.translation(spine.x - middle.x, spine.y - middle.y, 0))
        transaction.perform(disableActions: true) {
            for page in scene.pages {
                page.shadowLayer.transform = FoldScene.pageTransform(scale: trackedScale, side: page.side, distance: scene.distance)
                    .concatenating(away)
            }
        }
    }

    /// The fingers lifted: both pages animate to identity over 0.5 / s seconds, then `completion`.
    func release(completion: @escaping () -> Void) {
        transaction.perform(duration: 0.5 / trackedScale, completion: { [weak self] in
            self?.trackedScale = 1
            completion()
        }) {
            for page in scene.pages { page.shadowLayer.transform = .identity }
        }
    }

    /// `]`: one more fold step from where the pages are, animated implicitly (0.25 s, the default curve).
    func foldStep() {
        for page in scene.pages {
            let sign = page.side == .left ? 1.0 : -1.0
            page.shadowLayer.transform = page.shadowLayer.transform.scaled(Self.stepScale, Self.stepScale, Self.stepScale)
                .rotated(sign * Self.stepAngle, 0, 1, 0)
        }
        trackedScale *= Self.stepScale
        transaction.flush()
    }

    /// `[`: back to the bare perspective at once, without animating: the keyboard's "unfold".
    func close() {
        transaction.perform(disableActions: true) { scene.setScale(1) }
        trackedScale = 1
    }
}
