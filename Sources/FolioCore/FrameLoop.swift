import FolioGeometry
import FolioInput
import FolioPixels

/// Where frames go: a window on a compositor, or a stand-in for one (the replay's simulated
/// compositor, a test's scripted surface). The surface reports the compositor's state; the
/// `FrameLoop` decides what to do with it.
public protocol FrameSurface: AnyObject {
    /// The compositor has configured the surface: a buffer may be attached.
    var isConfigured: Bool { get }
    /// A frame callback is outstanding: the next frame waits for it (one frame in flight).
    var isFrameInFlight: Bool { get }
    /// A buffer is free to draw into (the compositor has released one).
    var hasFreeBuffer: Bool { get }
    /// A free buffer of `width`×`height` (buffer pixels) to draw the next frame into, and what it
    /// lacks; nil when every buffer is busy. A buffer the compositor holds is never handed out.
    func acquireBuffer(width: Int, height: Int) throws -> FrameTarget?
    /// Commits the buffer last acquired, the frame drawn into it changing `damage` (buffer
    /// pixels), and asks for a frame callback. `input` is the time (ms) of the newest input event
    /// drawn into it, nil before any: what the frame shows, for measuring how long input takes to
    /// reach the screen.
    func present(damage: Region, input: Double?) throws
    /// Asks for a frame callback without a new buffer, to keep an animation clock ticking.
    func requestFrame()
    /// Asks for one frame callback once `milliseconds` have passed, without a buffer, replacing
    /// an earlier such request: the clock sleeps until then rather than ticking every refresh.
    func requestFrame(after milliseconds: Double)
    /// When a buffer committed now would be presented; nil when the surface cannot tell (the frame
    /// loop then reckons from frame callbacks).
    var presentationForecast: PresentationForecast? { get }
    /// Now (ms) on the clock of `presentationForecast`; nil when the surface cannot wake the loop
    /// at a time of its choosing (every frame is then drawn as soon as it may be).
    var clockNow: Double? { get }
    /// Wakes the loop (`FrameLoop.drawTimeReached()`) at `time` (ms, on `clockNow`'s clock),
    /// replacing an earlier such wake-up.
    func wakeToDraw(at time: Double)
    /// The frame just committed took `measured` ms (wall clock) to draw and commit: what it took
    /// on the clock frames are scheduled on, which is the wall clock unless the surface keeps a
    /// simulated one (and then decides the cost, and when the commit lands).
    func renderCost(measured: Double) -> Double
    /// Shows the toolbar's new `image` (buffer pixels) with its top-left at `origin` (logical
    /// px), on a layer of its own above the frame: the frame beneath is not drawn again.
    /// `barShown` says whether the bar is up, not just its handle.
    func presentToolbar(_ image: Bitmap, at origin: Point, barShown: Bool) throws
}

extension FrameSurface {
    public var presentationForecast: PresentationForecast? { nil }
    public var clockNow: Double? { nil }
    public func wakeToDraw(at time: Double) {}
    public func renderCost(measured: Double) -> Double { measured }
}

/// The one place that decides when a `Session` is drawn and committed: the live app (a Wayland
/// window), `folio replay` (a simulated compositor) and the tests all drive it, so a replay passes
/// only where the app would. The rule, foot's frame discipline: input goes into the session at
/// once; a frame is drawn when the session has damage, the surface is configured, no frame is in
/// flight and a buffer is free. Input that arrives meanwhile accumulates and is drawn at the next
/// opportunity, from the newest state. While a stroke is live, a frame the surface can forecast
/// is drawn late instead: just before the repaint deadline of the vblank it would make anyway
/// (`FrameScheduler`), so it carries newer input to the same presentation.
public final class FrameLoop {
    public let session: Session
    private let surface: any FrameSurface
    /// When (ms) the page renderer was made ready: the first frame callback; nil before it.
    public private(set) var foldPreparedAt: Double?
    /// The session's `nextChange` the surface was last asked to wake for.
    private var wakeRequested: Double?
    /// The time (ms) of the newest input event handled so far: the next frame drawn contains it.
    public private(set) var newestInput: Double?

    /// The newest frame callback's time and the shortest gap seen between two (ms): the refresh,
    /// where the surface gives no forecast of its own.
    private var lastCallback: Double?
    private var callbackInterval: Double?
    /// Gaps between frame callbacks taken for a refresh (ms): 250 Hz to 10 Hz.
    private static let refreshIntervals = 4.0...100.0

    /// Told after each commit how long rendering and committing the frame took (replay's frame
    /// statistics). The fold preparation at the first frame is not counted: the app pays it once.
    public var onFramePresented: ((Duration) -> Void)?

    /// Live strokes' frames are committed just before the deadline (on by default); off, every
    /// frame is drawn as soon as the compositor takes one, for comparison.
    public var lateCommits = true
    /// The margin it keeps and the vblanks it missed.
    public private(set) var scheduler = FrameScheduler()
    /// The wake-up asked of the surface for a late frame, on its clock.
    private var drawAt: Double?
    /// The vblank the late frame committed last aims at, the refresh then, and the newest input
    /// it drew; until judged.
    private var lateTarget: (vblank: Double, interval: Double, input: Double?)?
    /// The surface reports when frames are presented (`framePresented`): late frames are judged
    /// by that rather than by when their callback came.
    private var hasPresentationTimes = false

