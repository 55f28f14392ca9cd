import FolioGeometry

/// What a button on the selection's bar does.
public enum SelectionAction: Hashable, Sendable {
    /// Removes the selected strokes (one undo step), ending the selection.
    case delete
    /// Appends copies of the selected strokes, `SelectionBar.duplicateOffset` away; the copies
    /// are selected then.
    case duplicate
    /// Gives the selected strokes colour `index` of the toolbar's palette (0-based).
    case color(Int)

    /// The name traces and the timeline use: `selection.delete`, `selection.color.2`, …
    public var name: String {
        switch self {
        case .delete: "selection.delete"
        case .duplicate: "selection.duplicate"
        case let .color(index): "selection.color.\(index + 1)"
        }
    }
}

/// The small bar beside a selection: delete, duplicate, then the palette's colours, in one row of
/// 48 px targets. It sits 8 px above the selection's box, its left edge on the box's, moved left
/// as far as needed to stay in the window (never past x 0); where there is no room above it goes
/// 8 px below the box, and where there is none below either, at the window's top.
public struct SelectionBar: Hashable, Sendable {
    public static let target = ToolbarLayout.target
    static let gap = 4.0
    static let padding = 8.0
    static let margin = 8.0
    /// How far the copies land from the strokes duplicated, right and down (logical px).
    public static let duplicateOffset = Point(x: 24, y: 24)

    /// The bar behind the buttons.
    public let rect: Rect
    public let buttons: [SelectionButton]

    /// The bar for a selection boxed by `box`, in a `width`×`height` logical window, offering
    /// `colors` colours.
    public init(box: Rect, width: Double, height: Double, colors: Int = Palette.colorCount) {
        let actions = [SelectionAction.delete, .duplicate] + (0..<colors).map(SelectionAction.color)
        let barWidth = Double(actions.count) * (Self.target + Self.gap) - Self.gap + 2 * Self.padding
        let barHeight = Self.target + 2 * Self.padding
        let x = max(0, min(box.minX, width - barWidth))
        let y: Double
        if box.minY - Self.margin - barHeight >= 0 {
            y = box.minY - Self.margin - barHeight
        } else if box.maxY + Self.margin + barHeight <= height {
            y = box.maxY + Self.margin
        } else {
            y = 0
        }
        rect = Rect(x: x, y: y, width: barWidth, height: barHeight)
        buttons = actions.enumerated().map { i, action in
            SelectionButton(action: action, rect: Rect(x: x + Self.padding + Double(i) * (Self.target + Self.gap), y: y + Self.padding,
                          width: Self.target, height: Self.target))
        }
    }

    /// The button at `p`, if any.
    public func action(at p: Point) -> SelectionAction? {
        buttons.first { $0.rect.contains(p) }?.action
    }
}

/// One button of the selection's bar and where it is (logical px).
public struct SelectionButton: Hashable, Sendable {
    public var action: SelectionAction
    public var rect: Rect
}
