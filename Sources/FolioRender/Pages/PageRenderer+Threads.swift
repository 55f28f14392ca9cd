import Dispatch

extension PageRenderer {
    /// Draws the frame's tiles on up to `threads` threads, each with its own scratch: the column
    /// groups shared out between them, each thread a contiguous run.
    func renderTiles(_ frame: FrameSetup, threads wanted: Int) {
        while scratch.count < wanted {
            scratch.append(ColumnScratch(rows: pixelHeight, tileStride: tileStride, shadows: shadows, kernels: kernels))
        }
        for s in scratch { s.reserve(pages: pages.count) }
        let groups = (pixelWidth + Self.tileColumns - 1) / Self.tileColumns
        let threads = max(1, min(wanted, groups))
        if threads == 1 {
            renderGroups(0..<groups, frame: frame, scratch: scratch[0])
        } else {
            let perThread = (groups + threads - 1) / threads
            let work = UncheckedBox((self, frame))
            DispatchQueue.concurrentPerform(iterations: threads) { t in
                let (renderer, frame) = work.value
                let range = min(groups, t * perThread)..<min(groups, (t + 1) * perThread)
                renderer.renderGroups(range, frame: frame, scratch: renderer.scratch[t])
            }
        }
    }
}

/// Hands non-Sendable state to the render threads, which touch disjoint columns only.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
