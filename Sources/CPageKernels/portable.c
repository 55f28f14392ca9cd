#include <string.h>

#include "page_kernels.h"
#include "scalar_kernels.h"

/*
 * The portable kernels run the one-pixel arithmetic of scalar_kernels.h byte by byte over small
 * chunks: per-pixel values (positions, weights, light) are spread to each byte first, so the byte
 * loops are plain and the compiler vectorises them for whatever CPU this is built for.
 */
enum { chunk = 64 };

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the byte loops take a pixel's bytes as B, G, R, A: little-endian only"
#endif

static void blend(const uint32_t *a, const uint32_t *b, int32_t count, uint32_t weight, uint32_t *out,
                  const uint32_t *ahead, const uint32_t *ahead2) {
    const uint8_t *pa = (const uint8_t *)a, *pb = (const uint8_t *)b;
    uint8_t *po = (uint8_t *)out;
    /* At most 128·255 + 64: 16-bit lanes hold every step. */
    uint16_t keep = (uint16_t)(128 - weight), take = (uint16_t)weight;
    for (int32_t i = 0; i < count; i += 16) {
        if (ahead) __builtin_prefetch(ahead + i);
        if (ahead2) __builtin_prefetch(ahead2 + i);
    }
    for (int64_t k = 0; k < (int64_t)count * 4; k++) {
        uint16_t sum = (uint16_t)(keep * pa[k] + take * pb[k] + 64);
        po[k] = (uint8_t)(sum >> 7);
    }
}

static void sample(const uint32_t *column, int64_t v, int64_t dv, int32_t count, const folio_page_shadow *shadow,
                   int32_t row, uint16_t light, uint32_t *out) {
    uint32_t top[chunk], bottom[chunk];
    int16_t weight[chunk * 4];
    int32_t factor[chunk * 4];
    const int32_t lit = folio_sample_light(FOLIO_SHADOW_FULL, light);
    for (int32_t i0 = 0; i0 < count; i0 += chunk) {
        int32_t n = count - i0 < chunk ? count - i0 : chunk;
        for (int32_t i = 0; i < n; i++) {
            int64_t position = v + (int64_t)(i0 + i) * dv;
            int32_t j = (int32_t)(position >> 32), f = (int32_t)(position >> 25) & 0x7F;
            int32_t k = shadow ? folio_sample_light(folio_kept(shadow, row + i0 + i), light) : lit;
            top[i] = column[j];
            bottom[i] = column[j + 1];
            for (int c = 0; c < 4; c++) {
                weight[4 * i + c] = (int16_t)f;
                factor[4 * i + c] = c == 3 ? FOLIO_UNLIT : k;
            }
        }
        const uint8_t *t = (const uint8_t *)top, *b = (const uint8_t *)bottom;
        uint8_t *o = (uint8_t *)(out + i0);
        /* (127 − f)·top + f·bottom ≤ 32385, times k ≤ 258: at most 255 after the shift. */
        for (int32_t k = 0; k < n * 4; k++) {
            int16_t madd = (int16_t)((127 - weight[k]) * t[k] + weight[k] * b[k]);
            o[k] = (uint8_t)((madd * factor[k] + 16384) >> 15);
        }
    }
}

static void darken(const uint32_t *source, uint32_t flat, const folio_page_shadow *shadow, int32_t row, int32_t count,
                   uint32_t *out) {
    uint32_t pixels[chunk];
    int32_t factor[chunk * 4];
    for (int32_t i0 = 0; i0 < count; i0 += chunk) {
        int32_t n = count - i0 < chunk ? count - i0 : chunk;
        for (int32_t i = 0; i < n; i++) {
            int32_t k = folio_darken_factor(folio_kept(shadow, row + i0 + i));
            pixels[i] = source ? source[i0 + i] : flat;
            for (int c = 0; c < 4; c++) factor[4 * i + c] = k;
        }
        const uint8_t *p = (const uint8_t *)pixels;
        uint8_t *o = (uint8_t *)(out + i0);
        /* c·k ≤ 255·32767: at most 254 after the shift. */
        for (int32_t k = 0; k < n * 4; k++) o[k] = (uint8_t)((p[k] * factor[k] + 16384) >> 15);
        for (int32_t i = 0; i < n; i++) out[i0 + i] |= FOLIO_OPAQUE;
    }
}

static void write_tile(const uint32_t *tile, int32_t tile_stride, int32_t columns, int32_t rows, uint32_t *out,
                       int32_t out_stride) {
    for (int32_t y = 0; y < rows; y++) {
        uint32_t *row = out + (int64_t)y * out_stride;
        for (int32_t c = 0; c < columns; c++) row[c] = tile[(int64_t)c * tile_stride + y];
    }
}

static void copy_rows(const uint32_t *source, int32_t source_stride, int32_t columns, int32_t rows, uint32_t *out,
                      int32_t out_stride) {
    for (int32_t y = 0; y < rows; y++) {
        memcpy(out + (int64_t)y * out_stride, source + (int64_t)y * source_stride, (size_t)columns * sizeof(uint32_t));
    }
}

static void copy_rows_lit(const uint32_t *source, int32_t source_stride, int32_t columns, int32_t rows,
                          const uint16_t *lights, uint32_t *out, int32_t out_stride) {
    for (int32_t y = 0; y < rows; y++) {
        const uint32_t *from = source + (int64_t)y * source_stride;
        uint32_t *to = out + (int64_t)y * out_stride;
        for (int32_t c = 0; c < columns; c++) to[c] = folio_lit_one(from[c], folio_sample_light(FOLIO_SHADOW_FULL, lights[c]));
    }
}

static void darken_rows(const uint32_t *source, int32_t source_stride, int32_t columns, int32_t rows, const uint16_t *grid,
                        int32_t grid_stride, int32_t cell_shift, int32_t margin, int32_t row, uint32_t *out,
                        int32_t out_stride) {
    for (int32_t y = 0; y < rows; y++) {
        const uint32_t *from = source + (int64_t)y * source_stride;
        uint32_t *to = out + (int64_t)y * out_stride;
        for (int32_t c = 0; c < columns; c++) {
            folio_page_shadow shadow = {grid + (int64_t)c * grid_stride, cell_shift, margin};
            to[c] = folio_darken_one(from[c], folio_kept(&shadow, row + y));
        }
    }
}

static void finish(void) {}

static const folio_page_kernels portable = {
    .name = "portable", .blend = blend, .sample = sample, .darken = darken, .blend_grid = folio_blend_grid,
    .write_tile = write_tile, .copy_rows = copy_rows, .copy_rows_lit = copy_rows_lit, .darken_rows = darken_rows,
    .finish = finish,
};

const folio_page_kernels *folio_page_kernels_portable(void) { return &portable; }
