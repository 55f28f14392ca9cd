import XCTest
import CPageKernels
import FolioRandom
@testable import FolioRender

/// Each vector kernel on its own against the portable one, over random inputs that whole frames
/// rarely reach: translucent and arbitrary pixels, steep shrinks (the gather path), positions whose
/// fractions carry between lanes, every leftover count, shadows of every cell size.
final class ColumnKernelTests: XCTestCase {
    private let columnLength = 8192
    private let gridLength = 1024
    /// What each kernel's output starts as, so a pixel it leaves unwritten shows.
    private let poison: UInt32 = 0xDEAD_BEEF

    func testSampleGivesThePortableBytes() throws {
        let variants = try vectorKernels()
        var random = SeededRandom(state: 0x5A3D_1E)
        let column = UnsafeMutablePointer<UInt32>.allocate(capacity: columnLength)
        let grid = UnsafeMutablePointer<UInt16>.allocate(capacity: gridLength)
        let expected = UnsafeMutablePointer<UInt32>.allocate(capacity: 1024), out = UnsafeMutablePointer<UInt32>.allocate(capacity: 1024)
        defer { [column, expected, out].forEach { $0.deallocate() }; grid.deallocate() }
        for trial in 0..<1500 {
            fillPixels(column, count: columnLength, premultiplied: trial % 2 == 0, random: &random)
            for i in 0..<gridLength { grid[i] = darkening(&random) }
            var shadow = folio_page_shadow(darkening: grid, cell_shift: Int32(4 + random.next(4)), margin: 2)
            // Whole steps of 1/8 row and any fraction: shrinks past 4 rows a row (the gathers), stretches to 1/8.
            let dv = Int64(random.next(33) + 1) << 29 + Int64(random.bits() % (1 << 29)) * Int64(trial % 3 == 0 ? 0 : 1)
            let count = random.next(1000)
            // Some runs start on a whole row: with whole steps of 1/8 row, every step then starts on one
            // too, where a lane's fraction equals its offset's and must not count as carried.
            let v = Int64(random.next(64)) << 32 | (trial % 4 == 1 ? 0 : Int64(random.bits()) << 1)
            let row = random.next(2000), light = UInt16(random.next(257)), shaded = random.next(2) == 0
            // Windows reach 48 pixels past the last position's index.
            guard (v + Int64(max(count - 1, 0)) * dv) >> 32 + 48 < columnLength else { continue }
            withUnsafePointer(to: &shadow) { shadowPointer in
                let s = shaded ? shadowPointer : nil
                PageKernels.portable.sample(column, v, dv, Int32(count), s, Int32(row), light, expected)
                expectSame(variants, expected, out, count: count, capacity: 1024,
                           "sample, dv \(Double(dv) / 0x1_0000_0000), count \(count), shadow \(shaded), light \(light)") {
                    $0.sample(column, v, dv, Int32(count), s, Int32(row), light, out)
                }
            }
        }
    }

    /// Opaque columns, as pages are, but for one translucent pixel that a tap falls on, often the
    /// farthest tap of a run's last step (its bottom one, carried), with transparent pixels just
    /// past it: kernels that take a shortcut for opaque columns must still see that pixel. Half
    /// the runs lie under a shadow.
    func testSampleSeesATranslucentTapInAnOpaqueColumn() throws {
        try sampleOpaqueColumns(seed: 0x0A1FA, translucentTap: true)
    }

    /// Opaque columns throughout, as most of a page is: what the opaque shortcut itself gives (a
    /// translucent tap sends the run back through the kernel's other path), in any light, flat and
    /// under shadows of every cell size, over runs that cross many cells.
    func testSampleOfAnOpaqueColumnUnderAnyShadow() throws {
        try sampleOpaqueColumns(seed: 0x0B5C4E, translucentTap: false)
    }

