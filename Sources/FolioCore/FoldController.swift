import FolioGeometry
import FolioLayers

/// The pinch fold (SPEC §2.3–2.4), on the layer tree: live tracking applies the clamped scale
/// at once inside a disabled-actions transaction; the release animates both pages to identity
/// over 0.5 / s seconds, and the transaction's completion re-enables drawing and drops the curtain.
public final class FoldController {
    /// One keyboard fold step (SPEC §2.4): Scale 0.95, then Rotate ±7.5° about y.
    public static let stepScale = 0.95
    public static let stepAngle = 7.5 * Double.pi / 180

    public enum Phase: String, Sendable {
        /// The flat canvas: drawing enabled, no curtain.
        case idle
        /// The curtain is up and follows input at once (fingers, touchpad, or fold keys).
        case tracking
        /// The unfold animation runs; input does not draw.
        case animating
    }

    public private(set) var phase = Phase.idle
    public private(set) var scene: FoldScene
    public let transaction = Transaction()
    /// The clamped scale of the newest pinch update (1 before any).
    private var trackedScale = 1.0
    /// Called with the time the unfold animation completed.
    var onUnfoldCompleted: ((Double) -> Void)?

    public init(width: Double, height: Double) {
        scene = FoldScene(width: width, height: height)
        scene.root.transaction = transaction
    }

    public var isFolded: Bool { phase != .idle }

    /// The fold scale on screen: the tracked scale, or during the unfold the scale part of the
    /// animated page transform.
    public var scale: Double {
        switch phase {
        case .idle: 1
        case .tracking: trackedScale
        case .animating: DecomposedTransform(leftPageTransform)?.scale.x ?? trackedScale
        }
    }

    /// The left page's transform on screen now (the right page mirrors it).
    public var leftPageTransform: Transform3D {
        scene.pages[0].shadowLayer.presentationTransform(at: transaction.now)
    }

    /// A new window size: a new scene whose pages keep the transforms they were given.
    func resize(width: Double, height: Double) {
        let transforms = scene.pages.map(\.shadowLayer.transform)
        scene = FoldScene(width: width, height: height)
        scene.root.transaction = transaction
        transaction.perform(disableActions: true) {
            for (page, transform) in zip(scene.pages, transforms) { page.shadowLayer.transform = transform }
        }
    }

    /// Both pages' transforms on screen now, left then right.
    public var pageTransforms: [Transform3D] {
        scene.pages.map { $0.shadowLayer.presentationTransform(at: transaction.now) }
    }

    /// Moves the clock; runs the unfold's completion when it is due.
    func advance(to time: Double) {
        transaction.advance(to: time)
    }

    /// The pinch began: the curtain goes up with the pages at the bare perspective.
    func begin(contents: AnyObject?) {
        guard phase == .idle else { return }
        transaction.perform(disableActions: true) {
            scene.setContents(contents)
            scene.setScale(1)
        }
        trackedScale = 1
        phase = .tracking
    }

    /// A pinch update: applied at once, no implicit animation. Returns whether the pages moved.
    @discardableResult
    func track(_ rawScale: Double) -> Bool {
        guard phase == .tracking else { return false }
        let clamped = FoldScene.clamp(rawScale)
        guard clamped != trackedScale else { return false }
        trackedScale = clamped
        transaction.perform(disableActions: true) { scene.setScale(clamped) }
        return true
    }

    /// The fingers lifted: both pages animate to identity over 0.5 / s seconds.
    func release() {
        guard phase == .tracking else { return }
        phase = .animating
        transaction.perform(duration: 0.5 / trackedScale, completion: { [weak self] in self?.completeUnfold() }) {
            for page in scene.pages { page.shadowLayer.transform = .identity }
        }
    }

    /// `]`: one more fold step, animated implicitly (0.25 s, the default curve).
    func foldStep(contents: AnyObject?) {
        if phase == .idle { begin(contents: contents) }
        guard phase == .tracking else { return }
        for page in scene.pages {
            let sign = page.side == .left ? 1.0 : -1.0
            page.shadowLayer.transform = page.shadowLayer.transform.scaled(Self.stepScale, Self.stepScale, Self.stepScale)
                .rotated(sign * Self.stepAngle, 0, 1, 0)
        }
        trackedScale *= Self.stepScale
        transaction.flush()
    }

    /// `[`: back to the bare perspective, curtain down, drawing on (part 1's "unfold").
    func unfoldSteps() {
        guard phase == .tracking else { return }
        transaction.perform(disableActions: true) { scene.setScale(1) }
        phase = .idle
        trackedScale = 1
    }

    private func completeUnfold() {
        phase = .idle
        trackedScale = 1
        onUnfoldCompleted?(transaction.now)
    }

    /// Whether frames are still wanted for animation.
    var isAnimating: Bool {
        phase == .animating || scene.root.isAnimating(at: transaction.now)
    }
}
