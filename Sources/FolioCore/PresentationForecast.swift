/// When a frame committed now will be seen: the vblank the commit makes (ms, on the input's
/// clock), and the display's refresh interval and repaint window (ms). Predicted ink is drawn to
/// `time`, looking no further than `horizonCap` past the newest sample.
public struct PresentationForecast: Equatable, Sendable {
    public var time: Double
    public var refreshInterval: Double
    public var repaintWindow: Double

    public init(time: Double, refreshInterval: Double, repaintWindow: Double) {
        self.time = time
        self.refreshInterval = refreshInterval
        self.repaintWindow = repaintWindow
    }

    /// One refresh and the repaint window: the longest a sample waits to be seen when frames keep up.
    public var horizonCap: Double { refreshInterval + repaintWindow }

    /// From frame callbacks alone: the first vblank after `now`, vblanks `interval` apart from
    /// the callback's time `lastCallback` (a vblank passed, or one to come when the window
    /// predicts presentation from feedback); the repaint window taken as half a refresh, as the
    /// compositor does not say.
    public static func fromCallbacks(lastCallback: Double, interval: Double, now: Double) -> Self? {
        guard interval > 0, interval.isFinite, lastCallback.isFinite, now.isFinite else { return nil }
        let refreshes = ((now - lastCallback) / interval).rounded(.down) + 1
        return Self(time: lastCallback + refreshes * interval, refreshInterval: interval, repaintWindow: interval / 2)
    }
}
