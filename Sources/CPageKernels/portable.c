#include <string.h>

#include "page_kernels.h"
#include "scalar_kernels.h"

/*
 * The portable kernels run the one-pixel arithmetic of scalar_kernels.h over small chunks, a byte
 * (in the sampler and the darkening, two channels in a 16-bit lane) at a time: per-pixel values
 * (taps, weights, light) are laid out per lane first, so the lane loops are plain and the compiler
 * vectorises them for whatever CPU this is built for. Every product in them is of two 16-bit values, so they
 * vectorise as 16-bit multiplies (a 32-bit multiply is slow or missing on many vector units).
 */
enum { chunk = 64 };

/* The row kernels' columns per pass: rows of 2 KiB, long enough for the hardware prefetchers. */
enum { span = 512 };

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the byte loops take a pixel's bytes as B, G, R, A: little-endian only"
#endif

/* A pixel's two 16-bit lanes, i-th pair of a lane array: stored through memcpy, which the compiler
 * must assume the lane loops' 16-bit reads see (a store through a uint32_t pointer it may not). */
static inline void put_lanes(uint16_t *lanes, int32_t i, uint32_t value) { memcpy(lanes + 2 * i, &value, sizeof value); }

/* Four pixels in one vector: the compiler's generic vectors, which it lowers to the target's own
 * registers and shuffles (SSE2, NEON, or plain words), so the tile writer needs no intrinsics. */
typedef uint32_t pixels4 __attribute__((vector_size(16)));

/* The same sixteen bytes as eight 16-bit lanes (a pixel's blue and green in one, its red and alpha
 * in the next), signed or not, as bytes, and as eight 32-bit lanes for a product's high half. */
typedef uint16_t lanes8 __attribute__((vector_size(16)));
typedef int16_t signed8 __attribute__((vector_size(16)));
typedef uint8_t bytes16 __attribute__((vector_size(16)));
typedef uint32_t wide8 __attribute__((vector_size(32)));

