/// Writes a filled tile out to the frame 16 rows at a time (in rows of 16 pixels: whole cache
/// lines of the frame), a few steps at a time, keeping pace with the columns of the next tile.
final class TileWriter {
    static let rowsPerStep = 16
    private let rows: Int
    private let tileStride: Int
    private let kernels: PageKernels
    private var tile: UnsafeMutablePointer<UInt32>?
    private var target: UnsafeMutablePointer<UInt32>?
    private var skip = 0..<0
    private var stride = 0, columns = 0, written = 0
    /// Steps per tile: its rows, sixteen at a time.
    private let steps: Int

    init(rows: Int, tileStride: Int, kernels: PageKernels) {
        self.rows = rows
        self.tileStride = tileStride
        self.kernels = kernels
        steps = (rows + Self.rowsPerStep - 1) / Self.rowsPerStep
        written = steps  // nothing to write until a tile starts
    }

    /// Takes `tile` (`columns` columns, all rows but those in `skip`, whole steps written elsewhere)
    /// to go out to `target` (its first pixel) and on.
    func start(tile: UnsafeMutablePointer<UInt32>, target: UnsafeMutablePointer<UInt32>, stride: Int, columns: Int,
               skip: Range<Int>) {
        self.tile = tile
        self.target = target
        self.skip = skip
        self.stride = stride
        self.columns = columns
        written = 0
    }

    /// Writes one more step if the tile is behind the next `columnsDone`'s share.
    @inline(__always) func pump(columnsDone: Int) {
        if written < steps && written * PageRenderer.tileColumns < steps * (columnsDone + 1) { writeNext() }
    }

    /// Writes steps until the tile has its share for `columnsDone` columns of the next tile.
    func catchUp(columnsDone: Int) {
        while written < steps && written * PageRenderer.tileColumns < steps * columnsDone { writeNext() }
    }

    func finish() {
        while written < steps { writeNext() }
    }

    private func writeNext() {
        guard let tile, let target else { return }
        let r = written * Self.rowsPerStep
        if !skip.contains(r) {
            kernels.writeTile(tile + r, Int32(tileStride), Int32(columns), Int32(min(Self.rowsPerStep, rows - r)),
                              target + r * stride, Int32(stride))
        }
        written += 1
    }
}
