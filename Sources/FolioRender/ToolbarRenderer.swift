import Foundation
import FolioGeometry
import FolioPixels
import FolioSketchbook
import FolioToolbar
import FolioTools

/// Draws the toolbar: the handle, the bar and its controls' icons, and an export's confirmation,
/// as vector shapes through the ink rasteriser and pixman fills (no image files, no fonts), at
/// any buffer scale, fractional ones included. The image covers the toolbar's shown bounds;
/// whatever the toolbar does not cover there (all but the handle while it is hidden) is clear.
///
/// Icons are line drawings on a 48 px grid, in logical px, so they scale like the ink does.
public final class ToolbarRenderer {
    public let scale: Double
    private let ink = InkRasterizer()
    private var image: Bitmap?
    /// Where the image's top-left is, in logical px: drawing is relative to it.
    private var origin = Point.zero

    static let barColor: UInt32 = 0xEEEEEE
    static let edgeColor: UInt32 = 0xC4C4C4
    static let iconColor: UInt32 = 0x2A2A2A
    static let disabledColor: UInt32 = 0xB4B4B4
    static let pressedColor: UInt32 = 0xC8C8C8
    static let chosenColor: UInt32 = 0xD8D8D8
    static let successColor: UInt32 = 0x1E8E3E
    static let failureColor: UInt32 = 0xC62828
    static let lineWidth = 2.5

    /// `scale` is buffer pixels per logical pixel (a NaN or non-positive scale draws at 1).
    public init(scale: Double) {
        self.scale = scale.isFinite && scale > 0 ? scale : 1
    }

    /// The toolbar as it is, with `tools` marked chosen, in an image of its shown bounds (reused
    /// while the size holds).
    public func render(_ toolbar: Toolbar, tools: ToolState) -> Bitmap {
        let layout = toolbar.layout
        let bounds = layout.shownBounds
        origin = bounds.origin
        let pixelWidth = max(1, Int((bounds.width * scale).rounded())), pixelHeight = max(1, Int((bounds.height * scale).rounded()))
        let target: Bitmap
        if let image, image.width == pixelWidth, image.height == pixelHeight {
            target = image
        } else {
            target = Bitmap(width: pixelWidth, height: pixelHeight)
            image = target
        }
        target.fill(0)
        guard !toolbar.isAway else { return target }
        if toolbar.isShown, !layout.bar.isEmpty {
            roundedRect(layout.bar, radius: 14, color: Self.edgeColor, into: target)
            roundedRect(layout.bar.insetBy(dx: 1, dy: 1), radius: 13, color: Self.barColor, into: target)
            for slot in layout.controls {
                drawControl(slot, toolbar: toolbar, tools: tools, into: target)
            }
        }
        drawHandle(layout.handle, toolbar: toolbar, into: target)
        return target
    }

    // MARK: - Pieces

    /// The tab at the bottom edge: a chevron pointing where the bar goes, or for a moment after
    /// an export its confirmation, a tick on green (a cross on red when it failed).
    private func drawHandle(_ r: Rect, toolbar: Toolbar, into target: Bitmap) {
        // The visible tab is the lower part of the handle's 48 px target, attached to the edge.
        let tab = Rect(x: r.minX + 8, y: r.maxY - 30, width: r.width - 16, height: 42)
        let c = Point(x: (r.minX + r.maxX) / 2, y: r.maxY - 15)
        if let notice = toolbar.notice {
            roundedRect(tab, radius: 12, color: notice.succeeded ? Self.successColor : Self.failureColor, into: target)
            let mark: [[Point]] = notice.succeeded
                ? [[Point(x: -8, y: 0), Point(x: -3, y: 6), Point(x: 9, y: -7)]]
                : [[Point(x: -6, y: -6), Point(x: 6, y: 6)], [Point(x: 6, y: -6), Point(x: -6, y: 6)]]
            for line in mark { polyline(line.map { $0 + c }, width: 3.5, color: 0xFFFFFF, into: target) }
            return
        }
        roundedRect(tab, radius: 12, color: Self.edgeColor, into: target)
        roundedRect(tab.insetBy(dx: 1, dy: 1), radius: 11, color: toolbar.handlePressed ? Self.pressedColor : Self.barColor, into: target)
        let dy = toolbar.isShown ? 4.0 : -4.0
        polyline([c + Point(x: -10, y: -dy), c + Point(x: 0, y: dy), c + Point(x: 10, y: -dy)],
                 width: 3, color: Self.iconColor, into: target)
    }

