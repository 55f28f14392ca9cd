/// What a page shows in one screen column: rows covered, rows fully opaque, the source column pair
/// and the 32.32 fixed-point source row at y = 0 and per row.
struct ColumnPlan {
    var v0: Int64 = 0, dv: Int64 = 0
    // Narrow storage behind whole-number values: 48 bytes a plan, so the column loop's reads of
    // two plans a column take fewer cache lines. Rows and columns stay below 2^15 (bitmap sizes).
    @Narrow<Int32, Int> var yStart = 0
    @Narrow<Int32, Int> var yEnd = 0
    @Narrow<Int32, Int> var opaqueStart = 0
    @Narrow<Int32, Int> var opaqueEnd = 0
    /// The stored row (canvas column + 1) of the left tap, and the right tap's weight (0…255).
    @Narrow<Int32, Int> var sourceColumn = 0
    @Narrow<UInt16, UInt64> var fu = 0
    /// 0…256: the page's share of the column, and of its first and last rows.
    @Narrow<UInt16, UInt64> var columnCoverage = 0
    @Narrow<UInt16, UInt64> var topCoverage = 0
    @Narrow<UInt16, UInt64> var bottomCoverage = 0
    /// 0…256: the colour factor here: the page's lighting, under its gradient shadow if any.
    @Narrow<UInt16, UInt64> var shade = 256

    /// Whether the column shows one stored column unscaled and on whole rows.
    var isAligned: Bool { fu == 0 && dv == 1 << 32 && v0 & 0xFFFF_FFFF == 0 }

    /// Whether it does so unlit too: its pixels are the page's own (the sampler would give them
    /// back exactly).
    var isExactCopy: Bool { isAligned && shade == 256 }

    @inline(__always) func j(_ y: Int) -> Int { Int(truncatingIfNeeded: (v0 &+ dv &* Int64(y)) >> 32) }

    /// The page's coverage (0…256) of pixel row y inside [yStart, yEnd).
    @inline(__always) func coverage(_ y: Int) -> UInt64 {
        var c = columnCoverage
        if y == yStart { c = (c &* topCoverage) >> 8 }
        if y == yEnd - 1 { c = (c &* bottomCoverage) >> 8 }
        return c
    }
}

/// A value kept in a narrower integer than it is used as (its range must fit the narrow one).
@propertyWrapper
struct Narrow<Stored: FixedWidthInteger, Value: FixedWidthInteger> {
    private var stored: Stored

    init(wrappedValue: Value) { stored = Stored(truncatingIfNeeded: wrappedValue) }

    var wrappedValue: Value {
        get { Value(truncatingIfNeeded: stored) }
        set { stored = Stored(truncatingIfNeeded: newValue) }
    }
}
