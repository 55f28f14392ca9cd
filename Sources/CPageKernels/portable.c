#include <string.h>

#include "page_kernels.h"
#include "scalar_kernels.h"

/*
 * The portable kernels run the one-pixel arithmetic of scalar_kernels.h four pixels at a time in
 * the compiler's generic vectors, which it lowers to whatever this CPU has (SSE2, NEON, or plain
 * words): no intrinsics. A pixel is two 16-bit lanes, its blue and green in one, its red and alpha
 * in the next, so the channels are worked on in even and odd bytes of the lanes, never unpacked.
 * The pixels' products are of two 16-bit values (a 32-bit multiply is slow or missing on many vector
 * units).
 */
enum { chunk = 64 };

/* The row kernels' columns per pass: rows of 2 KiB, long enough for the hardware prefetchers. */
enum { span = 512 };

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the lanes take a pixel's bytes as B, G, R, A: little-endian only"
#endif

/* Four pixels (and four signed 32-bit lanes); the same sixteen bytes as eight 16-bit lanes, signed
 * or not, and as bytes; eight 32-bit lanes for a 16-bit product's high half. */
typedef uint32_t pixels4 __attribute__((vector_size(16)));
typedef uint16_t lanes8 __attribute__((vector_size(16)));
typedef int16_t signed8 __attribute__((vector_size(16)));
typedef uint8_t bytes16 __attribute__((vector_size(16)));
typedef uint32_t wide8 __attribute__((vector_size(32)));
typedef int32_t signed4 __attribute__((vector_size(16)));
typedef int32_t signedWide8 __attribute__((vector_size(32)));

static inline pixels4 load4(const uint32_t *p) {
    pixels4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void store4(uint32_t *p, pixels4 v) { memcpy(p, &v, sizeof v); }

/* Stores that need not fetch the lines they fill (the frame is written, never read), where `to`
 * is 16-byte aligned; ordered by `finish`. */
static inline void stream4(uint32_t *to, pixels4 v, int streams) {
    if (streams) {
        __builtin_nontemporal_store(v, (pixels4 *)to);
    } else {
        store4(to, v);
    }
}

static inline int can_stream(const uint32_t *out, int32_t out_stride) {
    return ((uintptr_t)out & 15) == 0 && (out_stride & 3) == 0;
}

/* ((a·b >> 16) + 1) >> 1 in every lane: (a·b + 2¹⁶) >> 17, from the high half of the 16-bit
 * product. */
static inline lanes8 lit8(lanes8 a, lanes8 b) {
    const wide8 q = (__builtin_convertvector(a, wide8) * __builtin_convertvector(b, wide8)) >> 16;
    return __builtin_convertvector((q + 1) >> 1, lanes8);
}

/* Each lane's low byte from `low`, its high byte from the low byte of `high` (both at most 255).
 * A shuffle: written as a shift and an or, the compiler folds the shift into high's product and
 * loses its 16-bit multiply. */
static inline pixels4 join_bytes(lanes8 low, lanes8 high) {
    return (pixels4)__builtin_shufflevector((bytes16)low, (bytes16)high, 0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12,
                                            28, 14, 30);
}

#if defined(__ARM_NEON)

/* (keep·a + take·b + 64) >> 7, keep + take = 128, a byte at a time: where the vector unit
 * multiplies bytes into 16-bit lanes, adds such products and narrows them back with rounding
 * (NEON), the compiler makes three instructions of eight bytes of this loop. */
static void blend_bytes(const uint8_t *restrict a, const uint8_t *restrict b, int32_t n, uint8_t keep, uint8_t take,
                        uint8_t *restrict out) {
    for (int32_t k = 0; k < n; k++) out[k] = (uint8_t)((uint16_t)(a[k] * keep + b[k] * take + 64) >> 7);
}

static void blend(const uint32_t *a, const uint32_t *b, int32_t count, uint32_t weight, uint32_t *out,
                  const uint32_t *ahead, const uint32_t *ahead2) {
    for (int32_t i = 0; i < count; i += 16) {
        if (ahead) __builtin_prefetch(ahead + i);
        if (ahead2) __builtin_prefetch(ahead2 + i);
    }
    blend_bytes((const uint8_t *)a, (const uint8_t *)b, count * 4, (uint8_t)(128 - weight), (uint8_t)weight,
                (uint8_t *)out);
}

#else

/* Elsewhere (SSE2 has no byte multiplies, so the byte loop unpacks and packs every byte): the same
 * number as a + ⌊((b − a)·take + 64)/128⌋, one multiply a channel, of a difference that fits a
 * signed 16-bit lane with its product (255·128 + 64), in even and odd bytes of the lanes. */
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
        store4(out + i, blend4(load4(a + i), load4(b + i), take));
    }
    for (; i < count; i++) out[i] = folio_blend_one(a[i], b[i], weight);
}

