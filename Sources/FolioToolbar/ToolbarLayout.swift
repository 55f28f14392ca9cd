import FolioGeometry

/// What a toolbar control does when tapped.
public enum ControlAction: Hashable, Sendable {
    case undo, redo
    /// Ink colour `index` of the palette (0-based).
    case color(Int)
    /// Ink width `index` of the widths (0-based).
    case width(Int)
    /// The finger (and the mouse) erases whole strokes instead of drawing, until tapped again or
    /// an ink is chosen.
    case eraser
    /// The next finger or pen stroke draws a selection loop instead of ink.
    case lasso
    case newSheet, previousSheet, nextSheet, deleteSheet
    /// The next paper (plain, ruled, squared, dotted) for new sheets, and for a sheet without ink.
    case paper
    case export, fullscreen
    /// Plays the sheet back as it was drawn; any touch, click or key stops it.
    case play
    /// Closes the open book onto the shelf of books.
    case books

    /// The name `folio controls` prints and traces refer to: `undo`, `color.1`, `sheet.next`, …
    public var name: String {
        switch self {
        case .undo: "undo"
        case .redo: "redo"
        case let .color(index): "color.\(index + 1)"
        case let .width(index): "width.\(index + 1)"
        case .eraser: "eraser"
        case .lasso: "lasso"
        case .newSheet: "sheet.new"
        case .previousSheet: "sheet.previous"
        case .nextSheet: "sheet.next"
        case .deleteSheet: "sheet.delete"
        case .paper: "paper"
        case .export: "export"
        case .fullscreen: "fullscreen"
        case .play: "play"
        case .books: "books"
        }
    }
}

/// One control as laid out: what it does and where it is, in logical px.
public struct ControlSlot: Hashable, Sendable {
    public var action: ControlAction
    public var rect: Rect
}

/// Where the toolbar's pieces are for a window: the handle (a tab at the bottom edge, in the same
/// place whether the bar is shown or not) and, above it, the bar with its controls in rows.
///
/// Controls come in groups (history, colours, widths, sheets, output) that stay together on a
/// row where they fit; rows are centred and keep clear of the page-turn edge zones, so a turn that
/// starts at the bar's height still turns. The first row sits on the handle and later rows stack
/// above it; in a window too small for every row (below about 400×300) the last groups are left
/// out (the keyboard still reaches them). A new tool is one more entry in `groups`.
public struct ToolbarLayout: Hashable, Sendable {
    /// Every touch target is this square, in logical px.
    public static let target = 48.0
    public static let handleSize = Size(width: 96, height: 48)
    static let gap = 4.0
    static let groupGap = 16.0
    static let padding = 8.0
    /// Kept free at the left and right of the bar: the page-turn edge zones (32 px) and a margin.
    public static let sideClearance = 40.0

    public let width: Double
    public let height: Double
    /// Buffer pixels per logical pixel: rectangles are snapped so their edges fall on whole
    /// logical and whole buffer pixels, at fractional scales too.
    public let scale: Double
    public let handle: Rect
    /// The bar behind the controls (empty when none fits).
    public let bar: Rect
    /// The controls that fit in the window, in order.
    public let controls: [ControlSlot]

    /// The toolbar's groups of controls, in order, for `colors` and `widths` choices.
    public static func groups(colors: Int, widths: Int) -> [[ControlAction]] {
        [
            [.undo, .redo],
            (0..<colors).map(ControlAction.color),
            (0..<widths).map(ControlAction.width) + [.eraser, .lasso],
            [.newSheet, .previousSheet, .nextSheet, .deleteSheet, .paper],
            [.play, .export, .fullscreen, .books],
        ]
    }

    /// The layout for a `width`×`height` logical window at `scale`; `colors` and `widths` are how
    /// many choices the palette offers. A window too small for a row shows the handle and as
    /// many rows as fit above it.
    public init(width: Double, height: Double, scale: Double = 1, colors: Int = Palette.colorCount,
                widths: Int = Palette.widthCount) {
        self.width = width
        self.height = height
        let scale = scale.isFinite && scale > 0 ? scale : 1
        self.scale = scale
        // Edges go on whole logical px (a subsurface is placed in whole logical px), on multiples
        // of the smallest step that is also whole buffer px where there is one up to 8 (1.5: 2 px,
        // 1.25 and 1.75: 4 px), so the toolbar lands on the buffer's pixel grid.
        let grid = Double((1...8).first { k in abs((Double(k) * scale).rounded() - Double(k) * scale) < 1e-9 } ?? 1)
        func snap(_ v: Double) -> Double { (v / grid).rounded() * grid }
        func snapped(_ r: Rect) -> Rect {
            let x0 = snap(r.minX), y0 = snap(r.minY)
            return Rect(x: x0, y: y0, width: snap(r.maxX) - x0, height: snap(r.maxY) - y0)
        }

        let handle = snapped(Rect(x: (width - Self.handleSize.width) / 2, y: height - Self.handleSize.height,
                                  width: Self.handleSize.width, height: Self.handleSize.height))
        self.handle = handle

        // Rows of controls, each a list of (action, x offset from the row's start).
        let step = Self.target + Self.gap
        let available = width - 2 * Self.sideClearance - 2 * Self.padding
        var rows: [[(ControlAction, Double)]] = [[]]
        var cursor = 0.0
        for group in Self.groups(colors: colors, widths: widths) where !group.isEmpty {
            let groupWidth = Double(group.count) * step - Self.gap
            if !rows[rows.count - 1].isEmpty {
                // A group that fits no row whole flows on from here rather than leave a gap.
                if cursor + Self.groupGap + groupWidth <= available || groupWidth > available {
                    cursor += Self.groupGap
                } else {
                    rows.append([])
                    cursor = 0
                }
            }
            for action in group {
                // A group longer than a row continues on the next one.
                if !rows[rows.count - 1].isEmpty, cursor + Self.target > available {
                    rows.append([])
                    cursor = 0
                }
                rows[rows.count - 1].append((action, cursor))
                cursor += step
            }
            cursor -= Self.gap
        }

        // The first row sits on the handle, the next ones above it; rows that would leave the
        // window are left out.
        let fitting = max(0, min(rows.count, Int(((handle.minY - 2 * Self.padding + Self.gap) / step).rounded(.down))))
        var controls: [ControlSlot] = []
        var barRect = Rect.null
        let firstRowTop = handle.minY - Self.padding - Self.target
        for (rowIndex, row) in rows.prefix(fitting).enumerated() {
            guard let last = row.last else { continue }
            let rowWidth = last.1 + Self.target
            let x0 = (width - rowWidth) / 2
            let y = firstRowTop - Double(rowIndex) * step
            for (action, offset) in row {
                let rect = snapped(Rect(x: x0 + offset, y: y, width: Self.target, height: Self.target))
                controls.append(ControlSlot(action: action, rect: rect))
                barRect = barRect.union(rect)
            }
        }
        self.controls = controls
        bar = barRect.isNull ? .null : snapped(barRect.insetBy(dx: -Self.padding, dy: -Self.padding))
    }

    /// Everything the toolbar may cover when shown: bar and handle.
    public var shownBounds: Rect { bar.isNull ? handle : bar.union(handle) }

    /// The control at `p`, if any.
    public func control(at p: Point) -> ControlSlot? {
        controls.first { $0.rect.contains(p) }
    }

    /// The control doing `action`, if it fits in the window.
    public func slot(for action: ControlAction) -> ControlSlot? {
        controls.first { $0.action == action }
    }
}
