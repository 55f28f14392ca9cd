import XCTest
import CPageKernels
import FolioRandom
@testable import FolioRender

/// The kernels that write the frame (the tile writer and the row copies) in every variant, over
/// what whole frames never give them: frames whose rows are not 16-byte aligned (no non-temporal
/// stores there), odd widths and heights, and pixels around the written block that must stay as
/// they were.
final class TileKernelTests: XCTestCase {
    private let poison: UInt32 = 0xDEAD_BEEF

    /// A tile written out is its transpose, whatever the frame's alignment and stride.
    func testTileWriterTransposesIntoAnyFrame() {
        var random = SeededRandom(state: 0x7113)
        let tileStride = 48, frameCapacity = 64 * 72
        let tile = UnsafeMutablePointer<UInt32>.allocate(capacity: tileStride * 40)
        let frame = UnsafeMutablePointer<UInt32>.allocate(capacity: frameCapacity)
        defer { tile.deallocate(); frame.deallocate() }
        for trial in 0..<400 {
            for i in 0..<(tileStride * 40) { tile[i] = word(&random) }
            let columns = 1 + random.next(40), rows = 1 + random.next(40), offset = random.next(4)
            let stride = columns + offset + random.next(24)
            let block = Block(columns: columns, rows: rows, offset: offset, stride: stride)
            for kernels in PageKernels.available {
                frame.update(repeating: poison, count: frameCapacity)
                kernels.writeTile(tile, Int32(tileStride), Int32(columns), Int32(rows), frame + offset, Int32(stride))
                kernels.finish()
                let wrong = block.mismatches(in: frame, count: frameCapacity, outside: poison) { tile[$0.x * tileStride + $0.y] }
                XCTAssertEqual(wrong, 0, "trial \(trial), \(kernels.name): \(columns)×\(rows) at offset \(offset), stride \(stride)")
            }
        }
    }

    /// Rows copied are the source's rows, at any alignment, and nothing else changes.
    func testRowCopiesCopyIntoAnyFrame() {
        var random = SeededRandom(state: 0xC0B1)
        let frameCapacity = 96 * 24
        let source = UnsafeMutablePointer<UInt32>.allocate(capacity: frameCapacity)
        let frame = UnsafeMutablePointer<UInt32>.allocate(capacity: frameCapacity)
        defer { source.deallocate(); frame.deallocate() }
        for trial in 0..<400 {
            for i in 0..<frameCapacity { source[i] = word(&random) }
            let columns = 1 + random.next(80), rows = 1 + random.next(20), offset = random.next(4)
            let stride = columns + offset + random.next(12), sourceStride = random.next(2) == 0 ? 0 : columns + random.next(8)
            let block = Block(columns: columns, rows: rows, offset: offset, stride: stride)
            for kernels in PageKernels.available {
                frame.update(repeating: poison, count: frameCapacity)
                kernels.copyRows(source, Int32(sourceStride), Int32(columns), Int32(rows), frame + offset, Int32(stride))
                kernels.finish()
                let wrong = block.mismatches(in: frame, count: frameCapacity, outside: poison) { source[$0.y * sourceStride + $0.x] }
                XCTAssertEqual(wrong, 0, "trial \(trial), \(kernels.name): \(columns)×\(rows) at offset \(offset), stride \(stride)")
            }
        }
    }

    /// Lit row copies give the portable bytes in every variant, at any alignment, and nothing
    /// else changes.
    func testLitRowCopiesGiveThePortableBytesInAnyFrame() {
        var random = SeededRandom(state: 0x117C)
        let frameCapacity = 96 * 24
        let source = UnsafeMutablePointer<UInt32>.allocate(capacity: frameCapacity)
        let lights = UnsafeMutablePointer<UInt16>.allocate(capacity: 96)
        let expected = UnsafeMutablePointer<UInt32>.allocate(capacity: frameCapacity)
        let frame = UnsafeMutablePointer<UInt32>.allocate(capacity: frameCapacity)
        defer { [source, expected, frame].forEach { $0.deallocate() }; lights.deallocate() }
        for trial in 0..<400 {
            for i in 0..<frameCapacity { source[i] = word(&random) }
            for i in 0..<96 { lights[i] = UInt16(random.next(4) == 0 ? 256 : random.next(257)) }
            let columns = 1 + random.next(80), rows = 1 + random.next(20), offset = random.next(4)
            let stride = columns + offset + random.next(12), sourceStride = random.next(2) == 0 ? 0 : columns + random.next(8)
            expected.update(repeating: poison, count: frameCapacity)
            PageKernels.portable.copyRowsLit(source, Int32(sourceStride), Int32(columns), Int32(rows), lights, expected + offset,
                                             Int32(stride))
            PageKernels.portable.finish()
            let block = Block(columns: columns, rows: rows, offset: offset, stride: stride)
            let wrongAlphas = (0..<frameCapacity).filter { i in
                guard let p = block.place(of: i) else { return expected[i] != poison }
                return expected[i] >> 24 != source[p.y * sourceStride + p.x] >> 24
            }.count
            XCTAssertEqual(wrongAlphas, 0, "trial \(trial): the portable lit copy changed alphas or pixels outside its rows")
            for kernels in PageKernels.vector {
                frame.update(repeating: poison, count: frameCapacity)
                kernels.copyRowsLit(source, Int32(sourceStride), Int32(columns), Int32(rows), lights, frame + offset, Int32(stride))
                kernels.finish()
                let wrong = (0..<frameCapacity).filter { frame[$0] != expected[$0] }.count
                XCTAssertEqual(wrong, 0, "trial \(trial), \(kernels.name): \(columns)×\(rows) at offset \(offset), stride \(stride)")
            }
        }
    }

    /// Where a kernel writes in the frame: `rows` rows of `columns` pixels from `offset`, `stride` apart.
    private struct Block {
        let columns: Int, rows: Int, offset: Int, stride: Int

        /// Column and row of frame pixel `i`, nil outside the block.
        func place(of i: Int) -> (x: Int, y: Int)? {
            guard i >= offset else { return nil }
            let (y, x) = ((i - offset) / stride, (i - offset) % stride)
            return y < rows && x < columns ? (x, y) : nil
        }

        /// How many of the frame's pixels differ from `expected` inside the block and from
        /// `outside` around it.
        func mismatches(in frame: UnsafeMutablePointer<UInt32>, count: Int, outside: UInt32,
                        expected: ((x: Int, y: Int)) -> UInt32) -> Int {
            (0..<count).filter { frame[$0] != (place(of: $0).map(expected) ?? outside) }.count
        }
    }

    /// Any 32 bits.
    private func word(_ random: inout SeededRandom) -> UInt32 { random.bits() << 1 | random.bits() & 1 }
}