    public init(session: Session, surface: any FrameSurface) {
        self.session = session
        self.surface = surface
    }

    /// Nothing to draw, nothing animating or waiting to change, nothing in flight: the screen
    /// shows the session's state for good.
    public var isIdle: Bool {
        !session.needsFrame && !session.toolbarNeedsFrame && !session.isAnimating && session.nextChange == nil
            && !session.showsPredictedInk && !surface.isFrameInFlight
    }

    /// An input event that happened at `time` (ms).
    public func inputArrived(_ event: InputEvent, at time: Double) throws {
        session.handle(event, at: time)
        newestInput = max(newestInput ?? time, time)
        try drawIfReady()
    }

    /// The compositor configured the surface: the first time, or with a new size or scale.
    public func configured(width: Int, height: Int, scale: BufferScale) throws {
        // Time 0: a size is not an event on the session's clock, and the clock never goes back.
        session.handle(.resize(width: width, height: height, scale: scale), at: 0)
        try drawIfReady()
    }

    /// The shelf drew book `id`'s cover picture again (in the background): shown if it is on screen.
    public func coverRefreshed(id: String) throws {
        session.coverRefreshed(id: id)
        try drawIfReady()
    }

    /// A frame callback fired: the compositor is ready for a frame to be seen at `time` (ms).
    public func frameCallback(at time: Double) throws {
        if foldPreparedAt == nil {
            // The window is up: make the page renderer now rather than at the first pinch.
            session.prepareToFold()
            foldPreparedAt = time
        }
        if let last = lastCallback, Self.refreshIntervals.contains(time - last) {
            callbackInterval = min(callbackInterval ?? .infinity, time - last)
        }
        lastCallback = time
        if !hasPresentationTimes, let target = lateTarget, let now = surface.clockNow {
            scheduler.presented(target: target.vblank, at: now, interval: target.interval)
            lateTarget = nil
        }
        session.advance(to: time)
        // A wake-up that came early (clocks differ a little) is asked for again.
        wakeRequested = nil
        try drawIfReady()
    }

    /// The compositor released a buffer: a frame that found every buffer busy can go now.
    public func bufferReleased() throws {
        try drawIfReady()
    }

    /// The frame that drew input up to `input` was presented at `time` (ms, on the surface's
    /// clock), as presentation feedback tells: a late frame is judged by it.
    public func framePresented(input: Double, at time: Double) {
        hasPresentationTimes = true
        guard let target = lateTarget, target.input == input else { return }
        scheduler.presented(target: target.vblank, at: time, interval: target.interval)
        lateTarget = nil
    }

    /// The moment a late frame waited for: it is drawn now, with the input that came meanwhile.
    public func drawTimeReached() throws {
        drawAt = nil
        try drawIfReady()
    }

    /// When the frame drawn now will be seen: the surface's word, else reckoned from frame callbacks.
    private func forecast() -> PresentationForecast? {
        if let forecast = surface.presentationForecast { return forecast }
        guard let lastCallback, let callbackInterval else { return nil }
        return PresentationForecast.fromCallbacks(lastCallback: lastCallback, interval: callbackInterval, now: session.now)
    }

    private func drawIfReady() throws {
        guard surface.isConfigured else { return }
        if session.toolbarNeedsFrame {
            let toolbar = session.renderToolbar()
            try surface.presentToolbar(toolbar.image, at: toolbar.origin, barShown: session.toolbar.isShown)
        }
        guard !surface.isFrameInFlight else { return }
        if session.needsFrame || session.showsPredictedInk {
            guard surface.hasFreeBuffer else { return }  // the next release draws
            let late = lateSchedule()
            if let wake = late?.wake {
                if drawAt != wake { surface.wakeToDraw(at: wake) }
                drawAt = wake
                return
            }
            drawAt = nil
            let start = ContinuousClock.now
            guard let target = try surface.acquireBuffer(width: session.pixelWidth, height: session.pixelHeight) else { return }
            if session.isDrawing { session.predictInk(for: forecast()) }
            let input = newestInput
            let damage = session.renderFrame(into: target)
            try surface.present(damage: damage, input: input)
            let elapsed = ContinuousClock.now - start
            let cost = surface.renderCost(measured: Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
            if let late {
                scheduler.rendered(cost: cost)
                lateTarget = (late.vblank, late.interval, input)
            }
            onFramePresented?(elapsed)
        } else if session.isAnimating {
            surface.requestFrame()
        } else if let change = session.nextChange, change != wakeRequested {
            wakeRequested = change
            surface.requestFrame(after: max(0, change - session.now))
        }
    }

    /// For a live stroke's frame on a surface that forecasts and can wake the loop: the vblank
    /// the frame is for, and when to draw it if not now (nil: draw now).
    private func lateSchedule() -> (vblank: Double, interval: Double, wake: Double?)? {
        guard lateCommits, session.isDrawing, let now = surface.clockNow, let forecast = surface.presentationForecast else { return nil }
        let plan = scheduler.plan(for: forecast, now: now)
        return (plan.vblank, forecast.refreshInterval, plan.wake)
    }
}