    private func sampleOpaqueColumns(seed: UInt64, translucentTap: Bool) throws {
        let variants = try vectorKernels()
        var random = SeededRandom(state: seed)
        let length = 1024
        let column = UnsafeMutablePointer<UInt32>.allocate(capacity: length)
        let grid = UnsafeMutablePointer<UInt16>.allocate(capacity: gridLength)
        let expected = UnsafeMutablePointer<UInt32>.allocate(capacity: 512), out = UnsafeMutablePointer<UInt32>.allocate(capacity: 512)
        defer { [column, expected, out].forEach { $0.deallocate() }; grid.deallocate() }
        for trial in 0..<3000 {
            // Steps up to 2 rows a row (the windowed paths), runs of one step and more.
            let dv = Int64(random.next(1 << 16) + 1) << 17
            let count = 16 + random.next(trial % 2 == 0 ? 1 : 200)
            let v = Int64(random.next(64)) << 32 | Int64(random.bits()) << 1
            let last = (v + Int64(count - 1) * dv) >> 32
            guard last + 48 < length else { continue }
            for i in 0..<length { column[i] = 0xFF00_0000 | random.bits() & 0xFF_FFFF }
            // Past the run's last bottom tap, nothing of the page: as past a column's blended rows.
            for i in Int(last) + 2..<length { column[i] = 0 }
            var what = ""
            if translucentTap {
                let sample = trial % 3 == 0 ? random.next(count) : count - 1
                let tap = Int((v + Int64(sample) * dv) >> 32) + (trial % 3 == 2 ? 0 : 1)
                column[tap] = UInt32(random.next(255)) << 24
                what = ", translucent tap \(tap) of sample \(sample)"
            }
            for i in 0..<gridLength { grid[i] = darkening(&random) }
            let shift = Int32(4 + random.next(4))
            var shadow = folio_page_shadow(darkening: grid, cell_shift: shift, margin: 2)
            let row = random.next(2000), shaded = trial % 4 < 2
            let light = translucentTap ? 250 : UInt16(random.next(257))
            withUnsafePointer(to: &shadow) { shadowPointer in
                let s = shaded ? shadowPointer : nil
                PageKernels.portable.sample(column, v, dv, Int32(count), s, Int32(row), light, expected)
                expectSame(variants, expected, out, count: count, capacity: 512,
                           "sample, dv \(Double(dv) / 0x1_0000_0000), count \(count), row \(row), light \(light), "
                               + "shadow \(shaded ? "cells \(1 << shift)" : "none")\(what)") {
                    $0.sample(column, v, dv, Int32(count), s, Int32(row), light, out)
                }
            }
        }
    }

    func testBlendGivesThePortableBytes() throws {
        let variants = try vectorKernels()
        var random = SeededRandom(state: 0xB1E4D)
        let a = UnsafeMutablePointer<UInt32>.allocate(capacity: 2048), b = UnsafeMutablePointer<UInt32>.allocate(capacity: 2048)
        let expected = UnsafeMutablePointer<UInt32>.allocate(capacity: 2048), out = UnsafeMutablePointer<UInt32>.allocate(capacity: 2048)
        defer { [a, b, expected, out].forEach { $0.deallocate() } }
        for trial in 0..<1000 {
            fillPixels(a, count: 2048, premultiplied: trial % 2 == 0, random: &random)
            fillPixels(b, count: 2048, premultiplied: trial % 2 == 0, random: &random)
            // Both copies (0 and 128) and every blend between; runs short of a vector and long.
            let weight = UInt32([0, 128, random.next(129)][random.next(3)])
            let count = random.next(4) == 0 ? random.next(40) : random.next(2048)
            PageKernels.portable.blend(a, b, Int32(count), weight, expected, nil, nil)
            expectSame(variants, expected, out, count: count, capacity: 2048, "blend, weight \(weight), count \(count)") {
                $0.blend(a, b, Int32(count), weight, out, b, nil)
            }
        }
    }

    func testDarkenGivesThePortableBytes() throws {
        let variants = try vectorKernels()
        var random = SeededRandom(state: 0xDA4C)
        let source = UnsafeMutablePointer<UInt32>.allocate(capacity: 2048)
        let grid = UnsafeMutablePointer<UInt16>.allocate(capacity: gridLength)
        let expected = UnsafeMutablePointer<UInt32>.allocate(capacity: 2048), out = UnsafeMutablePointer<UInt32>.allocate(capacity: 2048)
        defer { [source, expected, out].forEach { $0.deallocate() }; grid.deallocate() }
        for trial in 0..<1000 {
            fillPixels(source, count: 2048, premultiplied: trial % 2 == 0, random: &random)
            for i in 0..<gridLength { grid[i] = darkening(&random) }
            var shadow = folio_page_shadow(darkening: grid, cell_shift: Int32(4 + random.next(4)), margin: 2)
            let count = random.next(2048), row = random.next(2000), flat = random.bits() << 1 | random.bits() & 1
            let from: UnsafeMutablePointer<UInt32>? = random.next(3) == 0 ? nil : source
            PageKernels.portable.darken(from, flat, &shadow, Int32(row), Int32(count), expected)
            expectSame(variants, expected, out, count: count, capacity: 2048,
                       "darken, count \(count), row \(row), \(from == nil ? "flat" : "source")") {
                $0.darken(from, flat, &shadow, Int32(row), Int32(count), out)
            }
        }
    }

