#if canImport(Glibc)
import Glibc
#endif
import FolioPixels

extension Bitmap {
    /// A clear bitmap on memory asked to be backed by 2 MiB pages: a frame-sized bitmap is first
    /// touched in a frame's time, and in 4 KiB pages that costs a fault each (a frame at scale 2,
    /// 2300 of them, tens of milliseconds); in 2 MiB pages, 18.
    public static func onHugePages(width: Int, height: Int) -> Bitmap {
        precondition(width > 0 && height > 0 && width <= 16384 && height <= 16384, "bitmap size \(width)x\(height)")
        let huge = 2 << 20
        let bytes = (width * 4 * height + huge - 1) & ~(huge - 1)
        guard let memory = aligned_alloc(huge, bytes) else { fatalError("out of memory for a \(width)x\(height) bitmap") }
        #if os(Linux)
        _ = madvise(memory, bytes, MADV_HUGEPAGE)
        #endif
        memset(memory, 0, bytes)
        return Bitmap(wrapping: memory, width: width, height: height, stride: width * 4, owner: FreedMemory(memory))
    }
}

/// Frees its memory when the last bitmap over it goes.
private final class FreedMemory {
    let memory: UnsafeMutableRawPointer
    init(_ memory: UnsafeMutableRawPointer) { self.memory = memory }
    deinit { free(memory) }
}
