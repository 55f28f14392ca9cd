#ifndef FOLIO_PAGE_KERNELS_H
#define FOLIO_PAGE_KERNELS_H

#include <stdint.h>

/*
 * The page renderer's inner loops over one screen column, for the fold and the page turn alike,
 * on premultiplied 0xAARRGGBB pixels.
 *
 * Every variant of a kernel gives the same bytes: the vector ones follow the integer arithmetic of
 * the portable ones exactly (7-bit bilinear weights in byte multiply-adds, as pixman weighs, and
 * rounded fixed-point products), so tests can hold one against the other.
 */

/* Blends two stored page columns, b with weight `weight` (0…128) over a, into `out` (apart from
 * both: the vector kernels may write a pixel twice). The `count` pixels at
 * `ahead` and at `ahead2`, where not null, are asked into cache on the way: the columns the next
 * screen column blends that this one does not (one, or two where the page shrinks), short streams
 * that the hardware prefetchers pick up too late. */
typedef void (*folio_page_blend_fn)(const uint32_t *a, const uint32_t *b, int32_t count, uint32_t weight,
                                    uint32_t *out, const uint32_t *ahead, const uint32_t *ahead2);

/* All of the light, as shadows count it: darkening and the light kept are in 64ths of a colour
 * level, finer than the colours, so that a pixel's light is rounded to them once, from the grid
 * scaled up smoothly; the steps between levels then follow the shadow's gradient, not its cells. */
#define FOLIO_SHADOW_FULL 16384

/*
 * A column of the shadow grid, scaled up bilinearly along the column: buffer row y lies between
 * grid rows g and g + 1 (g = ⌊(y − cell/2)/cell⌋ + margin, cell = 2^cell_shift, 16…128, weight of
 * g + 1 from the row's centre), darkened by 0…FOLIO_SHADOW_FULL. Kernels read up to three grid rows
 * past the last row's g (they compute 32 rows at a time).
 */
typedef struct folio_page_shadow {
    const uint16_t *darkening;
    int32_t cell_shift;
    int32_t margin;
} folio_page_shadow;

/*
 * Resamples a column of pixels linearly: out[i] takes `column` at the 32.32 fixed-point
 * position v + i·dv (v ≥ 0), lit by light/256 (≤ 256) and, when `shadow` is not null, by the
 * light the shadow keeps at buffer row `row` + i; opaque. `column` must be readable 48 pixels past
 * the last position's index (the vector kernels load whole windows).
 */
typedef void (*folio_page_sample_fn)(const uint32_t *column, int64_t v, int64_t dv, int32_t count,
                                     const folio_page_shadow *shadow, int32_t row, uint16_t light, uint32_t *out);

/* out[i] = (source ? source[i] : flat) darkened by `shadow` at buffer row `row` + i, opaque. */
typedef void (*folio_page_darken_fn)(const uint32_t *source, uint32_t flat, const folio_page_shadow *shadow,
                                     int32_t row, int32_t count, uint32_t *out);

/* out[i] = a[i]·(256 − weight)/256 + b[i]·weight/256 (truncated), weight 0…255: two grid columns
 * blended for a screen column. Returns whether any value is not zero. */
typedef int (*folio_page_blend_grid_fn)(const uint16_t *a, const uint16_t *b, int32_t count, uint32_t weight,
                                        uint16_t *out);

/* Copies a column-major tile (tile_stride pixels per column) out to row-major pixels; the stores
 * may be non-temporal, ordered only by `finish`. */
typedef void (*folio_page_write_tile_fn)(const uint32_t *tile, int32_t tile_stride, int32_t columns, int32_t rows,
                                         uint32_t *out, int32_t out_stride);

/* Copies `rows` rows of `columns` row-major pixels (source_stride and out_stride pixels apart) to
 * the frame: a flat page's pixels taken straight from its contents. The stores may be
 * non-temporal, ordered only by `finish`. */
typedef void (*folio_page_copy_rows_fn)(const uint32_t *source, int32_t source_stride, int32_t columns, int32_t rows,
                                        uint32_t *out, int32_t out_stride);

/* Like copy_rows, each column c lit by lights[c]/256 (≤ 256) as the sampler lights a column it
 * shows unscaled: a flat page under a gradient shadow. Alpha is kept. */
typedef void (*folio_page_copy_rows_lit_fn)(const uint32_t *source, int32_t source_stride, int32_t columns,
                                            int32_t rows, const uint16_t *lights, uint32_t *out, int32_t out_stride);

/* Like copy_rows, for screen columns that show the bare backdrop under a shadow: each pixel
 * darkened as `darken` darkens it, at buffer row `row` + y, column c by the shadow grid column
 * blended for it (as blend_grid makes it) at grid + c·grid_stride, taken as a folio_page_shadow's
 * darkening with `cell_shift` and `margin`. Opaque. */
typedef void (*folio_page_darken_rows_fn)(const uint32_t *source, int32_t source_stride, int32_t columns, int32_t rows,
                                          const uint16_t *grid, int32_t grid_stride, int32_t cell_shift, int32_t margin,
                                          int32_t row, uint32_t *out, int32_t out_stride);

/* Orders the frame's stores before anything that follows (another thread reading the frame). */
typedef void (*folio_page_finish_fn)(void);

typedef struct folio_page_kernels {
    const char *name;
    folio_page_blend_fn blend;
    folio_page_sample_fn sample;
    folio_page_darken_fn darken;
    folio_page_blend_grid_fn blend_grid;
    folio_page_write_tile_fn write_tile;
    folio_page_copy_rows_fn copy_rows;
    folio_page_copy_rows_lit_fn copy_rows_lit;
    folio_page_darken_rows_fn darken_rows;
    folio_page_finish_fn finish;
} folio_page_kernels;

/* Asks for the cache line holding `p` ahead of its use (a hint: it never faults). */
static inline void folio_prefetch(const void *p) { __builtin_prefetch(p); }

/* Plain C: any CPU. */
const folio_page_kernels *folio_page_kernels_portable(void);
/* AVX2 (x86-64-v3); null when this CPU lacks it. */
const folio_page_kernels *folio_page_kernels_avx2(void);
/* AVX-512 (F and BW) where it pays, AVX2 elsewhere; null when this CPU lacks either. */
const folio_page_kernels *folio_page_kernels_avx512(void);
/* NEON (AArch64 Advanced SIMD); null on other CPUs. */
const folio_page_kernels *folio_page_kernels_neon(void);

#endif
