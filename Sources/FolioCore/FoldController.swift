/// The pinch fold's state machine (SPEC §2.3): live tracking of the clamped scale while the
/// fingers move, then an unfold over 0.5 / s seconds, after which drawing resumes.
public struct FoldController: Sendable {
    public static let minimumScale = 0.48
    public static let maximumScale = 1.0

    public enum Phase: String, Sendable {
        case idle, tracking, animating
    }

    public private(set) var phase = Phase.idle
    /// The clamped scale on screen now (1 when the book lies open).
    public private(set) var scale = 1.0
    private var animationStart = 0.0
    private var animationDuration = 0.0
    private var releaseScale = 1.0

    public init() {}

    public static func clamp(_ scale: Double) -> Double {
        min(max(scale, minimumScale), maximumScale)
    }

    public var isFolded: Bool { phase != .idle }

    public mutating func begin() {
        phase = .tracking
        scale = 1
    }

    /// Applies a new raw pinch scale at once (no implicit animation); returns whether it changed.
    @discardableResult
    public mutating func track(_ rawScale: Double) -> Bool {
        guard phase == .tracking else { return false }
        let clamped = Self.clamp(rawScale)
        defer { scale = clamped }
        return clamped != scale
    }

    /// The fingers lifted: animate open over 0.5 / s seconds, from `time` (ms).
    public mutating func release(at time: Double) {
        guard phase == .tracking else { return }
        phase = .animating
        releaseScale = scale
        animationStart = time
        animationDuration = 500 / scale
    }

    /// When the unfold animation ends, in ms; nil unless animating.
    public var animationEnd: Double? {
        phase == .animating ? animationStart + animationDuration : nil
    }

    /// Moves the animation clock; returns true when the unfold completed at this step.
    public mutating func advance(to time: Double) -> Bool {
        guard phase == .animating else { return false }
        let t = min(max((time - animationStart) / animationDuration, 0), 1)
        scale = releaseScale + (1 - releaseScale) * t
        if t >= 1 {
            phase = .idle
            scale = 1
            return true
        }
        return false
    }
}