#endif

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

/* Four samples: taps t and b weighed 127 − f and f (f per pixel in both its lanes), lit by kLow
 * (each lane's low channel) and kHigh (its high channel), the light factors times 4:
 * (m·k + 2¹⁴) >> 15 with m ≤ 127·255 is lit8(m, 4·k), and never passes 255 (127·255·258/2¹⁵ rounds
 * to 255). */
static inline pixels4 light4(lanes8 t, lanes8 b, lanes8 f, lanes8 kLow, lanes8 kHigh) {
    const lanes8 g = 127 - f;
    const lanes8 low = g * (t & 0xFF) + f * (b & 0xFF), high = g * (t >> 8) + f * (b >> 8);
    return join_bytes(lit8(low, kLow), lit8(high, kHigh));
}

/* Light factors times 4 as light4 takes them for four pixels of light k (each a 32-bit lane):
 * colours k, alpha unlit. */
static inline void light_factors(pixels4 k, lanes8 *kLow, lanes8 *kHigh) {
    *kLow = (lanes8)(4 * (k | k << 16));
    *kHigh = (lanes8)(4 * (k | (uint32_t)FOLIO_UNLIT << 16));
}

/* light_factors of four pixels under a shadow, from the light they keep (folio_sample_light). */
static inline void shadow_factors(const int32_t *kept, int32_t scale, lanes8 *kLow, lanes8 *kHigh) {
    signed4 k;
    memcpy(&k, kept, sizeof k);
    light_factors((pixels4)((k * scale + (1 << 19)) >> 20), kLow, kHigh);
}

/* The taps at 32.32 `position`, top and bottom, as one 64-bit lane: read at once. */
static inline uint64_t taps_at(const uint32_t *column, int64_t position) {
    uint64_t pair;
    memcpy(&pair, column + (position >> 32), sizeof pair);
    return pair;
}

/* Four samples at 32.32 positions p[0…3], whose fractions are `fractions`. */
static inline pixels4 sample4(const uint32_t *column, const int64_t p[4], pixels4 fractions, lanes8 kLow, lanes8 kHigh) {
    typedef uint64_t pairs2 __attribute__((vector_size(16)));
    const pixels4 first = (pixels4)(pairs2){taps_at(column, p[0]), taps_at(column, p[1])};
    const pixels4 second = (pixels4)(pairs2){taps_at(column, p[2]), taps_at(column, p[3])};
    const pixels4 w = fractions >> 25;
    return light4((lanes8)__builtin_shufflevector(first, second, 0, 2, 4, 6),
                  (lanes8)__builtin_shufflevector(first, second, 1, 3, 5, 7), (lanes8)(w | w << 16), kLow, kHigh);
}

/* Four samples at a time; under a shadow, each four's light from the light it keeps (a chunk's
 * rows at a time). The run's last one to three samples are made as four (the spare lanes read the
 * first one's taps), and only theirs are stored. */
static void sample(const uint32_t *column, int64_t v, int64_t dv, int32_t count, const folio_page_shadow *shadow,
                   int32_t row, uint16_t light, uint32_t *out) {
    int32_t kept[chunk];
    const int32_t scale = folio_light_scale(light);
    lanes8 kLow, kHigh;
    light_factors((pixels4){0} + (uint32_t)folio_sample_light(FOLIO_SHADOW_FULL, light), &kLow, &kHigh);
    const uint32_t step = (uint32_t)dv;
    pixels4 fractions = (uint32_t)v + (pixels4){0, step, 2 * step, 3 * step};
    int64_t position = v;
    for (int32_t i0 = 0; i0 < count; i0 += chunk) {
        const int32_t n = count - i0 < chunk ? count - i0 : chunk;
        if (shadow) {
            kept_rows(shadow, row + i0, n, kept);
            for (int32_t i = n; i < ((n + 3) & ~3); i++) kept[i] = kept[n - 1];
        }
        int32_t i = 0;
        for (; i + 4 <= n; i += 4, position += 4 * dv, fractions += 4 * step) {
            if (shadow) shadow_factors(kept + i, scale, &kLow, &kHigh);
            const int64_t p[4] = {position, position + dv, position + 2 * dv, position + 3 * dv};
            store4(out + i0 + i, sample4(column, p, fractions, kLow, kHigh));
        }
        if (i < n) {
            if (shadow) shadow_factors(kept + i, scale, &kLow, &kHigh);
            const int32_t left = n - i;
            const int64_t p[4] = {position, position + (left > 1) * dv, position + (left > 2) * 2 * dv, position};
            const pixels4 samples = sample4(column, p, fractions, kLow, kHigh);
            memcpy(out + i0 + i, &samples, (size_t)left * sizeof(uint32_t));
        }
    }
}

