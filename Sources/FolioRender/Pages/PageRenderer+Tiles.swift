extension PageRenderer {
    /// Two tiles per thread: while one fills column by column, the previous one goes out to the
    /// frame sixteen rows at a time between the column kernels, so the frame's writes drain steadily
    /// while the next columns compute rather than stalling in bursts.
    @_optimize(speed)
    func renderGroups(_ groups: Range<Int>, frame: FrameSetup, scratch: ColumnScratch) {
        let writer = scratch.writer, copies = self.copies
        writeRowCopies(groups, frame: frame, scratch: scratch)
        var current = 0
        for g in groups {
            let x0 = g * Self.tileColumns, x1 = min(pixelWidth, x0 + Self.tileColumns)
            let tile = scratch.tiles[current]
            let skip = copies[g]?.rows ?? 0..<0
            if skip != 0..<pixelHeight {
                for x in x0..<x1 {
                    renderColumn(x, frame: frame, scratch: scratch, into: tile + (x - x0) * tileStride, tileColumn: x - x0,
                                 skip: skip)
                    writer.catchUp(columnsDone: x - x0 + 1)
                }
            }
            writer.finish()
            writer.start(tile: tile, target: frame.target + x0, stride: frame.targetStride, columns: x1 - x0, skip: skip)
            current ^= 1
        }
        writer.finish()
        kernels.finish()
    }
}
