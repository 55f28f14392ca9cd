import CWaylandClient
import CWaylandProtocols
import Glibc

/// When the frame about to be drawn will reach the screen, from when earlier frames did: the
/// animation is then computed for the moment it is seen, not for the moment it is drawn.
/// Times are ms on `monotonicMilliseconds()`'s timeline.
struct FramePrediction {
    /// The newest frame known to be on screen, and the output's refresh interval then.
    private var lastPresented: Double?
    private var refresh: Double = 0

    /// A frame reached the screen at `time`; `refresh` is the output's interval (0: not constant).
    mutating func presented(at time: Double, refresh: Double) {
        lastPresented = max(lastPresented ?? time, time)
        self.refresh = refresh
    }

    /// The newest vblank known and the refresh interval; nil before one, or without a constant rate.
    var cycle: (time: Double, interval: Double)? {
        guard let lastPresented, refresh > 0 else { return nil }
        return (lastPresented, refresh)
    }

    /// The refresh cycle a frame drawn `now` lands on: after the `queued` frames committed but not
    /// yet on screen (one cycle each), and not before `now`. Nil without a constant refresh rate.
    func presentationTime(drawnAt now: Double, queued: Int) -> Double? {
        guard let lastPresented, refresh > 0 else { return nil }
        let cyclesToNow = ((now - lastPresented) / refresh).rounded(.down) + 1
        return lastPresented + refresh * max(Double(queued + 1), cyclesToNow)
    }
}

/// The wp_presentation global and its clock. Its listener is set at bind time: `clock_id`
/// arrives right after the bind and would be dropped otherwise.
final class Presentation {
    let proxy: OpaquePointer
    /// The clock presentation times are given on, once `clock_id` named one this process reads too.
    private(set) var clock: clockid_t?
    private let listener: HeapListener<wp_presentation_listener>

    /// The clocks that mean the same in every process (not CPU-time clocks or dynamic ids).
    private static let systemClocks: Set<clockid_t> = [
        CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW, CLOCK_MONOTONIC_COARSE, CLOCK_BOOTTIME, CLOCK_REALTIME,
    ]

    init(proxy: OpaquePointer) {
        self.proxy = proxy
        listener = HeapListener(wp_presentation_listener(clock_id: { data, _, id in
            guard let presentation: Presentation = owner(data) else { return }
            let clock = clockid_t(bitPattern: id)
            presentation.clock = Presentation.systemClocks.contains(clock) ? clock : nil
        }))
        wp_presentation_add_listener(proxy, listener.pointer, userData(self))
    }

    deinit {
        wp_presentation_destroy(proxy)
    }

    /// A time on the compositor's clock (s, ns) on our timeline, shifted by the two clocks'
    /// difference read now when they differ; nil when its clock is unknown to us.
    func sessionMilliseconds(seconds: UInt64, nanoseconds: UInt32) -> Double? {
        guard let clock else { return nil }
        let time = Double(seconds) * 1000 + Double(nanoseconds) / 1_000_000
        if clock == CLOCK_MONOTONIC { return time }
        var theirs = timespec()
        guard clock_gettime(clock, &theirs) == 0 else { return nil }
        let theirNow = Double(theirs.tv_sec) * 1000 + Double(theirs.tv_nsec) / 1_000_000
        return time + (monotonicMilliseconds() - theirNow)
    }
}

/// Presentation feedback for one surface: a feedback object per committed frame, whose
/// `presented` event feeds the prediction. Proxies are destroyed when they fire. The flags are
/// not needed: a refresh of 0 already says the output has no cycle to predict from.
final class PresentationFeedback {
    private let presentation: Presentation
    private let surface: OpaquePointer
    private var prediction = FramePrediction()
    /// Feedback of committed frames not yet presented or discarded, oldest first, with the
    /// newest input time each frame drew (nil: a frame request without a buffer).
    private var outstanding: [OpaquePointer] = []
    private var inputs: [OpaquePointer: Double] = [:]
    /// A frame carrying input `(input, presented)` reached the screen (ms, session timeline).
    var onPresented: ((Double, Double) -> Void)?
    private let listener: HeapListener<wp_presentation_feedback_listener>

    init(presentation: Presentation, surface: OpaquePointer) {
        self.presentation = presentation
        self.surface = surface
        outstanding.reserveCapacity(4)
        listener = HeapListener(wp_presentation_feedback_listener(
            sync_output: { _, _, _ in },
            presented: { data, feedback, secondsHigh, secondsLow, nanoseconds, refresh, _, _, _ in
                guard let tracker: PresentationFeedback = owner(data), let feedback else { return }
                let seconds = UInt64(secondsHigh) << 32 | UInt64(secondsLow)
                if let time = tracker.presentation.sessionMilliseconds(seconds: seconds, nanoseconds: nanoseconds) {
                    tracker.prediction.presented(at: time, refresh: Double(refresh) / 1_000_000)
                    if let input = tracker.inputs[feedback] { tracker.onPresented?(input, time) }
                }
                tracker.resolved(feedback)
            },
            discarded: { data, feedback in
                guard let tracker: PresentationFeedback = owner(data), let feedback else { return }
                tracker.resolved(feedback)
            }))
    }

    deinit {
        for feedback in outstanding { wp_presentation_feedback_destroy(feedback) }
    }

    /// Asks feedback for the next commit of the surface (call just before committing), which
    /// draws input up to `input` (ms), if any.
    func request(input: Double?) {
        guard let feedback = wp_presentation_feedback(presentation.proxy, surface) else { return }
        wp_presentation_feedback_add_listener(feedback, listener.pointer, userData(self))
        outstanding.append(feedback)
        if let input { inputs[feedback] = input }
    }

    /// The newest vblank presented and the refresh; nil when unknown.
    var cycle: (time: Double, interval: Double)? { prediction.cycle }

    /// When a frame drawn now would be on screen, after the frames still queued; nil when unknown.
    func predictedPresentation(now: Double) -> Double? {
        prediction.presentationTime(drawnAt: now, queued: outstanding.count)
    }

    /// `feedback` fired: it and any older feedback the compositor left unanswered are done.
    private func resolved(_ feedback: OpaquePointer) {
        guard let index = outstanding.firstIndex(of: feedback) else { return wp_presentation_feedback_destroy(feedback) }
        for done in outstanding[...index] {
            inputs[done] = nil
            wp_presentation_feedback_destroy(done)
        }
        outstanding.removeSubrange(...index)
    }
}
