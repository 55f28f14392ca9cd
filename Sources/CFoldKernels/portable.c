#include "fold_kernels.h"
#include "scalar_kernels.h"

static void blend(const uint32_t *a, const uint32_t *b, int32_t count, uint32_t weight, uint32_t *out,
                  const uint32_t *ahead) {
    for (int32_t i = 0; i < count; i++) {
        if (ahead && (i & 15) == 0) __builtin_prefetch(ahead + i);
        out[i] = folio_blend_one(a[i], b[i], weight);
    }
}

static void sample(const uint32_t *column, int64_t v, int64_t dv, int32_t count, const folio_fold_shadow *shadow,
                   int32_t row, uint16_t light, uint32_t *out) {
    for (int32_t i = 0; i < count; i++) out[i] = folio_sample_lit(column, v, dv, i, shadow, row, light);
}

static void darken(const uint32_t *source, uint32_t flat, const folio_fold_shadow *shadow, int32_t row, int32_t count,
                   uint32_t *out) {
    for (int32_t i = 0; i < count; i++) out[i] = folio_darken_one(source ? source[i] : flat, folio_kept(shadow, row + i));
}

static void write_tile(const uint32_t *tile, int32_t tile_stride, int32_t columns, int32_t rows, uint32_t *out,
                       int32_t out_stride) {
    for (int32_t y = 0; y < rows; y++) {
        uint32_t *row = out + (int64_t)y * out_stride;
        for (int32_t c = 0; c < columns; c++) row[c] = tile[(int64_t)c * tile_stride + y];
    }
}

static void finish(void) {}

static const folio_fold_kernels portable = {
    .name = "portable", .blend = blend, .sample = sample, .darken = darken, .blend_grid = folio_blend_grid,
    .write_tile = write_tile, .finish = finish,
};

const folio_fold_kernels *folio_fold_kernels_portable(void) { return &portable; }
