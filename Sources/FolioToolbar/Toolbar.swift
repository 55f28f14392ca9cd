import FolioGeometry
import FolioSketchbook

/// The toolbar's state: shown or hidden, the control under a finger, what is disabled, and the
/// brief confirmation after an export. A value; the session owns one and feeds it what happens,
/// and the renderer draws it with the session's `ToolState` (which ink and tool are chosen).
public struct Toolbar: Hashable, Sendable {
    /// Shown, the bar hides itself after this long (ms) without a touch on it.
    public static let autoHideDelay = 4000.0
    /// How long an export's confirmation stays on screen (ms).
    public static let noticeDuration = 1500.0

    public private(set) var layout: ToolbarLayout
    public private(set) var palette: Palette
    public private(set) var isShown = false
    /// The control a finger (or the mouse) is on, drawn pressed.
    public private(set) var pressed: ControlAction?
    /// Whether the handle is pressed.
    public private(set) var handlePressed = false
    public var disabled: Set<ControlAction> = []
    /// The kind of paper new sheets get, shown on the `paper` control.
    public var paper = Paper.Kind.plain
    /// The confirmation on screen, if any: whether the export worked, and until when (ms).
    public private(set) var notice: Notice?
    /// Whether the toolbar is put away, handle and all (the shelf shows, or a book closes onto
    /// it): nothing of it is drawn or touched, and the bar is hidden.
    public var isAway = false {
        didSet { if isAway { hide() } }
    }
    /// When the bar was last touched or shown (ms): it hides `autoHideDelay` later.
    private var lastActivity = 0.0

    public struct Notice: Hashable, Sendable {
        public var succeeded: Bool
        public var until: Double
    }

    /// What a finger lifting on the toolbar did.
    public enum Tap: Hashable, Sendable {
        case handle
        case control(ControlAction)
    }

    public init(layout: ToolbarLayout, palette: Palette = .standard) {
        self.layout = layout
        self.palette = palette
    }

    /// The areas where a touch belongs to the toolbar rather than the canvas.
    public var touchAreas: [Rect] {
        if isAway { return [] }
        return isShown ? [layout.handle, layout.bar].filter { !$0.isEmpty } : [layout.handle]
    }

    public mutating func relayout(_ layout: ToolbarLayout) {
        self.layout = layout
        pressed = nil
        handlePressed = false
    }

    /// A finger or the mouse pressed at `p`, on the toolbar's areas.
    public mutating func press(at p: Point, time: Double) {
        lastActivity = time
        guard !isAway else { return }
        if layout.handle.contains(p) {
            handlePressed = true
        } else if isShown, let slot = layout.control(at: p), !disabled.contains(slot.action) {
            pressed = slot.action
        }
    }

    /// The finger lifted at `p` (or was taken for a pinch: `cancelled`). A tap is a lift on the
    /// very control (or handle) it pressed, and it counts only if that control is enabled.
    public mutating func release(at p: Point, cancelled: Bool, time: Double) -> Tap? {
        defer {
            pressed = nil
            handlePressed = false
        }
        lastActivity = time
        guard !cancelled else { return nil }
        if handlePressed, layout.handle.contains(p) {
            isShown.toggle()
            return .handle
        }
        guard let action = pressed, layout.control(at: p)?.action == action, !disabled.contains(action) else { return nil }
        return .control(action)
    }

    /// Hides the bar (drawing, folding or turning began); true if it was shown.
    @discardableResult
    public mutating func hide() -> Bool {
        pressed = nil
        handlePressed = false
        defer { isShown = false }
        return isShown
    }

    /// An export finished: shows the confirmation for a moment.
    public mutating func showNotice(succeeded: Bool, at time: Double) {
        notice = Notice(succeeded: succeeded, until: time + Self.noticeDuration)
    }

    /// Moves the clock on: the bar hides after a while untouched, and a confirmation goes away.
    /// Returns whether anything changed on screen.
    public mutating func advance(to time: Double) -> Bool {
        var changed = false
        if isShown, pressed == nil, !handlePressed, time - lastActivity >= Self.autoHideDelay {
            isShown = false
            changed = true
        }
        if let notice, time >= notice.until {
            self.notice = nil
            changed = true
        }
        return changed
    }

    /// When (ms) `advance` will next change something on screen: the bar hiding (not while a
    /// finger holds it) or the confirmation going; nil when nothing waits.
    public var deadline: Double? {
        let hiding = isShown && pressed == nil && !handlePressed ? lastActivity + Self.autoHideDelay : nil
        switch (hiding, notice?.until) {
        case let (hiding?, until?): return min(hiding, until)
        case let (time?, nil), let (nil, time?): return time
        case (nil, nil): return nil
        }
    }
}
