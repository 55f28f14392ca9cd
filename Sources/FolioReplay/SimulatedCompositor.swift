import FolioCore
import FolioGeometry
import FolioPixels

/// A compositor in memory, the surface `Replay` gives the frame loop, on a display with a clock
/// (`DisplayClock`): a commit made before a vblank's repaint deadline is presented at that vblank,
/// a later one at the next. A commit's frame callback fires at the vblank that presents it, as a
/// real compositor's does, and a presented buffer stays busy (on screen) until a newer buffer is
/// presented. Its buffers are real, as the live app's pool is: the client draws straight into
/// them, so what a commit shows is what that buffer holds. It is strict as a compositor is: a commit the live rules forbid (before configure,
/// with a frame in flight, with no buffer free) is an error, not a frame.
public final class SimulatedCompositor: FrameSurface {
    public struct ProtocolViolation: Error, CustomStringConvertible {
        public let description: String
    }

    /// A buffer the display showed: the `index`-th presented, at the vblank `presented` (ms),
    /// committed at `committed`, drawn with input up to the event at `input` (nil: none yet).
    public struct Presentation: Equatable, Sendable {
        public let index: Int
        public let presented: Double
        public let committed: Double
        public let input: Double?
    }

    /// A commit waiting for its vblank: with a buffer (`input` then says what it shows) or only
    /// a frame request.
    private struct Commit {
        let time: Double
        let buffer: BufferID?
        let input: Double?
        var hasBuffer: Bool { buffer != nil }
    }

    /// A buffer of the chain of one size (`generation` counts the sizes).
    private struct BufferID: Equatable {
        let generation: Int
        let index: Int
    }

    public let clock: DisplayClock
    /// Buffers the client draws into, as the live app's pool holds: at least two, as the one on
    /// screen comes back only when another replaces it.
    public let bufferCount: Int
    public private(set) var isConfigured = false
    public var isFrameInFlight: Bool { pending != nil }
    public var hasFreeBuffer: Bool { (pending?.hasBuffer == true ? 1 : 0) + (isShowingBuffer ? 1 : 0) < bufferCount }
    /// Buffers committed so far.
    public private(set) var framesCommitted = 0
    /// Buffers presented so far.
    public private(set) var framesPresented = 0
    /// The newest buffer presented.
    public private(set) var lastPresentation: Presentation?

    /// Now (ms), as far as the simulation has got.
    private var now = 0.0
    /// Vblanks passed so far; the next is `clock.vblank(vblanks + 1)`.
    private var vblanks = 0
    /// The commit (one frame in flight) its vblank has not taken yet.
    private var pending: Commit?
    /// The buffer on screen (busy until a newer one is presented).
    private var shown: BufferID?
    private var isShowingBuffer: Bool { shown != nil }
    /// The buffers of the current size, which are busy, and what each lacks.
    private var chain: SwapChain?
    private var buffers: [Bitmap] = []
    private var generation = 0
    /// The buffer handed out for the frame being drawn, committed by the next `present`.
    private var acquired: BufferID?
    /// The newest buffer committed.
    private var committedBuffer: Bitmap?
    /// When the client's timer asks for a frame callback (`requestFrame(after:)`), if it is armed.
    private var wakeAt: Double?
    /// When the client's timer wakes it to draw a late frame (`wakeToDraw(at:)`), if it is armed.
    public private(set) var drawWake: Double?
    /// What drawing a frame costs on the trace's clock (ms), given what it cost on the wall
    /// clock: a commit lands that much after the moment it was drawn. 0 unless set, so a replay
    /// is the same on every machine.
    public var renderCost: (_ measured: Double) -> Double = { _ in 0 }

    public init(clock: DisplayClock = .standard, bufferCount: Int = 2) {
        self.clock = clock
        self.bufferCount = max(2, bufferCount)
    }

    /// The time of the next vblank (ms).
    public var nextRefresh: Double { clock.vblank(vblanks + 1) }

    /// Whether a refresh would tell the client anything (a frame callback, a buffer back, its
    /// timer's frame request): the buffer on screen stays there until the client commits.
    public var isQuiet: Bool { pending == nil && wakeAt == nil && drawWake == nil }

    /// Lets the refreshes before `time` pass at once: while nothing is pending they tell the
    /// client nothing, and a trace may wait hours between events.
    public func skipRefreshes(before time: Double) {
        guard isQuiet else { return }
        let passed = clock.vblankIndex(atOrBefore: time)
        if passed > vblanks { vblanks = passed }
    }

    /// The client's draw timer goes off (at `drawWake`): the loop draws its late frame.
    public func wakeForDrawing(_ loop: FrameLoop) throws {
        guard let wake = drawWake else { return }
        drawWake = nil
        now = max(now, wake)
        try loop.drawTimeReached()
    }

    /// The first configure: from now on buffers may be attached.
    public func configure() {
        isConfigured = true
    }

    /// Moves the clock to `time` without a refresh (an input event arrives then).
    public func advance(to time: Double) {
        now = max(now, time)
    }