static inline pixels4 load4(const uint32_t *p) {
    pixels4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* (keep·a + take·b + 64) >> 7 with keep + take = 128 is a + ⌊((b − a)·take + 64)/128⌋: one multiply
 * a channel, of a difference that fits a signed 16-bit lane with its product (255·128 + 64). The
 * channels in even bytes and in odd bytes of the 16-bit lanes each, so nothing is unpacked. */
static inline pixels4 blend4(pixels4 first, pixels4 second, signed8 take) {
    const lanes8 a = (lanes8)first, b = (lanes8)second;
    const signed8 aEven = (signed8)(a & 0xFF), aOdd = (signed8)(a >> 8);
    const signed8 even = aEven + ((((signed8)(b & 0xFF) - aEven) * take + 64) >> 7);
    const signed8 odd = aOdd + ((((signed8)(b >> 8) - aOdd) * take + 64) >> 7);
    return (pixels4)((lanes8)even | (lanes8)odd << 8);
}

static void blend(const uint32_t *a, const uint32_t *b, int32_t count, uint32_t weight, uint32_t *out,
                  const uint32_t *ahead, const uint32_t *ahead2) {
    const signed8 take = (signed8){0} + (int16_t)weight;
    int32_t i = 0;
    for (; i + 4 <= count; i += 4) {
        if ((i & 15) == 0) {
            if (ahead) __builtin_prefetch(ahead + i);
            if (ahead2) __builtin_prefetch(ahead2 + i);
        }
        const pixels4 blended = blend4(load4(a + i), load4(b + i), take);
        memcpy(out + i, &blended, sizeof blended);
    }
    for (; i < count; i++) out[i] = folio_blend_one(a[i], b[i], weight);
}

/* The light a shadow keeps (folio_kept) at rows row…row + n − 1, cell by cell: a cell's rows share
 * its grid pair, and their weights step by 2^(8 − shift) a row. folio_kept's rounding multiply by
 * 128·w is the same as (d·w + 128) >> 8. */
static void kept_rows(const folio_page_shadow *shadow, int32_t row, int32_t n, int32_t *restrict kept) {
    const int32_t shift = shadow->cell_shift, mask = (1 << shift) - 1, up = 8 - shift, base = 128 >> shift;
    const int32_t margin = shadow->margin;
    const uint16_t *darkening = shadow->darkening;
    for (int32_t i = 0; i < n;) {
        const int32_t r = row + i - (1 << (shift - 1)), g = (r >> shift) + margin;
        int32_t end = i + mask + 1 - (r & mask);
        if (end > n) end = n;
        const int32_t a = darkening[g], d = darkening[g + 1] - a, w = ((r & mask) << up) + base - (i << up);
        for (int32_t j = i; j < end; j++) kept[j] = FOLIO_SHADOW_FULL - (a + ((d * (w + (j << up)) + 128) >> 8));
        i = end;
    }
}

/* (a·b + 2¹⁶) >> 17 from the high half of the 16-bit product, q = ⌊a·b/2¹⁶⌋: ⌊(a·b/2¹⁶ + 1)/2⌋ is
 * (q + 1) >> 1. */
static inline uint16_t lit(uint16_t a, uint16_t b) {
    const uint16_t q = (uint16_t)(((uint32_t)a * b) >> 16);
    return (uint16_t)((q + 1) >> 1);
}

/* Two channels a 16-bit lane (a pixel's blue and green, or red and alpha), each lane with its
 * pixel's weight f and its channels' light factors k times 4: (m·k + 2¹⁴) >> 15 with
 * m = (127 − f)·t + f·b ≤ 32385 is lit(m, 4·k). Whole vectors of pixels, no byte unpacking. A result
 * never passes 255 (127·255·258/2¹⁵ rounds to 255); saying so to the compiler (the min) keeps the
 * high half's arithmetic in 16-bit lanes. */
static void sample_pairs(const uint16_t *restrict t, const uint16_t *restrict b, const uint16_t *restrict f,
                         const uint16_t *restrict kLow, const uint16_t *restrict kHigh, int32_t n, uint16_t *restrict out) {
    for (int32_t j = 0; j < n; j++) {
        const uint16_t g = (uint16_t)(127 - f[j]);
        const uint16_t low = (uint16_t)(g * (t[j] & 0xFF) + f[j] * (b[j] & 0xFF));
        const uint16_t high = (uint16_t)(g * (t[j] >> 8) + f[j] * (b[j] >> 8));
        const uint16_t h0 = lit(high, kHigh[j]), h = h0 < 255 ? h0 : 255, l = lit(low, kLow[j]);
        out[j] = (uint16_t)(l + (uint16_t)(h << 8));
    }
}


/* lit() in every lane: the high half of the 16-bit product, rounded. */
static inline lanes8 lit8(lanes8 a, lanes8 b) {
    const wide8 q = (__builtin_convertvector(a, wide8) * __builtin_convertvector(b, wide8)) >> 16;
    return __builtin_convertvector((q + 1) >> 1, lanes8);
}

/* Four samples as sample_pairs makes them, from their taps in pairs (pixel i's top at 2i, bottom
 * at 2i + 1), their position fractions and their light factors (kLow, kHigh as sample_pairs takes
 * them). No lane passes 16 bits: q ≤ 32385·1032/2¹⁶, and a result never passes 255. */
static inline pixels4 sample4(const uint32_t *taps, pixels4 fractions, lanes8 kLow, lanes8 kHigh) {
    const pixels4 first = load4(taps), second = load4(taps + 4);
    const lanes8 t = (lanes8)__builtin_shufflevector(first, second, 0, 2, 4, 6);
    const lanes8 b = (lanes8)__builtin_shufflevector(first, second, 1, 3, 5, 7);
    const pixels4 w = fractions >> 25;
    const lanes8 f = (lanes8)(w | w << 16), g = 127 - f;
    const lanes8 low = g * (t & 0xFF) + f * (b & 0xFF), high = g * (t >> 8) + f * (b >> 8);
    /* Each lane's result byte next to its partner's: written as a shuffle, where a shift would let
     * the compiler fold it into the high product and lose the 16-bit multiply. */
    const bytes16 l = (bytes16)lit8(low, kLow), h = (bytes16)lit8(high, kHigh);
    return (pixels4)__builtin_shufflevector(l, h, 0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30);
}

/* Pixel i's and the next three's light factors: the chunk's, or the same for all without a shadow. */
static inline lanes8 lightAt(lanes8 flat, const uint16_t *factors, int32_t i, const folio_page_shadow *shadow) {
    if (!shadow) return flat;
    lanes8 k;
    memcpy(&k, factors + 2 * i, sizeof k);
    return k;
}

/* A chunk's taps in pairs, each pixel's two read at once, then four samples at a time. The light
 * factors are the same for every pixel without a shadow, else laid out per chunk. */
static void sample(const uint32_t *column, int64_t v, int64_t dv, int32_t count, const folio_page_shadow *shadow,
                   int32_t row, uint16_t light, uint32_t *out) {
    uint32_t taps[2 * chunk] __attribute__((aligned(16)));
    uint16_t kLow[2 * chunk] __attribute__((aligned(16))), kHigh[2 * chunk] __attribute__((aligned(16)));
    int32_t kept[chunk];
    const int32_t scale = folio_light_scale(light);
    const uint32_t k = (uint32_t)folio_sample_light(FOLIO_SHADOW_FULL, light);
    const lanes8 flatLow = (lanes8)((pixels4){0, 0, 0, 0} + 4 * (k | k << 16));
    const lanes8 flatHigh = (lanes8)((pixels4){0, 0, 0, 0} + 4 * (k | (uint32_t)FOLIO_UNLIT << 16));
    const uint32_t step = (uint32_t)dv;
    const pixels4 steps4 = {0, step, 2 * step, 3 * step};
    int64_t position = v;
    for (int32_t i0 = 0; i0 < count; i0 += chunk) {
        const int32_t n = count - i0 < chunk ? count - i0 : chunk, whole = n & ~3;
        pixels4 fractions = (uint32_t)position + steps4;
        for (int32_t i = 0; i < n; i++, position += dv) memcpy(taps + 2 * i, column + (position >> 32), 8);
        for (int32_t i = n; i < ((n + 3) & ~3); i++) memcpy(taps + 2 * i, column, 8);
        if (shadow) {
            kept_rows(shadow, row + i0, n, kept);
            for (int32_t i = 0; i < n; i++) {
                const uint32_t kk = (uint32_t)((kept[i] * scale + (1 << 19)) >> 20);
                put_lanes(kLow, i, 4 * (kk | kk << 16));
                put_lanes(kHigh, i, 4 * (kk | (uint32_t)FOLIO_UNLIT << 16));
            }
        }
        int32_t i = 0;
        for (; i < whole; i += 4, fractions += 4 * step) {
            const pixels4 samples = sample4(taps + 2 * i, fractions, lightAt(flatLow, kLow, i, shadow),
                                            lightAt(flatHigh, kHigh, i, shadow));
            memcpy(out + i0 + i, &samples, sizeof samples);
        }
        if (i < n) {
            const pixels4 samples = sample4(taps + 2 * i, fractions, lightAt(flatLow, kLow, i, shadow),
                                            lightAt(flatHigh, kHigh, i, shadow));
            memcpy(out + i0 + i, &samples, (size_t)(n - i) * sizeof(uint32_t));
        }
    }
}

/* (c·k + 2¹⁴) >> 15 with k ≤ 32767, two channels a 16-bit lane as in the sampler: lit(4·c, k), at
 * most 255 (the min as in sample_pairs). A pixel's red-and-alpha lane has alpha's k 0 and its 0xFF put
 * in from `opaque`. */
static void darken_pairs(const uint16_t *restrict p, const uint16_t *restrict kLow, const uint16_t *restrict kHigh,
                         const uint16_t *restrict opaque, int32_t n, uint16_t *restrict out) {
    for (int32_t j = 0; j < n; j++) {
        const uint16_t l = lit((uint16_t)((p[j] & 0xFF) << 2), kLow[j]), h0 = lit((uint16_t)((p[j] >> 8) << 2), kHigh[j]);
        const uint16_t h = h0 < 255 ? h0 : 255;
        out[j] = (uint16_t)(l | h << 8 | opaque[j]);
    }
}

/* A pixel's darkening factors as darken_pairs takes them, its alpha's 0. */
static inline void darken_factors(int32_t kept, uint16_t *kLow, uint16_t *kHigh, int32_t i) {
    const uint32_t k = (uint32_t)folio_darken_factor(kept);
    put_lanes(kLow, i, k | k << 16);
    put_lanes(kHigh, i, k);
}

static void darken(const uint32_t *source, uint32_t flat, const folio_page_shadow *shadow, int32_t row, int32_t count,
                   uint32_t *out) {
    uint16_t pixels[2 * chunk], kLow[2 * chunk], kHigh[2 * chunk], opaque[2 * chunk];
    int32_t kept[chunk];
    for (int32_t i = 0; i < chunk; i++) put_lanes(opaque, i, FOLIO_OPAQUE);
    for (int32_t i0 = 0; i0 < count; i0 += chunk) {
        const int32_t n = count - i0 < chunk ? count - i0 : chunk;
        kept_rows(shadow, row + i0, n, kept);
        for (int32_t i = 0; i < n; i++) darken_factors(kept[i], kLow, kHigh, i);
        if (!source) for (int32_t i = 0; i < n; i++) put_lanes(pixels, i, flat);
        darken_pairs(source ? (const uint16_t *)(source + i0) : pixels, kLow, kHigh, opaque, n * 2, (uint16_t *)(out + i0));
    }
}

/* A 4×4 block of a column-major tile, c[k] column k's four rows, turned into its four rows. */
static inline void transpose4(const pixels4 c[4], pixels4 row[4]) {
    const pixels4 t0 = __builtin_shufflevector(c[0], c[1], 0, 4, 1, 5), t1 = __builtin_shufflevector(c[0], c[1], 2, 6, 3, 7);
    const pixels4 t2 = __builtin_shufflevector(c[2], c[3], 0, 4, 1, 5), t3 = __builtin_shufflevector(c[2], c[3], 2, 6, 3, 7);
    row[0] = __builtin_shufflevector(t0, t2, 0, 1, 4, 5);
    row[1] = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
    row[2] = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
    row[3] = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
}

/* Rows y…y + 3 of `columns` (a multiple of 4) columns, a row's sixteen pixels (a cache line of the
 * frame) written one after the other. Non-temporal where the frame's rows are 16-byte aligned: the
 * frame is written, never read, so its lines need not be fetched first. */
static inline void write_rows4(const uint32_t *band, int32_t tile_stride, int32_t columns, uint32_t *out,
                               int32_t out_stride, int streams) {
    for (int32_t c0 = 0; c0 < columns; c0 += 16) {
        const int32_t blocks = columns - c0 < 16 ? (columns - c0) / 4 : 4;
        pixels4 rows[4][4];
        for (int b = 0; b < blocks; b++) {
            pixels4 c[4];
            for (int k = 0; k < 4; k++) c[k] = load4(band + (int64_t)(c0 + 4 * b + k) * tile_stride);
            transpose4(c, rows[b]);
        }
        for (int k = 0; k < 4; k++) {
            uint32_t *to = out + (int64_t)k * out_stride + c0;
            for (int b = 0; b < blocks; b++) {
                if (streams) {
                    __builtin_nontemporal_store(rows[b][k], (pixels4 *)(to + 4 * b));
                } else {
                    memcpy(to + 4 * b, &rows[b][k], sizeof rows[b][k]);
                }
            }
        }
    }
}

/* 4×4 blocks transposed in vectors, four rows at a time; the odd rows and columns one by one. The
 * stores may be non-temporal, ordered by `finish`. */
static void write_tile(const uint32_t *tile, int32_t tile_stride, int32_t columns, int32_t rows, uint32_t *out,
                       int32_t out_stride) {
    const int32_t whole_rows = rows & ~3, whole_columns = columns & ~3;
    const int streams = ((uintptr_t)out & 15) == 0 && (out_stride & 3) == 0;
    for (int32_t y = 0; y < whole_rows; y += 4) {
        write_rows4(tile + y, tile_stride, whole_columns, out + (int64_t)y * out_stride, out_stride, streams);
    }
    for (int32_t y = 0; y < rows; y++) {
        for (int32_t x = y < whole_rows ? whole_columns : 0; x < columns; x++) {
            out[(int64_t)y * out_stride + x] = tile[(int64_t)x * tile_stride + y];
        }
    }
}

static void copy_rows(const uint32_t *source, int32_t source_stride, int32_t columns, int32_t rows, uint32_t *out,
                      int32_t out_stride) {
    for (int32_t y = 0; y < rows; y++) {
        memcpy(out + (int64_t)y * out_stride, source + (int64_t)y * source_stride, (size_t)columns * sizeof(uint32_t));
    }
}

/* A span of columns at a time: their light factors laid out once, then each row lit as the sampler
 * lights a tap of weight 0 (both taps the pixel itself). */
static void copy_rows_lit(const uint32_t *source, int32_t source_stride, int32_t columns, int32_t rows,
                          const uint16_t *lights, uint32_t *out, int32_t out_stride) {
    static const uint16_t unweighted[2 * span];
    uint16_t kLow[2 * span], kHigh[2 * span];
    for (int32_t c0 = 0; c0 < columns; c0 += span) {
        const int32_t n = columns - c0 < span ? columns - c0 : span;
        for (int32_t c = 0; c < n; c++) {
            const uint32_t k = (uint32_t)folio_sample_light(FOLIO_SHADOW_FULL, lights[c0 + c]);
            put_lanes(kLow, c, 4 * (k | k << 16));
            put_lanes(kHigh, c, 4 * (k | (uint32_t)FOLIO_UNLIT << 16));
        }
        for (int32_t y = 0; y < rows; y++) {
            const uint16_t *from = (const uint16_t *)(source + (int64_t)y * source_stride + c0);
            sample_pairs(from, from, unweighted, kLow, kHigh, n * 2, (uint16_t *)(out + (int64_t)y * out_stride + c0));
        }
    }
}

/* A span of columns at a time. A row's grid rows and weight are the same in every column, so each
 * column's grid pair is read once per cell, and a row costs one multiply a column for its factor. */
static void darken_rows(const uint32_t *source, int32_t source_stride, int32_t columns, int32_t rows, const uint16_t *grid,
                        int32_t grid_stride, int32_t cell_shift, int32_t margin, int32_t row, uint32_t *out,
                        int32_t out_stride) {
    const int32_t mask = (1 << cell_shift) - 1, up = 8 - cell_shift, base = 128 >> cell_shift;
    int32_t first[span], difference[span];
    uint16_t kLow[2 * span], kHigh[2 * span], opaque[2 * span];
    for (int32_t c = 0; c < span; c++) put_lanes(opaque, c, FOLIO_OPAQUE);
    for (int32_t c0 = 0; c0 < columns; c0 += span) {
        const int32_t n = columns - c0 < span ? columns - c0 : span;
        int32_t cell = 0, loaded = 0;
        for (int32_t y = 0; y < rows; y++) {
            const int32_t r = row + y - ((mask + 1) >> 1), g = (r >> cell_shift) + margin;
            if (!loaded || g != cell) {
                for (int32_t c = 0; c < n; c++) {
                    const uint16_t *column = grid + (int64_t)(c0 + c) * grid_stride;
                    first[c] = column[g];
                    difference[c] = column[g + 1] - column[g];
                }
                cell = g;
                loaded = 1;
            }
            const int32_t w = ((r & mask) << up) + base;
            for (int32_t c = 0; c < n; c++) {
                const int32_t kept = FOLIO_SHADOW_FULL - (first[c] + ((difference[c] * w + 128) >> 8));
                darken_factors(kept, kLow, kHigh, c);
            }
            darken_pairs((const uint16_t *)(source + (int64_t)y * source_stride + c0), kLow, kHigh, opaque, n * 2,
                         (uint16_t *)(out + (int64_t)y * out_stride + c0));
        }
    }
}

/* Orders the tile writer's non-temporal stores before whatever follows the frame. */
static void finish(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

static const folio_page_kernels portable = {
    .name = "portable", .blend = blend, .sample = sample, .darken = darken, .blend_grid = folio_blend_grid,
    .write_tile = write_tile, .copy_rows = copy_rows, .copy_rows_lit = copy_rows_lit, .darken_rows = darken_rows,
    .finish = finish,
};

const folio_page_kernels *folio_page_kernels_portable(void) { return &portable; }
