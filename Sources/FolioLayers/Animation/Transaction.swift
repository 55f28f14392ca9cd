/// Core Animation's transactions for one layer tree: nested begin/commit groups that say whether
/// property changes animate (disableActions), for how long and on which curve, and a completion
/// block run once every animation added inside the group has finished.
///
/// Changes made with no explicit group open land in an implicit one, which `flush()` commits
/// once per frame, the way Core Animation commits at the end of a run-loop turn.
///
/// It is also the one animation clock: what animates on it (layer trees, scenes) is attached to
/// it, so `isAnimating` answers for all of them whether frames are still wanted.
public final class Transaction {
    /// Core Animation's implicit animation duration, in seconds.
    public static let defaultDuration = 0.25

    /// A completion block set in a group, so whoever set it can withdraw it before it runs.
    public struct Completion: Hashable, Sendable {
        fileprivate let id: Int
    }

    private struct Group {
        var disableActions: Bool?
        var duration: Double?
        var timing: TimingFunction?
        var completion: (id: Completion, block: () -> Void)?
        /// The latest end (ms) of the animations added while this group was open.
        var animationsEnd: Double?
        var isImplicit: Bool
    }

    private struct PendingCompletion {
        var id: Completion
        var time: Double
        var order: Int
        var block: () -> Void
    }

    /// Held weakly: a tree or scene dropped without being detached stops counting.
    private struct Attached {
        weak var object: (any Animating)?
    }

    /// The animation clock, in ms: what `advance(to:)` last set.
    public private(set) var now: Double = 0
    private var groups: [Group] = []
    private var pending: [PendingCompletion] = []
    private var commitCount = 0
    private var completionCount = 0
    private var attached: [Attached] = []

    public init() {}

    public func begin() {
        groups.append(Group(isImplicit: false))
    }

    /// Closes the innermost explicit group (and an implicit one opened inside it).
    public func commit() {
        while let group = groups.popLast() {
            finish(group)
            if !group.isImplicit { return }
        }
    }

    /// Commits the implicit group, if changes opened one.
    public func flush() {
        while let last = groups.last, last.isImplicit {
            finish(groups.removeLast())
        }
    }

    /// `begin()`, `body`, `commit()`; returns the completion set, if any.
    @discardableResult
    public func perform(disableActions: Bool? = nil, duration: Double? = nil, timing: TimingFunction? = nil,
                        completion: (() -> Void)? = nil, _ body: () -> Void) -> Completion? {
        begin()
        if let disableActions { self.disableActions = disableActions }
        if let duration { animationDuration = duration }
        if let timing { timingFunction = timing }
        let set = completion.map { setCompletionBlock($0) }
        body()
        commit()
        return set
    }

    /// Whether property changes apply at once; the innermost group that set it wins.
    public var disableActions: Bool {
        get { groups.reversed().lazy.compactMap(\.disableActions).first ?? false }
        set { withInnermost { $0.disableActions = newValue } }
    }

    /// Seconds an implicit animation lasts.
    public var animationDuration: Double {
        get { groups.reversed().lazy.compactMap(\.duration).first ?? Self.defaultDuration }
        set { withInnermost { $0.duration = newValue } }
    }

    public var timingFunction: TimingFunction {
        get { groups.reversed().lazy.compactMap(\.timing).first ?? .default }
        set { withInnermost { $0.timing = newValue } }
    }

    /// Runs once every animation added in the innermost group has finished (at once, at the
    /// next `advance`, when there were none).
    @discardableResult
    public func setCompletionBlock(_ block: @escaping () -> Void) -> Completion {
        completionCount += 1
        let id = Completion(id: completionCount)
        withInnermost { $0.completion = (id, block) }
        return id
    }

    /// Withdraws a completion that has not run: the animations it waited for were dropped (their
    /// scene went with a resize), and what it would have done is done otherwise.
    public func cancel(_ completion: Completion) {
        pending.removeAll { $0.id == completion }
        for i in groups.indices where groups[i].completion?.id == completion { groups[i].completion = nil }
    }

    /// What an animatable property change should do now: animate with these parameters,
    /// or nil to apply at once. Opens the implicit group if none is open.
    public func actionParameters() -> (duration: Double, timing: TimingFunction)? {
        if groups.isEmpty { groups.append(Group(isImplicit: true)) }
        return disableActions ? nil : (animationDuration * 1000, timingFunction)
    }

    /// Records an animation ending at `end` (ms) in every open group, so their completions wait for it.
    public func addAnimation(ending end: Double) {
        if groups.isEmpty { groups.append(Group(isImplicit: true)) }
        for i in groups.indices {
            groups[i].animationsEnd = max(groups[i].animationsEnd ?? end, end)
        }
    }

    /// Moves the clock to `time` (ms) and runs the completions that are due, earliest first.
    /// While a completion runs, `now` reads the moment its animations finished.
    public func advance(to time: Double) {
        flush()
        let target = max(now, time)
        let due = pending.filter { $0.time <= target }.sorted { ($0.time, $0.order) < ($1.time, $1.order) }
        pending.removeAll { $0.time <= target }
        for completion in due {
            now = max(now, completion.time)
            completion.block()
        }
        now = target
    }

    /// Whether a completion is still waiting for its animations.
    public var hasPendingCompletions: Bool { !pending.isEmpty }

    /// Whether frames are wanted for animation: a completion waits, or something attached to this
    /// clock still animates at `now`.
    public var isAnimating: Bool {
        hasPendingCompletions || attached.contains { $0.object?.isAnimating(at: now) == true }
    }

    /// `object`'s animations run on this clock from now on (set as its transactions).
    func attach(_ object: any Animating) {
        attached.removeAll { $0.object == nil || $0.object === object }
        attached.append(Attached(object: object))
    }

    /// `object` no longer animates on this clock.
    func detach(_ object: any Animating) {
        attached.removeAll { $0.object == nil || $0.object === object }
    }

    private func withInnermost(_ change: (inout Group) -> Void) {
        if groups.isEmpty { groups.append(Group(isImplicit: true)) }
        change(&groups[groups.count - 1])
    }

    private func finish(_ group: Group) {
        // An inner group's animations also hold back the groups around it.
        if let end = group.animationsEnd, !groups.isEmpty {
            for i in groups.indices { groups[i].animationsEnd = max(groups[i].animationsEnd ?? end, end) }
        }
        guard let (id, block) = group.completion else { return }
        commitCount += 1
        pending.append(PendingCompletion(id: id, time: group.animationsEnd ?? now, order: commitCount, block: block))
    }
}