    /// The vblank at `nextRefresh`: a commit made before its deadline is presented, the buffer it
    /// replaces comes back, then its frame callback fires, each told to `loop` as the
    /// compositor's events would be. Returns the buffer presented, if any.
    @discardableResult
    public func refresh(_ loop: FrameLoop) throws -> Presentation? {
        let vblank = nextRefresh
        now = max(now, vblank)
        vblanks += 1
        // The client's timer went off since the last refresh: it committed a frame request then.
        if let wake = wakeAt, wake <= vblank {
            wakeAt = nil
            if isConfigured, pending == nil { pending = Commit(time: wake, buffer: nil, input: nil) }
        }
        guard let commit = pending, clock.reaches(commit.time, vblank: vblank) else { return nil }
        var presentation: Presentation?
        if commit.hasBuffer {
            presentation = Presentation(index: framesPresented, presented: vblank, committed: commit.time, input: commit.input)
            lastPresentation = presentation
            framesPresented += 1
            // The buffer it replaces comes back first, while the frame is still in flight: the
            // client draws at the callback, from the state at the vblank.
            let replaced = shown
            shown = commit.buffer
            if let replaced {
                if replaced.generation == generation { chain?.released(replaced.index) }
                try loop.bufferReleased()
            }
        }
        pending = nil
        try loop.frameCallback(at: vblank)
        return presentation
    }

    /// The vblank a commit made now reaches: the first whose repaint deadline is still ahead.
    public var presentationForecast: PresentationForecast? {
        var index = max(vblanks + 1, clock.vblankIndex(atOrBefore: now) + 1)
        while !clock.reaches(now, vblank: clock.vblank(index)) { index += 1 }
        return PresentationForecast(time: clock.vblank(index), refreshInterval: clock.interval, repaintWindow: clock.repaintWindow)
    }

    public func acquireBuffer(width: Int, height: Int) throws -> FrameTarget? {
        guard isConfigured else { throw ProtocolViolation(description: "a buffer asked for before the first configure") }
        if chain?.width != width || chain?.height != height {
            // A new size: new buffers, lacking everything; the old ones are dropped as they come back.
            chain = SwapChain(width: width, height: height, capacity: bufferCount)
            buffers = []
            generation += 1
        }
        guard hasFreeBuffer, var next = chain, let index = next.acquire() else { return nil }
        chain = next
        if index == buffers.count { buffers.append(Bitmap(width: width, height: height)) }
        acquired = BufferID(generation: generation, index: index)
        return FrameTarget(bitmap: buffers[index], missing: next.missing(index))
    }

    public func present(damage: Region, input: Double?) throws {
        guard isConfigured else { throw ProtocolViolation(description: "a buffer committed before the first configure") }
        guard !isFrameInFlight else { throw ProtocolViolation(description: "a frame committed while one is in flight") }
        guard hasFreeBuffer else { throw ProtocolViolation(description: "a frame drawn while every buffer is busy") }
        guard let buffer = acquired, buffer.generation == generation, var next = chain else {
            throw ProtocolViolation(description: "a frame committed without a buffer drawn into")
        }
        acquired = nil
        next.committed(buffer.index, damage: damage)
        chain = next
        committedBuffer = buffers[buffer.index]
        framesCommitted += 1
        pending = Commit(time: now, buffer: buffer, input: input)
    }

    public var clockNow: Double? { now }

    public func wakeToDraw(at time: Double) {
        drawWake = max(time, now)
    }

    /// The commit just made lands its `renderCost` after the moment it was drawn.
    public func renderCost(measured: Double) -> Double {
        let cost = renderCost(measured)
        guard cost.isFinite, cost > 0, let commit = pending, commit.hasBuffer else { return 0 }
        pending = Commit(time: commit.time + cost, buffer: commit.buffer, input: commit.input)
        return cost
    }

    /// The toolbar's layer as last committed: a copy of its image, and where it sits (logical px).
    public private(set) var toolbar: (image: Bitmap, origin: Point)?
    public private(set) var toolbarCommits = 0

    public func presentToolbar(_ image: Bitmap, at origin: Point, barShown: Bool) throws {
        guard isConfigured else { throw ProtocolViolation(description: "a toolbar committed before the first configure") }
        let copy = Bitmap(width: image.width, height: image.height)
        copy.copy(image.bounds, from: image)
        toolbar = (copy, origin)
        toolbarCommits += 1
    }

    /// What the newest commit shows: its buffer (at `scale` buffer pixels per logical pixel) with
    /// the toolbar's layer over it; nil before the first.
    public func committedScreen(scale: Double) -> Bitmap? {
        committedBuffer.map { screen($0, scale: scale) }
    }

    /// What the screen shows: `frame` (at `scale` buffer pixels per logical pixel) with the
    /// toolbar's layer over it.
    public func screen(_ frame: Bitmap, scale: Double) -> Bitmap {
        let screen = Bitmap(width: frame.width, height: frame.height)
        screen.copy(frame.bounds, from: frame)
        if let toolbar {
            screen.draw(toolbar.image, atX: Int((toolbar.origin.x * scale).rounded()), y: Int((toolbar.origin.y * scale).rounded()))
        }
        return screen
    }

    public func requestFrame() {
        guard isConfigured, !isFrameInFlight else { return }
        pending = Commit(time: now, buffer: nil, input: nil)
    }

    public func requestFrame(after milliseconds: Double) {
        wakeAt = now + milliseconds
    }
}
