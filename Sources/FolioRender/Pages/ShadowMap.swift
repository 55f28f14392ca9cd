import CPageKernels
import FolioGeometry
import FolioLayers
#if canImport(Glibc)
import Glibc
#endif

/// The pages' soft shadows, made per frame at low resolution: each projected shadow path is
/// rasterised into a coarse grid (one cell per `cell` buffer pixels), blurred there by three box
/// passes (≈ a Gaussian of σ = the shadow radius), and kept as darkening factors that the renderer
/// scales up bilinearly only where backdrop or the left page shows. Full-resolution blurs of
/// σ ≈ 100 px would cost seconds per frame.
final class ShadowMap {
    /// Buffer pixels per grid cell, 2^cellShift.
    let cell: Int
    let cellShift: Int
    /// Grid cells kept outside the frame on every side (shadows of off-screen page parts).
    let margin: Int
    let gridWidth: Int
    let gridHeight: Int
    /// Per page, its shadow's coverage, blurred and times its opacity (0…1).
    private var coverage: [UnsafeMutablePointer<Float>] = []
    private let scratch: UnsafeMutablePointer<Float>
    /// A copy of a whole grid: the horizontal box passes read it while writing the grid.
    private let gridCopy: UnsafeMutablePointer<Float>
    /// What shadows leave of the light, cell by cell, while the darkenings are combined.
    private let kept: UnsafeMutablePointer<Float>
    /// Darkening, 0…`FOLIO_SHADOW_FULL`, stored column by column (`x * gridHeight + y`) for the
    /// per-column sampler. Per page k: of the backdrop by the shadows of pages 0…k (the last page's
    /// is the backdrop's own: every shadow), and of page k by the shadows of the pages above it.
    private var backdropDarkenings: [UnsafeMutablePointer<UInt16>] = []
    private var pageDarkenings: [UnsafeMutablePointer<UInt16>] = []
    /// Per page, whether any page above shades it at all (its darkening can be skipped if not).
    private var shadedFromAbove: [Bool] = []
    private let boxWidth: Int
    private let count: Int

    /// Darkenings count 64ths of a colour level (`FOLIO_SHADOW_FULL` is 256 << levelShift), so that
    /// the light is rounded to whole levels only per pixel, after the grid is scaled up: the steps
    /// between levels then follow the shadow's gradient instead of outlining the grid's cells.
    static let levelShift = 6

    /// A grid for a `pixelWidth`×`pixelHeight` frame whose shadows blur with σ = `sigma` buffer pixels.
    init(pixelWidth: Int, pixelHeight: Int, sigma: Double) {
        // A power of two near σ/1.5 (64 px for σ = 100): the blurred field is smooth at that spacing
        // (second differences of the scaled-up darkening stay within one level), the grid's blur and
        // the per-column blends are cheap, and the column kernels find a row's cell with shifts.
        cellShift = min(7, max(4, Int(log2(max(1, sigma / 1.5)).rounded())))
        cell = 1 << cellShift
        let sigmaCells = sigma / Double(cell)
        margin = Int((3 * sigmaCells).rounded(.up)) + 1
        gridWidth = (pixelWidth + cell - 1) / cell + 2 * margin + 1
        gridHeight = (pixelHeight + cell - 1) / cell + 2 * margin + 1
        count = gridWidth * gridHeight
        scratch = .allocate(capacity: max(gridWidth, gridHeight) + 1)
        gridCopy = .allocate(capacity: count)
        kept = .allocate(capacity: count)
        // Three box passes of width w give σ² = 3(w² − 1)/12.
        var w = Int((4 * sigmaCells * sigmaCells + 1).squareRoot().rounded())
        if w % 2 == 0 { w += 1 }
        boxWidth = max(1, w)
    }

    deinit {
        coverage.forEach { $0.deallocate() }
        backdropDarkenings.forEach { $0.deallocate() }
        pageDarkenings.forEach { $0.deallocate() }
        scratch.deallocate()
        gridCopy.deallocate()
        kept.deallocate()
    }

    /// The backdrop's darkening by the shadows of pages 0…`page`.
    func backdropDarkening(upTo page: Int) -> UnsafeMutablePointer<UInt16> { backdropDarkenings[page] }
    /// Page `page`'s darkening by the shadows of the pages above it.
    func pageDarkening(_ page: Int) -> UnsafeMutablePointer<UInt16> { pageDarkenings[page] }
    func isShadedFromAbove(_ page: Int) -> Bool { shadedFromAbove[page] }