/* Four pixels darkened, each by its factor k (in both its lanes, ≤ 32767): (c·k + 2¹⁴) >> 15 is
 * lit8(4·c, k), at most 255; opaque. */
static inline pixels4 darken4(pixels4 p, lanes8 k) {
    const lanes8 lanes = (lanes8)p;
    return join_bytes(lit8((lanes & 0xFF) << 2, k), lit8((lanes >> 8) << 2, k)) | FOLIO_OPAQUE;
}

/* folio_darken_factor of four pixels' kept light, in both lanes of each. */
static inline lanes8 darken_factors4(const int32_t *kept) {
    pixels4 k = (pixels4)load4((const uint32_t *)kept) * 2;
    k -= k >> 15;
    return (lanes8)(k | k << 16);
}

static void darken(const uint32_t *source, uint32_t flat, const folio_page_shadow *shadow, int32_t row, int32_t count,
                   uint32_t *out) {
    int32_t kept[chunk];
    const pixels4 flat4 = (pixels4){0} + flat;
    for (int32_t i0 = 0; i0 < count; i0 += chunk) {
        const int32_t n = count - i0 < chunk ? count - i0 : chunk;
        kept_rows(shadow, row + i0, n, kept);
        int32_t i = 0;
        for (; i + 4 <= n; i += 4) {
            store4(out + i0 + i, darken4(source ? load4(source + i0 + i) : flat4, darken_factors4(kept + i)));
        }
        for (; i < n; i++) out[i0 + i] = folio_darken_one(source ? source[i0 + i] : flat, kept[i]);
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
            for (int b = 0; b < blocks; b++) stream4(to + 4 * b, rows[b][k], streams);
        }
    }
}

/* 4×4 blocks transposed in vectors, four rows at a time; the odd rows and columns one by one. The
 * stores may be non-temporal, ordered by `finish`. */
static void write_tile(const uint32_t *tile, int32_t tile_stride, int32_t columns, int32_t rows, uint32_t *out,
                       int32_t out_stride) {
    const int32_t whole_rows = rows & ~3, whole_columns = columns & ~3;
    const int streams = can_stream(out, out_stride);
    for (int32_t y = 0; y < whole_rows; y += 4) {
        write_rows4(tile + y, tile_stride, whole_columns, out + (int64_t)y * out_stride, out_stride, streams);
    }
    for (int32_t y = 0; y < rows; y++) {
        for (int32_t x = y < whole_rows ? whole_columns : 0; x < columns; x++) {
            out[(int64_t)y * out_stride + x] = tile[(int64_t)x * tile_stride + y];
        }
    }
}

/* Four pixels at a time, non-temporal where the frame allows; the rest of a row by memcpy. */
static void copy_rows(const uint32_t *source, int32_t source_stride, int32_t columns, int32_t rows, uint32_t *out,
                      int32_t out_stride) {
    const int streams = can_stream(out, out_stride);
    for (int32_t y = 0; y < rows; y++) {
        const uint32_t *from = source + (int64_t)y * source_stride;
        uint32_t *to = out + (int64_t)y * out_stride;
        int32_t c = 0;
        for (; c + 4 <= columns; c += 4) stream4(to + c, load4(from + c), streams);
        if (c < columns) memcpy(to + c, from + c, (size_t)(columns - c) * sizeof(uint32_t));
    }
}

/* A span of columns at a time: their light factors laid out once, then each row lit as the sampler
 * lights a tap of weight 0 (both taps the pixel itself). */
