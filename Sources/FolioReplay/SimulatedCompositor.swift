import FolioCore
import FolioGeometry
import FolioPixels

/// A compositor in memory, the surface `Replay` gives the frame loop: a 60 Hz display where a
/// commit's frame callback fires at the next refresh (one frame in flight) and its buffer comes
/// back at that refresh too. It is strict as a compositor is: a commit the live rules forbid
/// (before configure, with a frame in flight, with no buffer free) is an error, not a frame.
public final class SimulatedCompositor: FrameSurface {
    public static let refreshInterval = 1000.0 / 60.0

    public struct ProtocolViolation: Error, CustomStringConvertible {
        public let description: String
    }

    /// Buffers the client draws into, as the live app's pool holds.
    public let bufferCount: Int
    public private(set) var isConfigured = false
    public private(set) var isFrameInFlight = false
    public var hasFreeBuffer: Bool { busyBuffers < bufferCount }
    /// Frames committed so far.
    public private(set) var framesPresented = 0

    /// Now (ms), as far as the simulation has got.
    private var now = 0.0
    /// Refreshes happened so far; the next is at `(refreshes + 1) * refreshInterval`.
    private var refreshes = 0
    private var busyBuffers = 0
    /// When the last commit happened: its callback and buffer wait for the refresh after it.
    private var lastCommit = 0.0
    /// When the client's timer asks for a frame callback (`requestFrame(after:)`), if it is armed.
    private var wakeAt: Double?

    public init(bufferCount: Int = 2) {
        self.bufferCount = max(1, bufferCount)
    }

    /// The time of the next display refresh (ms).
    public var nextRefresh: Double { Double(refreshes + 1) * Self.refreshInterval }

    /// Whether a refresh would tell the client anything (a frame callback, a buffer back, its
    /// timer's frame request).
    public var isQuiet: Bool { !isFrameInFlight && busyBuffers == 0 && wakeAt == nil }

    /// Lets the refreshes before `time` pass at once: while nothing is pending they tell the
    /// client nothing, and a trace may wait hours between events.
    public func skipRefreshes(before time: Double) {
        guard isQuiet else { return }
        let passed = Int((time / Self.refreshInterval).rounded(.down))
        if passed > refreshes { refreshes = passed }
    }

    /// The first configure: from now on buffers may be attached.
    public func configure() {
        isConfigured = true
    }

    /// Moves the clock to `time` without a refresh (an input event arrives then).
    public func advance(to time: Double) {
        now = max(now, time)
    }

    /// The display refreshes at `nextRefresh`: buffers committed before it come back, then the
    /// pending frame callback fires, each told to `loop` as the compositor's events would be.
    public func refresh(_ loop: FrameLoop) throws {
        let time = nextRefresh
        now = max(now, time)
        refreshes += 1
        // The client's timer went off since the last refresh: it committed a frame request then.
        if let wake = wakeAt, wake <= time {
            wakeAt = nil
            if isConfigured, !isFrameInFlight {
                isFrameInFlight = true
                lastCommit = max(lastCommit, wake)
            }
        }
        // A commit made exactly at this refresh (input at that instant) waits for the next one.
        guard lastCommit < time else { return }
        if busyBuffers > 0 {
            busyBuffers = 0
            try loop.bufferReleased()
        }
        if isFrameInFlight {
            isFrameInFlight = false
            try loop.frameCallback(at: time)
        }
    }

    public func present(_ frame: Bitmap, damage: Region) throws {
        guard isConfigured else { throw ProtocolViolation(description: "a buffer committed before the first configure") }
        guard !isFrameInFlight else { throw ProtocolViolation(description: "a frame committed while one is in flight") }
        guard hasFreeBuffer else { throw ProtocolViolation(description: "a frame drawn while every buffer is busy") }
        busyBuffers += 1
        framesPresented += 1
        commit()
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
        commit()
    }

    public func requestFrame(after milliseconds: Double) {
        wakeAt = now + milliseconds
    }

    private func commit() {
        isFrameInFlight = true
        lastCommit = now
    }
}
