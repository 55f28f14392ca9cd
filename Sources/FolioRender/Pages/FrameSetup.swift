/// What every column of one frame reads: where it goes, the backdrop, and each page's setup.
struct FrameSetup {
    var target: UnsafeMutablePointer<UInt32>
    var targetStride: Int
    var backdrop: Backdrop
    var backdropRows: BackdropRows?
    var shadows: Bool
    var pages: UnsafeMutablePointer<PageSetup>
    var pageCount: Int
}

/// What the column loop reads of one page for a frame: plain pointers and numbers, no references,
/// so reading it per column costs no reference counting.
struct PageSetup {
    var plans: UnsafeMutablePointer<ColumnPlan>
    /// The image sampled (front or back) and its elements per stored row.
    var image: UnsafeMutablePointer<UInt32>
    var rowStride: Int
    /// The page's contents as they are, where it shows its front (nil: its back).
    var flat: FlatSource?
    /// The backdrop's darkening by the shadows of this page and those below; the page's own by
    /// the pages above it, and whether there is any (nil without shadows).
    var backdropDarkening: UnsafeMutablePointer<UInt16>?
    var darkening: UnsafeMutablePointer<UInt16>?
    var isShadedFromAbove: Bool

    @inline(__always) func row(_ i: Int) -> UnsafeMutablePointer<UInt32> { image + i * rowStride }
}

/// A page's contents, row-major, from its first canvas column: stored row i ≥ 1 of its image is
/// column i − 1 here, stored element j ≥ 1 is row j − 1, masked (rounded corners) only where not opaque.
struct FlatSource {
    var pixels: UnsafeMutablePointer<UInt32>
    /// Pixels per row.
    var stride: Int
    var columns: Int
    var rows: Int
}
