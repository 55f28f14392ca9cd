import FolioSketchbook
import FolioToolbar
import FolioTools

/// What a person sets once and keeps: the ink chosen last, the palette, the fold's perspective,
/// which gestures are on, and pen-only. Every value has a range; `SettingsFile` reads and writes
/// them as `config.toml` (docs/settings.md).
public struct Settings: Hashable, Sendable {
    /// The fold's perspective distance d (m34 = −1/d), in logical px.
    public static let perspectiveRange = 500.0...20000.0
    public static let standardPerspective = 2000.0

    public var palette = Palette.standard
    /// The ink chosen last (the session's `ToolState.ink` when written back).
    public var ink = InkChoice()
    public var perspective = Settings.standardPerspective
    /// A touch by the left or right edge turns the page.
    public var edgeTurn = true
    /// Two fingers (or a touchpad pinch) fold the book.
    public var pinch = true
    /// A two-finger tap undoes, a three-finger tap redoes.
    public var tapUndo = true
    /// A stroke whose end is held still snaps to a line, ellipse, rectangle or triangle.
    public var holdToShape = true
    /// Fingers do not draw (for pens); kept for the pen's input.
    public var penOnly = false
    /// Live strokes are drawn ahead to where the pen is predicted to be when the frame is seen.
    public var prediction = true
    /// A live stroke's frame is drawn just before the compositor's repaint deadline, with the
    /// newest input; off, each frame is drawn as soon as the compositor takes one.
    public var lateCommits = true
    /// What holding a pen's barrel button does.
    public var barrelButton = BarrelButton.eraser
    /// The paper a new sheet gets (the toolbar's `paper` chooses its kind).
    public var paper = Paper.plain

    public init() {}

    public static let standard = Settings()
}

/// What a pen's barrel button does while it is held (`pen.barrel_button`).
public enum BarrelButton: String, Hashable, Sendable, CaseIterable {
    /// The pen erases, as its eraser end does.
    case eraser
    /// Nothing: the pen draws.
    case none
}
