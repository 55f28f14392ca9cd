import FolioGeometry

/// Where the covers of a shelf go: a grid of whole columns that fills the window's width, in
/// logical pixels of the shelf's content (the scroll offset is not applied here). A wide window
/// gets more columns, not bigger covers, beyond `maximumCoverWidth`.
public struct ShelfLayout: Equatable, Sendable {
    /// Around the grid and between covers: room for each cover's shadow.
    public static let margin = 48.0
    /// Above the first row: the margin and room for the shelf's bar of controls.
    public static let top = 112.0
    public static let gap = 56.0
    public static let preferredCoverWidth = 180.0
    public static let minimumCoverWidth = 80.0
    public static let maximumCoverWidth = 260.0
    /// A cover's height over its width (a portrait sketchbook).
    public static let coverAspect = 1.35

    public let width: Double
    public let height: Double
    public let count: Int
    public let columns: Int
    public let coverSize: Size
    /// The left edge of the first column (the grid is centred).
    public let left: Double

    /// The grid for `count` books in a window of `width`×`height` logical pixels.
    public init(width: Double, height: Double, count: Int) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        self.count = max(count, 0)
        let room = self.width - 2 * Self.margin
        let columns = max(1, Int(((room + Self.gap) / (Self.preferredCoverWidth + Self.gap)).rounded(.down)))
        self.columns = columns
        let fitted = (room - Self.gap * Double(columns - 1)) / Double(columns)
        let coverWidth = min(max(fitted, Self.minimumCoverWidth), Self.maximumCoverWidth)
        coverSize = Size(width: coverWidth, height: (coverWidth * Self.coverAspect).rounded())
        left = max(Self.margin, (self.width - Double(columns) * coverWidth - Double(columns - 1) * Self.gap) / 2)
    }

    public var rows: Int { (count + columns - 1) / columns }

    /// The height of all the rows with their margins.
    public var contentHeight: Double {
        guard rows > 0 else { return Self.top + Self.margin }
        return Self.top + Self.margin + Double(rows) * coverSize.height + Double(rows - 1) * Self.gap
    }

    /// How far the shelf scrolls: 0 when every row fits.
    public var maximumScroll: Double { max(0, contentHeight - height) }

    /// Book `index`'s cover, flat, in content coordinates.
    public func coverRect(_ index: Int) -> Rect {
        let row = index / columns, column = index % columns
        return Rect(x: left + Double(column) * (coverSize.width + Self.gap),
                    y: Self.top + Double(row) * (coverSize.height + Self.gap),
                    width: coverSize.width, height: coverSize.height)
    }

    /// The books whose covers (or their shadows, `reach` beyond them) show with the shelf
    /// scrolled by `scroll`: whole rows, so a frame costs the rows on screen, not the shelf.
    public func visible(scroll: Double, reach: Double) -> Range<Int> {
        guard count > 0 else { return 0..<0 }
        let pitch = coverSize.height + Self.gap
        let top = scroll - reach - Self.top, bottom = scroll + height + reach - Self.top
        let first = max(0, Int((top / pitch).rounded(.down)))
        let last = min(rows - 1, Int((bottom / pitch).rounded(.down)))
        guard first <= last else { return 0..<0 }
        return (first * columns)..<min(count, (last + 1) * columns)
    }
}