    /// Recomputes the shadows of `pages` (in drawing order) for a frame at `scale` buffer pixels
    /// per logical pixel. A page's shadow falls in full on the backdrop; on a page below it, times
    /// how far the two stand open (the larger |x| of their normals): coplanar pages (the open
    /// book, a flat sheet under a flat leaf) cast none on each other, the fold's shading grows as
    /// it closes.
    @_optimize(speed)
    func update(pages: [PageGeometry], scale: Double) {
        let n = pages.count
        reserve(pages: n)
        for (index, page) in pages.enumerated() {
            let grid = coverage[index]
            grid.update(repeating: 0, count: count)
            if page.shadowOpacity > 0 {
                rasterise(page, scale: scale, into: grid)
                blur(grid)
                let opacity = Float(page.shadowOpacity)
                for i in 0..<count { grid[i] *= opacity }
            }
        }
        // The backdrop under the lowest page drawn at a pixel takes the shadows up to that page.
        kept.update(repeating: 1, count: count)
        for k in 0..<n {
            let d = coverage[k], out = backdropDarkenings[k]
            for i in 0..<count { kept[i] *= 1 - d[i] }
            if k == 0 {
                for i in 0..<count { out[i] = darkening(d[i]) }
            } else {
                for i in 0..<count { out[i] = darkening(1 - kept[i]) }
            }
        }
        for k in 0..<n {
            let out = pageDarkenings[k]
            let above = (k + 1)..<n
            var any: UInt16 = 0
            if above.count == 1, let i = above.first {
                let d = coverage[i], open = opening(pages[i], pages[k])
                for c in 0..<count {
                    out[c] = darkening(d[c] * open)
                    any |= out[c]
                }
            } else if above.count > 1 {
                kept.update(repeating: 1, count: count)
                for i in above {
                    let d = coverage[i], open = opening(pages[i], pages[k])
                    for c in 0..<count { kept[c] *= 1 - d[c] * open }
                }
                for c in 0..<count {
                    out[c] = darkening(1 - kept[c])
                    any |= out[c]
                }
            }
            shadedFromAbove[k] = any != 0
        }
    }

    /// How far two pages stand open to each other, 0…1.
    private func opening(_ a: PageGeometry, _ b: PageGeometry) -> Float {
        Float(min(max(max(abs(a.normalX), abs(b.normalX)), 0), 1))
    }

    private func reserve(pages n: Int) {
        func grid<T>(_ value: T) -> UnsafeMutablePointer<T> {
            let p = UnsafeMutablePointer<T>.allocate(capacity: count)
            p.initialize(repeating: value, count: count)
            return p
        }
        while coverage.count < n {
            coverage.append(grid(Float(0)))
            backdropDarkenings.append(grid(UInt16(0)))
            pageDarkenings.append(grid(UInt16(0)))
            shadedFromAbove.append(false)
        }
    }

    /// A share of darkening (0…1) as 0…`FOLIO_SHADOW_FULL`, rounded half up, without the library
    /// call of `rounded()` or a branch (three per grid cell per frame, vectorised): ½ added, then
    /// truncated. Under half a level it is none, exactly where whole levels rounded to none: so
    /// little changes no colour by itself, and cells without shadow keep the renderer's paths that
    /// skip shadows (row copies, undarkened columns) and their bytes.
    @inline(__always)
    private func darkening(_ share: Float) -> UInt16 {
        let scaled = min(Float(FOLIO_SHADOW_FULL), max(0, share * Float(FOLIO_SHADOW_FULL)))
        return scaled / Float(FOLIO_SHADOW_FULL / 256) + 0.5 < 1 ? 0 : UInt16(scaled + 0.5)
    }