    private func drawControl(_ slot: ControlSlot, toolbar: Toolbar, tools: ToolState, into target: Bitmap) {
        let r = slot.rect
        let c = Point(x: (r.minX + r.maxX) / 2, y: (r.minY + r.maxY) / 2)
        let enabled = !toolbar.disabled.contains(slot.action)
        let color = enabled ? Self.iconColor : Self.disabledColor
        if toolbar.pressed == slot.action {
            roundedRect(r, radius: 10, color: Self.pressedColor, into: target)
        }
        func icon(_ lines: [[Point]]) {
            for line in lines { polyline(line.map { $0 + c }, width: Self.lineWidth, color: color, into: target) }
        }
        switch slot.action {
        case let .color(index):
            let ink = toolbar.palette.colors[index]
            if index == tools.ink.colorIndex {
                circle(c, radius: 19, width: 3, color: Self.iconColor, into: target)
            }
            dot(c, diameter: 28, color: ink, into: target)
        case let .width(index):
            if index == tools.ink.widthIndex, toolbar.pressed != slot.action {
                roundedRect(r.insetBy(dx: 2, dy: 2), radius: 10, color: Self.chosenColor, into: target)
            }
            // The width itself, up to what fits in the target.
            let shown = min(toolbar.palette.widths[index], 26)
            polyline([c + Point(x: -12, y: 0), c + Point(x: 12, y: 0)], width: shown, color: toolbar.palette.ink(tools.ink).color, into: target)
        case .eraser:
            if tools.tool == .eraser, toolbar.pressed != slot.action {
                roundedRect(r.insetBy(dx: 2, dy: 2), radius: 10, color: Self.chosenColor, into: target)
            }
            // A block eraser lying at a slant, its rubbed end drawn apart, on the line it leaves.
            icon([
                [Point(x: -3, y: -13), Point(x: 10, y: 0), Point(x: 0, y: 10), Point(x: -13, y: -3), Point(x: -3, y: -13)],
                [Point(x: -8, y: -8), Point(x: 5, y: 5)],
                [Point(x: -12, y: 12), Point(x: 12, y: 12)],
            ])
        case .lasso:
            if tools.tool == .lasso, toolbar.pressed != slot.action {
                roundedRect(r.insetBy(dx: 2, dy: 2), radius: 10, color: Self.chosenColor, into: target)
            }
            // A loop in dashes, its drawn end trailing off below.
            icon(Self.lassoLoop)
        case .undo:
            icon(Self.undoArrow)
        case .redo:
            icon(Self.undoArrow.map { $0.map { Point(x: -$0.x, y: $0.y) } })
        case .newSheet:
            icon(Self.page + [[Point(x: 0, y: -5), Point(x: 0, y: 7)], [Point(x: -6, y: 1), Point(x: 6, y: 1)]])
        case .previousSheet:
            icon([[Point(x: 4, y: -10), Point(x: -6, y: 0), Point(x: 4, y: 10)]])
        case .nextSheet:
            icon([[Point(x: -4, y: -10), Point(x: 6, y: 0), Point(x: -4, y: 10)]])
        case .deleteSheet:
            icon([
                [Point(x: -11, y: -8), Point(x: 11, y: -8)],
                [Point(x: -4, y: -8), Point(x: -3, y: -12), Point(x: 3, y: -12), Point(x: 4, y: -8)],
                [Point(x: -8, y: -8), Point(x: -6, y: 12), Point(x: 6, y: 12), Point(x: 8, y: -8)],
                [Point(x: -2, y: -3), Point(x: -2, y: 7)], [Point(x: 2, y: -3), Point(x: 2, y: 7)],
            ])
        case .paper:
            icon(Self.sheet + Self.printed(toolbar.paper))
        case .export:
            icon([
                [Point(x: 0, y: -12), Point(x: 0, y: 4)],
                [Point(x: -6, y: -2), Point(x: 0, y: 4), Point(x: 6, y: -2)],
                [Point(x: -11, y: 4), Point(x: -11, y: 11), Point(x: 11, y: 11), Point(x: 11, y: 4)],
            ])
        case .play:
            // A play triangle, pointing right.
            icon([[Point(x: -7, y: -11), Point(x: 10, y: 0), Point(x: -7, y: 11), Point(x: -7, y: -11)]])
        case .fullscreen:
            icon([
                [Point(x: -11, y: -5), Point(x: -11, y: -11), Point(x: -5, y: -11)],
                [Point(x: 5, y: -11), Point(x: 11, y: -11), Point(x: 11, y: -5)],
                [Point(x: 11, y: 5), Point(x: 11, y: 11), Point(x: 5, y: 11)],
                [Point(x: -5, y: 11), Point(x: -11, y: 11), Point(x: -11, y: 5)],
            ])
        case .books:
            // Three books standing on a shelf, the last leaning.
            icon([
                [Point(x: -12, y: 12), Point(x: 12, y: 12)],
                [Point(x: -11, y: 12), Point(x: -11, y: -10), Point(x: -5, y: -10), Point(x: -5, y: 12)],
                [Point(x: -3, y: 12), Point(x: -3, y: -6), Point(x: 3, y: -6), Point(x: 3, y: 12)],
                [Point(x: 5, y: 11), Point(x: 9, y: -9), Point(x: 13, y: -8), Point(x: 10, y: 12)],
            ])
        }
    }

