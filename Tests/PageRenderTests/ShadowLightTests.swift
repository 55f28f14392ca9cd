import XCTest
import CPageKernels
import FolioRandom
@testable import FolioRender

/// A shadow's light is rounded to colour levels once, per pixel, from the grid scaled up in 64ths
/// of a level: where no shadow falls every kernel set gives the unshaded bytes, and under a smooth
/// shadow the one-level steps follow its gradient instead of outlining the grid's cells.
final class ShadowLightTests: XCTestCase {
    private let rows = 400, margin: Int32 = 2, cellShift: Int32 = 4

    func testNoDarkeningGivesTheUnshadedBytes() {
        var random = SeededRandom(state: 0x5AD0)
        let count = 300, column = UnsafeMutablePointer<UInt32>.allocate(capacity: 1024)
        let grid = UnsafeMutablePointer<UInt16>.allocate(capacity: 64)
        let expected = UnsafeMutablePointer<UInt32>.allocate(capacity: count), out = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        defer { [column, expected, out].forEach { $0.deallocate() }; grid.deallocate() }
        for i in 0..<1024 { column[i] = 0xFF00_0000 | random.bits() & 0xFF_FFFF }
        grid.initialize(repeating: 0, count: 64)
        var shadow = folio_page_shadow(darkening: grid, cell_shift: cellShift, margin: margin)
        for kernels in PageKernels.available {
            for light in UInt16(0)...256 {
                let dv = Int64(0x1_4000_0000) + Int64(light) << 20
                kernels.sample(column, 0x8000_0000, dv, Int32(count), nil, 0, light, expected)
                kernels.sample(column, 0x8000_0000, dv, Int32(count), &shadow, 37, light, out)
                XCTAssertEqual(pixels(out, count), pixels(expected, count), "\(kernels.name) sample, light \(light)")
            }
            kernels.darken(column, 0, &shadow, 37, Int32(count), out)
            XCTAssertEqual(pixels(out, count), pixels(column, count), "\(kernels.name) darken")
        }
    }

    /// A darkening that grows by 19/64 of a level a cell, down and across: its contours are
    /// diagonal, so each level's first row climbs about one row a column. Rounded per cell, it
    /// would climb a whole cell (16 rows) at once and stay put between.
    func testStepsFollowTheGradient() {
        let cells = 40
        let map = UnsafeMutablePointer<UInt16>.allocate(capacity: cells * cells)
        let column = UnsafeMutablePointer<UInt16>.allocate(capacity: cells)
        let white = UnsafeMutablePointer<UInt32>.allocate(capacity: rows + 64)
        let out = UnsafeMutablePointer<UInt32>.allocate(capacity: rows)
        defer { map.deallocate(); column.deallocate(); white.deallocate(); out.deallocate() }
        for gx in 0..<cells {
            for gy in 0..<cells { map[gx * cells + gy] = UInt16((gx + gy) * 19) }
        }
        white.initialize(repeating: 0xFFFF_FFFF, count: rows + 64)
        for kernels in PageKernels.available {
            for path in ["darken", "sample"] {
                var previous: [Int: Int] = [:]
                var climbs: Set<Int> = []
                for x in 0..<rows {
                    // Screen column x between grid columns g and g + 1, as the renderer blends them.
                    let r = x - (1 << (cellShift - 1)), g = (r >> cellShift) + Int(margin)
                    let weight = ((r & ((1 << cellShift) - 1)) << (8 - cellShift)) + (128 >> cellShift)
                    _ = kernels.blendGrid(map + g * cells, map + (g + 1) * cells, Int32(cells), UInt32(weight), column)
                    var shadow = folio_page_shadow(darkening: column, cell_shift: cellShift, margin: margin)
                    if path == "darken" {
                        kernels.darken(nil, 0xFFFF_FFFF, &shadow, 0, Int32(rows), out)
                    } else {
                        kernels.sample(white, 0, 1 << 32, Int32(rows), &shadow, 0, 256, out)
                    }
                    // Each level's first row (darker further down and to the right).
                    var first: [Int: Int] = [:]
                    for y in (0..<rows).reversed() { first[Int(out[y] & 0xFF)] = y }
                    for (level, y) in first where y > 0 {
                        if let before = previous[level], before > 0 { climbs.insert(before - y) }
                    }
                    previous = first
                }
                XCTAssertFalse(climbs.isEmpty, "\(kernels.name) \(path): no steps seen")
                XCTAssertTrue(climbs.allSatisfy { (0...3).contains($0) },
                              "\(kernels.name) \(path): steps climb \(climbs.sorted()) rows a column")
            }
        }
    }

    private func pixels(_ p: UnsafeMutablePointer<UInt32>, _ count: Int) -> [UInt32] { Array(UnsafeBufferPointer(start: p, count: count)) }
}
