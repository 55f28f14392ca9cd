/// The inks the toolbar offers: six colours (the default ink's blue first) and three widths (its
/// 6 px in the middle). Settings may replace them; whatever they say, a palette always has
/// exactly `colorCount` colours and `widthCount` widths within `widthRange`.
public struct Palette: Hashable, Sendable {
    public static let colorCount = 6
    public static let widthCount = 3
    /// Ink widths a palette may hold, in logical px.
    public static let widthRange = 0.5...64.0

    /// Blue, then colours that stay legible on white paper: near-black, red, green, orange, purple.
    public static let standardColors: [UInt32] = [0x0000FF, 0x202020, 0xD81B1B, 0x138A36, 0xE67E00, 0x7B2FBE]
    public static let standardWidths = [3.0, 6.0, 12.0]

    /// 0xRRGGBB each.
    public private(set) var colors: [UInt32]
    public private(set) var widths: [Double]

    /// A palette of `colors` and `widths`; missing entries come from the standard palette, extra
    /// ones are dropped, widths are clamped to `widthRange` (a NaN becomes the standard width).
    public init(colors: [UInt32] = Palette.standardColors, widths: [Double] = Palette.standardWidths) {
        self.colors = (0..<Self.colorCount).map { i in i < colors.count ? colors[i] & 0xFF_FFFF : Self.standardColors[i] }
        self.widths = (0..<Self.widthCount).map { i in
            guard i < widths.count, !widths[i].isNaN else { return Self.standardWidths[i] }
            return min(max(widths[i], Self.widthRange.lowerBound), Self.widthRange.upperBound)
        }
    }

    public static let standard = Palette()
}