    /// A hooked arrow pointing left, centred on the origin.
    private static let undoArrow: [[Point]] = [
        [Point(x: -10, y: -4)] + (0...12).map { i in
            // A half circle from the arrow's shaft round to its tail.
            let a = -Double.pi / 2 + Double.pi * Double(i) / 12
            return Point(x: 2 + 8 * cos(a), y: 4 + 8 * sin(a))
        } + [Point(x: -6, y: 12)],
        [Point(x: -5, y: -9), Point(x: -10, y: -4), Point(x: -5, y: 1)],
    ]

    /// An oval of eight dashes with a short tail: the loop the lasso draws.
    private static let lassoLoop: [[Point]] = (0..<8).map { k in
        (0...3).map { i in
            let a = 2 * Double.pi * (Double(k) + Double(i) * 0.2) / 8
            return Point(x: 12 * cos(a), y: -3 + 8 * sin(a))
        }
    } + [[Point(x: 4, y: 5), Point(x: 6, y: 9), Point(x: 2, y: 13)]]

    /// A sheet without a folded corner, for the paper control.
    private static let sheet: [[Point]] = [
        [Point(x: -9, y: -12), Point(x: 9, y: -12), Point(x: 9, y: 12), Point(x: -9, y: 12), Point(x: -9, y: -12)],
    ]

    /// What the paper control shows printed on its sheet: nothing, three rules, a grid, or dots.
    private static func printed(_ kind: Paper.Kind) -> [[Point]] {
        let rows = [-5.0, 1, 7], columns = [-3.0, 3]
        switch kind {
        case .plain: return []
        case .ruled: return rows.map { [Point(x: -5, y: $0), Point(x: 5, y: $0)] }
        case .squared:
            return rows.map { [Point(x: -9, y: $0 - 1), Point(x: 9, y: $0 - 1)] }
                + columns.map { [Point(x: $0, y: -12), Point(x: $0, y: 12)] }
        case .dotted: return rows.flatMap { y in [-4.0, 0, 4].map { [Point(x: $0, y: y)] } }
        }
    }

    /// A sheet of paper with its top-right corner folded.
    private static let page: [[Point]] = [
        [Point(x: 4, y: -12), Point(x: -9, y: -12), Point(x: -9, y: 12), Point(x: 9, y: 12), Point(x: 9, y: -7),
         Point(x: 4, y: -12), Point(x: 4, y: -7), Point(x: 9, y: -7)],
    ]

    // MARK: - Shapes, in logical px

    private func local(_ p: Point) -> Point { Point(x: p.x - origin.x, y: p.y - origin.y) }

    private func polyline(_ points: [Point], width: Double, color: UInt32, into target: Bitmap) {
        guard let first = points.first else { return }
        let path = [PathElement.move(to: local(first))] + points.dropFirst().map { PathElement.line(to: local($0)) }
        ink.draw(path, style: InkStyle(width: width, color: color), into: target, scale: scale, clip: target.bounds)
    }

    private func dot(_ center: Point, diameter: Double, color: UInt32, into target: Bitmap) {
        ink.draw([.move(to: local(center))], style: InkStyle(width: diameter, color: color), into: target, scale: scale,
                 clip: target.bounds)
    }

    private func circle(_ center: Point, radius: Double, width: Double, color: UInt32, into target: Bitmap) {
        let points = (0...48).map { i in
            let a = 2 * Double.pi * Double(i) / 48
            return Point(x: center.x + radius * cos(a), y: center.y + radius * sin(a))
        }
        polyline(points, width: width, color: color, into: target)
    }

    /// A filled rectangle with round corners: the inner rectangle filled, its outline stroked as
    /// wide as the corners are round.
    private func roundedRect(_ r: Rect, radius: Double, color: UInt32, into target: Bitmap) {
        let radius = min(radius, r.width / 2, r.height / 2)
        let inner = r.insetBy(dx: radius, dy: radius)
        let corners = [Point(x: inner.minX, y: inner.minY), Point(x: inner.maxX, y: inner.minY),
                       Point(x: inner.maxX, y: inner.maxY), Point(x: inner.minX, y: inner.maxY), Point(x: inner.minX, y: inner.minY)]
        polyline(corners, width: 2 * radius, color: color, into: target)
        let local = Rect(origin: local(inner.origin), size: inner.size)
        let pixels = PixelRect(covering: local, scale: scale).intersection(target.bounds)
        target.fill(0xFF00_0000 | color, in: pixels)
    }
}
