import FolioSketchbook
import FolioWayland

/// Covers the shelf drew again on its background queue, waiting for the app's loop: posting one
/// wakes the loop, which takes them all and shows them.
final class CoverNews: Sendable {
    private struct State {
        var ids: [String] = []
        var wakeup: LoopWakeup?
    }

    private let state = Locked(State())

    /// From the shelf's queue: book `id`'s cover is new.
    func post(_ id: String) {
        let wakeup = state.withLock { state -> LoopWakeup? in
            if !state.ids.contains(id) { state.ids.append(id) }
            return state.wakeup
        }
        wakeup?.wake()
    }

    /// From now on a post wakes the loop through `wakeup` (news posted before wait for it too).
    func connect(_ wakeup: LoopWakeup?) {
        let waiting = state.withLock { state -> Bool in
            state.wakeup = wakeup
            return !state.ids.isEmpty
        }
        if waiting { wakeup?.wake() }
    }

    /// On the loop: the covers posted since the last call.
    func take() -> [String] {
        state.withLock { state in
            defer { state.ids.removeAll() }
            return state.ids
        }
    }
}