static void copy_rows_lit(const uint32_t *source, int32_t source_stride, int32_t columns, int32_t rows,
                          const uint16_t *lights, uint32_t *out, int32_t out_stride) {
    lanes8 kLow[span / 4], kHigh[span / 4];
    int32_t factors[span];
    const int streams = can_stream(out, out_stride);
    for (int32_t c0 = 0; c0 < columns; c0 += span) {
        const int32_t n = columns - c0 < span ? columns - c0 : span, whole = n & ~3;
        for (int32_t c = 0; c < n; c++) factors[c] = folio_sample_light(FOLIO_SHADOW_FULL, lights[c0 + c]);
        for (int32_t c = 0; c < whole; c += 4) light_factors(load4((const uint32_t *)factors + c), &kLow[c / 4], &kHigh[c / 4]);
        for (int32_t y = 0; y < rows; y++) {
            const uint32_t *from = source + (int64_t)y * source_stride + c0;
            uint32_t *to = out + (int64_t)y * out_stride + c0;
            for (int32_t c = 0; c < whole; c += 4) {
                const lanes8 p = (lanes8)load4(from + c);
                stream4(to + c, light4(p, p, (lanes8){0}, kLow[c / 4], kHigh[c / 4]), streams);
            }
            for (int32_t c = whole; c < n; c++) to[c] = folio_lit_one(from[c], factors[c]);
        }
    }
}

/* The darkening factors (folio_darken_factor) of eight columns at a row of weight w (0…255):
 * kept = FULL − (first + ⌊(d·w + 128)/256⌋), the quotient from the 16-bit product's halves (it fits
 * a lane: |d| ≤ FULL). With W = w·256 as a signed lane (w·256 − 2¹⁶ where w ≥ 128), the high half of
 * d·W is ⌊d·w/256⌋, less d where w ≥ 128; bit 7 of the low half of d·w rounds it. */
static inline lanes8 darken_factors8(const uint16_t *first, const int16_t *difference, int16_t w) {
    lanes8 a;
    signed8 d;
    memcpy(&a, first, sizeof a);
    memcpy(&d, difference, sizeof d);
    const signed8 W = (signed8){0} + (int16_t)(uint16_t)(w << 8);
    const signed8 high = __builtin_convertvector(
        (__builtin_convertvector(d, signedWide8) * __builtin_convertvector(W, signedWide8)) >> 16, signed8);
    const lanes8 low = (lanes8)d * (uint16_t)w;
    const lanes8 quotient = (lanes8)high + (w >= 128 ? (lanes8)d : (lanes8){0}) + ((low >> 7) & 1);
    const lanes8 k = (FOLIO_SHADOW_FULL - a - quotient) * 2;
    return k - (k >> 15);
}

/* A span of columns at a time. A row's grid rows and weight are the same in every column, so each
 * column's grid pair is read once per cell, and a row costs two 16-bit multiplies a column for its
 * factor. */
static void darken_rows(const uint32_t *source, int32_t source_stride, int32_t columns, int32_t rows, const uint16_t *grid,
                        int32_t grid_stride, int32_t cell_shift, int32_t margin, int32_t row, uint32_t *out,
                        int32_t out_stride) {
    const int32_t mask = (1 << cell_shift) - 1, up = 8 - cell_shift, base = 128 >> cell_shift;
    uint16_t first[span];
    int16_t difference[span];
    const int streams = can_stream(out, out_stride);
    for (int32_t c0 = 0; c0 < columns; c0 += span) {
        const int32_t n = columns - c0 < span ? columns - c0 : span, whole = n & ~7;
        int32_t cell = 0, loaded = 0;
        for (int32_t y = 0; y < rows; y++) {
            const int32_t r = row + y - ((mask + 1) >> 1), g = (r >> cell_shift) + margin;
            if (!loaded || g != cell) {
                for (int32_t c = 0; c < n; c++) {
                    const uint16_t *column = grid + (int64_t)(c0 + c) * grid_stride;
                    first[c] = column[g];
                    difference[c] = (int16_t)(column[g + 1] - column[g]);
                }
                cell = g;
                loaded = 1;
            }
            const int16_t w = (int16_t)(((r & mask) << up) + base);
            const uint32_t *from = source + (int64_t)y * source_stride + c0;
            uint32_t *to = out + (int64_t)y * out_stride + c0;
            for (int32_t c = 0; c < whole; c += 8) {
                const lanes8 k = darken_factors8(first + c, difference + c, w);
                stream4(to + c, darken4(load4(from + c), __builtin_shufflevector(k, k, 0, 0, 1, 1, 2, 2, 3, 3)), streams);
                stream4(to + c + 4, darken4(load4(from + c + 4), __builtin_shufflevector(k, k, 4, 4, 5, 5, 6, 6, 7, 7)),
                        streams);
            }
            for (int32_t c = whole; c < n; c++) {
                to[c] = folio_darken_one(from[c], FOLIO_SHADOW_FULL - (first[c] + ((difference[c] * w + 128) >> 8)));
            }
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