    /// Fills the grid with the page's projected, offset shadow path; cells are stored column-major.
    @_optimize(speed)
    private func rasterise(_ page: PageGeometry, scale: Double, into grid: UnsafeMutablePointer<Float>) {
        guard let path = page.shadowPath else { return }
        let m = page.shadowTransform
        let c = Double(cell), subsamples = 4
        let r = path.radius
        for gx in 0..<gridWidth {
            let column = grid + gx * gridHeight
            for k in 0..<subsamples {
                let screenX = (Double(gx - margin) + (Double(k) + 0.5) / Double(subsamples)) * c / scale
                let den = screenX * m.m14 - m.m11
                guard abs(den) > 1e-12 else { continue }
                let x = (m.m41 - screenX * m.m44) / den
                let w = x * m.m14 + m.m44
                guard w > 0, x >= path.rect.minX, x <= path.rect.maxX else { continue }
                // The rounded corners shorten the path's columns near its rounded sides.
                var inset = 0.0
                let leftRounded = path.roundedCorners.contains(.topLeft), rightRounded = path.roundedCorners.contains(.topRight)
                if leftRounded && x < path.rect.minX + r {
                    let d = path.rect.minX + r - x
                    inset = r - (r * r - d * d).squareRoot()
                } else if rightRounded && x > path.rect.maxX - r {
                    let d = x - (path.rect.maxX - r)
                    inset = r - (r * r - d * d).squareRoot()
                }
                let top = path.rect.minY + inset, bottom = path.rect.maxY - inset
                let yTop = (x * m.m12 + top * m.m22 + m.m42) / w * scale / c + Double(margin)
                let yBottom = (x * m.m12 + bottom * m.m22 + m.m42) / w * scale / c + Double(margin)
                let lo = max(0, min(yTop, yBottom)), hi = min(Double(gridHeight), max(yTop, yBottom))
                guard hi > lo else { continue }
                let weight = Float(1) / Float(subsamples)
                var gy = Int(lo)
                while Double(gy) < hi {
                    let share = min(hi, Double(gy + 1)) - max(lo, Double(gy))
                    column[gy] += weight * Float(share)
                    gy += 1
                }
            }
        }
    }

    /// Three box passes along each axis (running sums; zero outside the grid).
    @_optimize(speed)
    private func blur(_ grid: UnsafeMutablePointer<Float>) {
        let half = boxWidth / 2
        let k = 1 / Float(boxWidth)
        // Across the columns: the same running sums as `fourPasses`, every grid row at once, so the
        // inner loops run over contiguous columns (vectorised) instead of striding across them.
        let h = gridHeight, w = gridWidth, sums = scratch
        func columnPass() {
            gridCopy.update(from: grid, count: w * h)
            sums.update(repeating: 0, count: h)
            for i in 0..<min(half, w) {
                let column = gridCopy + i * h
                for y in 0..<h { sums[y] += column[y] }
            }
            for i in 0..<w {
                if i + half < w {
                    let column = gridCopy + (i + half) * h
                    for y in 0..<h { sums[y] += column[y] }
                }
                let out = grid + i * h
                for y in 0..<h { out[y] = sums[y] * k }
                if i - half >= 0 {
                    let column = gridCopy + (i - half) * h
                    for y in 0..<h { sums[y] -= column[y] }
                }
            }
        }
        /// Down four stored columns at once, read from the copy: four running sums, interleaved so
        /// they overlap instead of each waiting on the last.
        func fourPasses(_ x: Int) {
            let a = gridCopy + x * h, b = a + h, c = b + h, d = c + h
            let outA = grid + x * h, outB = outA + h, outC = outB + h, outD = outC + h
            var sa: Float = 0, sb: Float = 0, sc: Float = 0, sd: Float = 0
            for i in 0..<min(half, h) {
                sa += a[i]; sb += b[i]; sc += c[i]; sd += d[i]
            }
            for i in 0..<h {
                if i + half < h {
                    sa += a[i + half]; sb += b[i + half]; sc += c[i + half]; sd += d[i + half]
                }
                outA[i] = sa * k; outB[i] = sb * k; outC[i] = sc * k; outD[i] = sd * k
                if i - half >= 0 {
                    sa -= a[i - half]; sb -= b[i - half]; sc -= c[i - half]; sd -= d[i - half]
                }
            }
        }
        for _ in 0..<3 {
            gridCopy.update(from: grid, count: w * h)
            // The last four columns again where the width is not a multiple of four: they read the
            // unchanged copy, so columns done twice come out the same. (The grid is at least
            // 2·margin + 2 ≥ 6 columns wide.)
            var x = 0
            while x + 4 <= w {
                fourPasses(x)
                x += 4
            }
            if x < w { fourPasses(w - 4) }
            columnPass()
        }
    }
}

/// What the renderer needs of one page layer for a frame, read from the scene.
struct PageGeometry: Equatable {
    /// Layer coordinates (logical) to screen (logical): the whole chain, perspective included.
    var transform: Transform3D
    var bounds: Rect
    var contentsRect: Rect
    /// The shadow caster's coordinates to screen, and its shadow path there, already moved by
    /// the shadow offset.
    var shadowTransform: Transform3D
    var shadowPath: LayerPath?
    var shadowOpacity: Double
    var facesAway: Bool
    /// Facing away and single-sided: not drawn, no shadow.
    var isHidden: Bool
    /// The x of the page normal: how far the page is turned out of the screen's plane.
    var normalX: Double
    /// The page's lighting (0…1), and as the colour factor 0…256.
    var light: Double
    var shade: UInt64
    /// The gradient shadow over it, if any.
    var shading: HorizontalShading?
    var spineOnRight: Bool
}
