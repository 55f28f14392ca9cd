/* Kernels the AVX-512 table shares with the AVX2 one (memory-bound: wider vectors gain nothing). */
#ifndef FOLIO_SHARED_KERNELS_H
#define FOLIO_SHARED_KERNELS_H

#include "page_kernels.h"

#if defined(__x86_64__)
int folio_avx2_blend_grid(const uint16_t *a, const uint16_t *b, int32_t count, uint32_t weight, uint16_t *out);
void folio_avx2_write_tile(const uint32_t *tile, int32_t tile_stride, int32_t columns, int32_t rows, uint32_t *out,
                           int32_t out_stride);
void folio_avx2_copy_rows(const uint32_t *source, int32_t source_stride, int32_t columns, int32_t rows, uint32_t *out,
                          int32_t out_stride);
void folio_avx2_copy_rows_lit(const uint32_t *source, int32_t source_stride, int32_t columns, int32_t rows,
                              const uint16_t *lights, uint32_t *out, int32_t out_stride);
void folio_avx2_darken_rows(const uint32_t *source, int32_t source_stride, int32_t columns, int32_t rows,
                            const uint16_t *grid, int32_t grid_stride, int32_t cell_shift, int32_t margin, int32_t row,
                            uint32_t *out, int32_t out_stride);
void folio_avx2_finish(void);
#endif

#endif
