/// The cover colours a new book takes in turn, each the next after the newest book's: deep,
/// bookbinding cloth colours, on which a light name reads well.
public enum CoverPalette {
    public static let colors: [UInt32] = [
        0x2F5D8C, // blue
        0xA63D40, // red
        0x3E7C59, // green
        0xC08A2E, // ochre
        0x6B4E8C, // violet
        0xC2603A, // orange
        0x36454F, // slate
        0x7A5230, // brown
    ]

    /// The colour after `previous` in the palette (the first when there is none, or it is not one of them).
    public static func next(after previous: UInt32?) -> UInt32 {
        guard let previous, let index = colors.firstIndex(of: previous) else { return colors[0] }
        return colors[(index + 1) % colors.count]
    }
}
