import CPageKernels

/// The column kernels the page renderer runs (C, in `CPageKernels`): the fastest this CPU has, or
/// the portable ones. Every variant gives the same bytes, so tests hold one against the other.
public struct PageKernels: @unchecked Sendable {
    public let name: String
    let blend: folio_page_blend_fn
    let sample: folio_page_sample_fn
    let darken: folio_page_darken_fn
    let blendGrid: folio_page_blend_grid_fn
    let writeTile: folio_page_write_tile_fn
    let copyRows: folio_page_copy_rows_fn
    let copyRowsLit: folio_page_copy_rows_lit_fn
    let darkenRows: folio_page_darken_rows_fn
    let finish: folio_page_finish_fn

    private init?(_ table: UnsafePointer<folio_page_kernels>?) {
        guard let t = table?.pointee, let name = t.name, let blend = t.blend, let sample = t.sample,
              let darken = t.darken, let blendGrid = t.blend_grid, let writeTile = t.write_tile,
              let copyRows = t.copy_rows, let copyRowsLit = t.copy_rows_lit, let darkenRows = t.darken_rows,
              let finish = t.finish else { return nil }
        self.name = String(cString: name)
        self.blend = blend
        self.sample = sample
        self.darken = darken
        self.blendGrid = blendGrid
        self.writeTile = writeTile
        self.copyRows = copyRows
        self.copyRowsLit = copyRowsLit
        self.darkenRows = darkenRows
        self.finish = finish
    }

    /// Plain C, for any CPU.
    public static let portable: PageKernels = {
        guard let kernels = PageKernels(folio_page_kernels_portable()) else { fatalError("the portable page kernels are incomplete") }
        return kernels
    }()

    /// AVX2, when this CPU has it.
    public static let avx2 = PageKernels(folio_page_kernels_avx2())

    /// AVX-512 where it pays (AVX2 for the rest), when this CPU has it.
    public static let avx512 = PageKernels(folio_page_kernels_avx512())

    /// NEON, on 64-bit ARM CPUs that have it.
    public static let neon = PageKernels(folio_page_kernels_neon())

    /// Every vector variant this CPU runs.
    public static let vector = [avx512, avx2, neon].compactMap { $0 }

    /// The fastest kernels this CPU runs.
    public static let best = vector.first ?? portable

    /// Every variant this CPU runs, fastest first.
    public static let available = vector + [portable]
}
