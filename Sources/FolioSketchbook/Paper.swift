import FolioGeometry

/// What a sheet is printed with under the ink: nothing (plain), ruled lines, a square grid or a
/// grid of dots, `spacing` logical px apart, in `color`. Lines and dots sit at whole multiples of
/// the spacing from the sheet's top-left corner (none on the edges themselves), so a sheet looks
/// the same on screen, in its pictures and in every export.
public struct Paper: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        case plain, ruled, squared, dotted

        /// Its number in a book's records (0 plain, 1 ruled, 2 squared, 3 dotted).
        public var code: UInt32 {
            switch self {
            case .plain: 0
            case .ruled: 1
            case .squared: 2
            case .dotted: 3
            }
        }

        public init?(code: UInt32) {
            guard let kind = Self.allCases.first(where: { $0.code == code }) else { return nil }
            self = kind
        }

        /// The kind after this one: plain, ruled, squared, dotted, then plain again.
        public var next: Kind {
            let all = Self.allCases
            return all[(all.firstIndex(of: self).map { $0 + 1 } ?? 0) % all.count]
        }
    }

    /// Distances between lines or dots, logical px: closer lines would be a grey wash, wider ones
    /// no longer guide a hand.
    public static let spacingRange = 4.0...400.0
    public static let standardSpacing = 32.0
    /// A light blue grey that reads as a guide, not as ink.
    public static let standardColor: UInt32 = 0xB4C8DC
    /// Lines are this wide and dots this across, in logical px (vector exports draw them so).
    public static let lineWidth = 1.0
    public static let dotDiameter = 2.0

    // Widest first: 16 bytes a sheet, not 24 (a book may hold a million sheets).
    /// Logical px between neighbouring lines or dots, within `spacingRange`.
    public private(set) var spacing: Double
    /// 0x00RRGGBB.
    public private(set) var color: UInt32
    public var kind: Kind

    /// A paper with `spacing` clamped to `spacingRange` (a value that is not finite is the
    /// standard spacing) and `color` cut to 0xRRGGBB.
    public init(kind: Kind, spacing: Double = Paper.standardSpacing, color: UInt32 = Paper.standardColor) {
        self.kind = kind
        self.spacing = spacing.isFinite ? min(max(spacing, Self.spacingRange.lowerBound), Self.spacingRange.upperBound) : Self.standardSpacing
        self.color = color & 0xFF_FFFF
    }

    /// Plain paper as every sheet had it before papers: white, nothing printed.
    public static let plain = Paper(kind: .plain)

    /// What a sheet keeps of this paper: plain paper is plain whatever spacing and colour it was
    /// set with, so a book holds one plain paper (the one older books load as).
    public var forSheet: Paper { kind == .plain ? .plain : self }

    /// The logical positions of lines (or rows and columns of dots) along an edge `length` long:
    /// every whole multiple of the spacing inside it, the edges left out.
    public func positions(along length: Double) -> [Double] {
        guard kind != .plain, length.isFinite, length > spacing else { return [] }
        let count = Int((length / spacing).rounded(.up)) - 1
        return (0..<count).map { Double($0 + 1) * spacing }
    }

    /// The paper's lines on a page of `size` logical px, as vector art draws them: segments
    /// `lineWidth` wide whose centres lie half a width past each position, so a line covers the
    /// logical pixel the canvas paints for it.
    public func lines(on size: Size) -> [(from: Point, to: Point)] {
        let half = Self.lineWidth / 2
        let rows = hasRows ? positions(along: size.height).map { (Point(x: 0, y: $0 + half), Point(x: size.width, y: $0 + half)) } : []
        let columns = hasColumns ? positions(along: size.width).map { (Point(x: $0 + half, y: 0), Point(x: $0 + half, y: size.height)) } : []
        return rows + columns
    }

    /// The centres of the paper's dots on a page of `size` logical px (each `dotDiameter` across).
    public func dots(on size: Size) -> [Point] {
        guard hasDots else { return [] }
        let columns = positions(along: size.width)
        return positions(along: size.height).flatMap { y in columns.map { Point(x: $0, y: y) } }
    }

    /// Whether lines run across the sheet (ruled and squared) and down it (squared).
    public var hasRows: Bool { kind == .ruled || kind == .squared }
    public var hasColumns: Bool { kind == .squared }
    public var hasDots: Bool { kind == .dotted }
}