    /// Rows of the bare backdrop under a shadow: any width (every leftover past whole vectors, and
    /// more than one chunk of columns), rows that cross cells, source rows repeated (stride 0) or
    /// not, each column with its own grid column.
    func testDarkenRowsGivesThePortableBytes() throws {
        let variants = try vectorKernels()
        var random = SeededRandom(state: 0xB0A4D)
        let maxColumns = 80, maxRows = 40, stride = 96, capacity = maxRows * stride, gridStride = 160
        let source = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        let grid = UnsafeMutablePointer<UInt16>.allocate(capacity: gridStride * maxColumns)
        let expected = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity), out = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        defer { [source, expected, out].forEach { $0.deallocate() }; grid.deallocate() }
        for trial in 0..<300 {
            fillPixels(source, count: capacity, premultiplied: trial % 2 == 0, random: &random)
            for i in 0..<(gridStride * maxColumns) { grid[i] = darkening(&random) }
            let columns = 1 + random.next(maxColumns), rows = 1 + random.next(maxRows), row = random.next(1900)
            let shift = Int32(4 + random.next(4)), sourceStride = random.next(2) == 0 ? 0 : stride
            expected.update(repeating: poison, count: capacity)
            PageKernels.portable.darkenRows(source, Int32(sourceStride), Int32(columns), Int32(rows), grid, Int32(gridStride), shift, 2,
                                            Int32(row), expected, Int32(stride))
            expectSame(variants, expected, out, count: capacity, capacity: capacity,
                       "darken rows, \(columns) columns, \(rows) rows from \(row), cells \(1 << shift), source stride \(sourceStride)") {
                $0.darkenRows(source, Int32(sourceStride), Int32(columns), Int32(rows), grid, Int32(gridStride), shift, 2, Int32(row), out,
                              Int32(stride))
            }
        }
    }

    /// Runs each variant into `out` filled with poison, and holds its first `count` pixels to `expected`.
    private func expectSame(_ variants: [PageKernels], _ expected: UnsafeMutablePointer<UInt32>, _ out: UnsafeMutablePointer<UInt32>,
                            count: Int, capacity: Int, _ what: @autoclosure () -> String, run: (PageKernels) -> Void) {
        for kernels in variants {
            out.update(repeating: poison, count: capacity)
            run(kernels)
            let differing = (0..<count).filter { expected[$0] != out[$0] }
            XCTAssertTrue(differing.isEmpty, "\(kernels.name) \(what()): \(differing.count) pixels differ, first at \(differing.first ?? -1)")
        }
    }

    private func vectorKernels() throws -> [PageKernels] {
        if PageKernels.vector.isEmpty {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("this CPU has no vector page kernels to test") }
            throw XCTSkip("this CPU has no AVX2: only the portable page kernels run here")
        }
        return PageKernels.vector
    }

    /// A random grid value: any darkening, and often none or all of the light (where the vector
    /// kernels saturate).
    private func darkening(_ random: inout SeededRandom) -> UInt16 {
        let full = Int(FOLIO_SHADOW_FULL)
        return UInt16(random.next(4) == 0 ? [0, full][random.next(2)] : random.next(full + 1))
    }

    /// Random pixels: premultiplied (no channel above alpha), or any 32 bits.
    private func fillPixels(_ pixels: UnsafeMutablePointer<UInt32>, count: Int, premultiplied: Bool, random: inout SeededRandom) {
        for i in 0..<count {
            let word = random.bits() << 1 | random.bits() & 1
            guard premultiplied else {
                pixels[i] = word
                continue
            }
            let alpha = word >> 24
            var pixel = alpha << 24
            for shift in stride(from: 0, to: 24, by: 8) { pixel |= ((word >> UInt32(shift)) & 0xFF) % (alpha + 1) << UInt32(shift) }
            pixels[i] = pixel
        }
    }
}
