import FolioLayers
import FolioPixels
import FolioRender

/// The page turn (the page-flip article) on its layer tree: the leaf follows the finger at once,
/// and let go it completes or falls back on Core Animation's default curve. Which sheets are
/// shown, and when a turn may start, are for the session's mode to decide, not this type.
public final class TurnController {
    /// The longest a settling turn takes (a whole half turn), in seconds.
    public static let settleDuration = 0.4

    public private(set) var scene: PageTurnScene
    /// The earlier and later sheets' pictures, and the leaf's back made from them.
    private var earlier: Bitmap?
    private var later: Bitmap?
    private var seeThrough: SeeThrough?
    /// The running settle: from and to angles, when it began (ms) and how long it lasts.
    private var settle: (from: Double, to: Double, begin: Double, duration: Double, completion: () -> Void)?
    private var now = 0.0

    public init(width: Double, height: Double) {
        scene = PageTurnScene(width: width, height: height)
    }

    /// The leaf's angle on screen, −π…0.
    public var angle: Double { scene.angle }

    /// Whether the leaf is settling (frames wanted without input).
    public var isAnimating: Bool { settle != nil }

    /// A new window size: a new scene, empty until the next turn; a settling turn is dropped
    /// without its completion (the session has ended it).
    func resize(width: Double, height: Double) {
        scene = PageTurnScene(width: width, height: height)
        settle = nil
        earlier = nil
        later = nil
        seeThrough = nil
    }

    /// A turn between `earlier` and `later` (frame-size pictures) begins with the leaf at `angle`.
    public func begin(earlier: Bitmap, later: Bitmap, angle: Double, scale: Double) {
        self.earlier = earlier
        self.later = later
        if seeThrough?.width != earlier.width || seeThrough?.height != earlier.height {
            seeThrough = SeeThrough(width: earlier.width, height: earlier.height, scale: scale)
        }
        seeThrough?.take(earlier)
        settle = nil
        scene.setContents(earlier: earlier, later: later, leafBack: nil)
        track(angle)
    }

    /// The finger moved: the leaf goes to `angle` at once.
    public func track(_ angle: Double) {
        scene.setAngle(angle)
        updateBack()
    }

    /// Let go: the leaf settles at `target` (−π or 0) on the default curve, taking at most
    /// `settleDuration` for a whole half turn and less for what is left; then `completion`.
    func release(to target: Double, completion: @escaping () -> Void) {
        let distance = abs(target - scene.angle) / Double.pi
        settle = (scene.angle, target, now, Self.settleDuration * 1000 * distance, completion)
        advance(to: now)
    }

    /// Moves the clock (ms): the settling leaf follows its curve, and completes when due.
    func advance(to time: Double) {
        now = max(now, time)
        guard let running = settle else { return }
        let t = running.duration > 0 ? (now - running.begin) / running.duration : 1
        if t >= 1 {
            track(running.to)
            settle = nil
            running.completion()
        } else {
            track(running.from + (running.to - running.from) * TimingFunction.default.value(at: t))
        }
    }

    /// The leaf's back: the later sheet with the earlier drawing showing through, fading out as
    /// the leaf comes down on the left (so the last frame is exactly the later sheet).
    private func updateBack() {
        guard let seeThrough, let later else { return }
        let remaining = (Double.pi - abs(scene.angle)) / (Double.pi / 2)
        scene.leafBack.contents = seeThrough.picture(over: later, strength: min(max(remaining, 0), 1))
    }
}
