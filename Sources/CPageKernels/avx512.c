#include "page_kernels.h"
#include "scalar_kernels.h"
#include "shared_kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define AVX512 __attribute__((target("avx512f,avx512bw,avx2")))
#define INLINE __attribute__((always_inline)) inline

AVX512 static INLINE __m512i load(const uint32_t *p) { return _mm512_loadu_si512((const void *)p); }

/* Sixteen pixels of `a` and `b` blended by `weights`, the byte pairs (128 − w, w). */
AVX512 static INLINE __m512i blend16(__m512i pa, __m512i pb, __m512i weights) {
    const __m512i round = _mm512_set1_epi16(256);
    __m512i low = _mm512_mulhrs_epi16(_mm512_maddubs_epi16(_mm512_unpacklo_epi8(pa, pb), weights), round);
    __m512i high = _mm512_mulhrs_epi16(_mm512_maddubs_epi16(_mm512_unpackhi_epi8(pa, pb), weights), round);
    return _mm512_packus_epi16(low, high);
}

/* The last few pixels of a run go through masked loads and stores, where a pixel at a time cost a
 * fifth of the kernel's time. */
AVX512 static void blend(const uint32_t *a, const uint32_t *b, int32_t count, uint32_t weight, uint32_t *out,
                         const uint32_t *ahead, const uint32_t *ahead2) {
    int32_t i = 0;
    /* Weights 0 and 128 copy one column: as byte pairs (128, 0) they would overflow a signed byte. */
    const uint32_t *source = weight == 0 ? a : weight == 128 ? b : 0;
    const __m512i weights = _mm512_set1_epi16((short)((weight << 8) | (128 - weight)));
    for (; i + 16 <= count; i += 16) {
        if (ahead) _mm_prefetch((const char *)(ahead + i), _MM_HINT_T1);
        if (ahead2) _mm_prefetch((const char *)(ahead2 + i), _MM_HINT_T1);
        _mm512_storeu_si512((void *)(out + i), source ? load(source + i) : blend16(load(a + i), load(b + i), weights));
    }
    if (i < count) {
        __mmask16 rest = (__mmask16)((1u << (count - i)) - 1);
        __m512i pa = _mm512_maskz_loadu_epi32(rest, a + i), pb = _mm512_maskz_loadu_epi32(rest, b + i);
        _mm512_mask_storeu_epi32(out + i, rest, weight == 0 ? pa : weight == 128 ? pb : blend16(pa, pb, weights));
    }
}

/* 0…31, and where each 16-bit lane of a byte unpack's multiply-add result finds its row among 32:
 * the low unpack holds pixels 4L and 4L + 1 of each 128-bit lane L, the high one 4L + 2 and 4L + 3,
 * four channels each; the second half of the rows adds 16. */
static const uint16_t rows32[32] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                    16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
static const uint16_t spreadRows[4][32] = {
    {0, 0, 0, 0, 1, 1, 1, 1, 4, 4, 4, 4, 5, 5, 5, 5, 8, 8, 8, 8, 9, 9, 9, 9, 12, 12, 12, 12, 13, 13, 13, 13},
    {2, 2, 2, 2, 3, 3, 3, 3, 6, 6, 6, 6, 7, 7, 7, 7, 10, 10, 10, 10, 11, 11, 11, 11, 14, 14, 14, 14, 15, 15, 15, 15},
    {16, 16, 16, 16, 17, 17, 17, 17, 20, 20, 20, 20, 21, 21, 21, 21, 24, 24, 24, 24, 25, 25, 25, 25, 28, 28, 28, 28, 29, 29, 29, 29},
    {18, 18, 18, 18, 19, 19, 19, 19, 22, 22, 22, 22, 23, 23, 23, 23, 26, 26, 26, 26, 27, 27, 27, 27, 30, 30, 30, 30, 31, 31, 31, 31},
};

/* The light (0…FOLIO_SHADOW_FULL) `shadow` keeps at rows row…row + 31, a 16-bit lane each: cells
 * are at least 16 rows, so the rows span at most three of them. */
AVX512 static INLINE __m512i kept32(const folio_page_shadow *shadow, int32_t row) {
    const int32_t shift = shadow->cell_shift;
    const __m128i count = _mm_cvtsi32_si128(shift), up = _mm_cvtsi32_si128(8 - shift);
    int32_t start = row - (1 << (shift - 1)), first = start >> shift;
    __m512i r = _mm512_add_epi16(_mm512_set1_epi16((short)start), _mm512_loadu_si512((const void *)rows32));
    __m512i g = _mm512_sra_epi16(r, count);
    __mmask32 second = _mm512_cmpgt_epi16_mask(g, _mm512_set1_epi16((short)first));
    __mmask32 third = _mm512_cmpgt_epi16_mask(g, _mm512_set1_epi16((short)(first + 1)));
    __m512i w = _mm512_add_epi16(_mm512_sll_epi16(_mm512_and_si512(r, _mm512_set1_epi16((short)((1 << shift) - 1))), up),
                                 _mm512_set1_epi16((short)(128 >> shift)));
    const uint16_t *d = shadow->darkening + first + shadow->margin;
    __m512i a = _mm512_mask_blend_epi16(second, _mm512_set1_epi16((short)d[0]), _mm512_set1_epi16((short)d[1]));
    a = _mm512_mask_blend_epi16(third, a, _mm512_set1_epi16((short)d[2]));
    __m512i b = _mm512_mask_blend_epi16(second, _mm512_set1_epi16((short)d[1]), _mm512_set1_epi16((short)d[2]));
    b = _mm512_mask_blend_epi16(third, b, _mm512_set1_epi16((short)d[3]));
    __m512i dark = _mm512_add_epi16(a, _mm512_mulhrs_epi16(_mm512_sub_epi16(b, a), _mm512_slli_epi16(w, 7)));
    return _mm512_sub_epi16(_mm512_set1_epi16(FOLIO_SHADOW_FULL), dark);
}

/* Factors per row (16-bit lanes, 32 rows) spread over the channels of rows 16·half… of them. */
AVX512 static INLINE void spreadFactors(__m512i factors, const __m512i *spread, int half, __m512i *low, __m512i *high) {
    *low = _mm512_permutexvar_epi16(spread[2 * half], factors);
    *high = _mm512_permutexvar_epi16(spread[2 * half + 1], factors);
}

/* The load at `p` moved by `bytes` (not a whole pixel): each lane takes bytes of two neighbours. */
AVX512 static INLINE __m512i loadShifted(const uint32_t *p, int bytes) {
    return _mm512_loadu_si512((const void *)((const char *)p + bytes));
}

/* Pixel j of the window with pixel j + 1, channel by channel, as byte pairs for a multiply-add:
 * `blueRed` has (B_j, B_j+1, R_j, R_j+1) in lane j, `greenAlpha` (G_j, G_j+1, A_j, A_j+1). Whole
 * loads and a bytewise select build them, so the taps need no byte shuffles after the lane permute. */
AVX512 static INLINE __m512i blueRed(const uint32_t *window) {
    return _mm512_ternarylogic_epi32(_mm512_set1_epi32(0x00FF00FF), load(window), loadShifted(window + 1, -1), 0xCA);
}

AVX512 static INLINE __m512i greenAlpha(const uint32_t *window) {
    return _mm512_ternarylogic_epi32(_mm512_set1_epi32(0x00FF00FF), loadShifted(window, 1), load(window + 1), 0xCA);
}

/* How a run's sixteen taps a step are fetched: from the step's first 32 pixels, its first 48, or
 * by a gather (steps past 47/15 rows). */
enum { windowOf32, windowOf48, gathered };

/*
 * Sixteen rows of a run, lit by kBlueRed and kGreenAlpha (per pixel, the factors of its two
 * channel pairs): `fractions` are the rows' 32-bit position fractions, `whole` and `part` the whole rows
 * and fraction of lane l's offset l·dv; a lane's row is one more than `whole` where adding `part`
 * carried, which shows as a fraction below `part`.
 * Each channel pair meets its weights, the byte pairs (127 − f, f), in one multiply-add, which leaves
 * the blue and red (green and alpha) results in place in the pixel's 16-bit halves. Lanes outside
 * `lanes` are not fetched by the gather (the windows are readable past the end).
 */
AVX512 static INLINE __m512i sample16(const uint32_t *window, __m512i fractions, __m512i whole, __m512i part,
                                      __mmask16 lanes, __m512i kBlueRed, __m512i kGreenAlpha, int fetch) {
    const __m512i even = _mm512_set1_epi32(0x00FF00FF);
    __m512i index = _mm512_mask_add_epi32(whole, _mm512_cmplt_epu32_mask(fractions, part), whole, _mm512_set1_epi32(1));
    __m512i br, ga;
    if (fetch == gathered) {
        __m512i none = _mm512_setzero_si512();
        __m512i top = _mm512_mask_i32gather_epi32(none, lanes, index, (const void *)window, 4);
        __m512i bottom = _mm512_mask_i32gather_epi32(none, lanes, index, (const void *)(window + 1), 4);
        br = _mm512_ternarylogic_epi32(even, top, _mm512_slli_epi32(bottom, 8), 0xCA);
        ga = _mm512_ternarylogic_epi32(even, _mm512_srli_epi32(top, 8), bottom, 0xCA);
    } else {
        br = _mm512_permutex2var_epi32(blueRed(window), index, blueRed(window + 16));
        ga = _mm512_permutex2var_epi32(greenAlpha(window), index, greenAlpha(window + 16));
        if (fetch == windowOf48) {
            /* Taps 32…47 come from the third sixteen pixels, by the index's low four bits. */
            __mmask16 third = _mm512_cmpgt_epu32_mask(index, _mm512_set1_epi32(31));
            br = _mm512_mask_permutexvar_epi32(br, third, index, blueRed(window + 32));
            ga = _mm512_mask_permutexvar_epi32(ga, third, index, greenAlpha(window + 32));
        }
    }
    /* Per pixel the signed byte pair (127 − f, f), f·256 + 127 − f, in both 16-bit halves. */
    __m512i f = _mm512_srli_epi32(fractions, 25);
    __m512i weights = _mm512_add_epi32(_mm512_mullo_epi32(f, even), _mm512_set1_epi32(127 * 0x10001));
    __m512i blueAndRed = _mm512_mulhrs_epi16(_mm512_maddubs_epi16(br, weights), kBlueRed);
    __m512i greenAndAlpha = _mm512_mulhrs_epi16(_mm512_maddubs_epi16(ga, weights), kGreenAlpha);
    return _mm512_or_si512(blueAndRed, _mm512_slli_epi32(greenAndAlpha, 8));
}

/* Where each 32-bit pixel lane of sixteen rows finds its row's factor among 32, in both halves. */
static const uint16_t pairRows[2][32] = {
    {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15},
    {16, 16, 17, 17, 18, 18, 19, 19, 20, 20, 21, 21, 22, 22, 23, 23, 24, 24, 25, 25, 26, 26, 27, 27, 28, 28, 29, 29, 30, 30, 31, 31},
};

/* Sixteen pixels at a time; in shadow, the shadow's light once per thirty-two rows. Colours are
 * lit, alpha kept (see folio_sample_one). Every result is at most 255 (127·255·258/2¹⁵ rounds to
 * 255), so the channel pairs' halves recombine with a shift and an or. */
AVX512 static INLINE void sampleRun(const uint32_t *column, int64_t v, int64_t dv, int32_t count,
                                    const folio_page_shadow *shadow, int32_t row, uint16_t light, uint32_t *out,
                                    int fetch) {
    int32_t laneWhole[16], lanePart[16];
    folio_lane_offsets(dv, 16, laneWhole, lanePart);
    const __m512i whole = _mm512_loadu_si512((const void *)laneWhole);
    const __m512i part = _mm512_loadu_si512((const void *)lanePart);
    const __m512i unlit = _mm512_set1_epi16(FOLIO_UNLIT);
    const __mmask32 alpha = 0xAAAAAAAAu;
    const int32_t k = folio_sample_light(FOLIO_SHADOW_FULL, light);
    const __m512i scaled2 = _mm512_set1_epi16((short)(2 * folio_light_scale(light))), round = _mm512_set1_epi16(32);
    const __m512i advance = _mm512_set1_epi32((int32_t)(uint32_t)(16 * (uint64_t)dv));
    __m512i fractions = _mm512_add_epi32(_mm512_set1_epi32((int32_t)(uint32_t)v), part);
    __m512i kBlueRed = _mm512_set1_epi16((short)k), kGreenAlpha = _mm512_set1_epi32(k | FOLIO_UNLIT << 16);
    __m512i factors = kBlueRed;
    const __m512i low = _mm512_loadu_si512((const void *)pairRows[0]), high = _mm512_loadu_si512((const void *)pairRows[1]);
    int64_t vb = v;
    int32_t i = 0;
    for (; i < count; i += 16, vb += 16 * dv, fractions = _mm512_add_epi32(fractions, advance)) {
        if (shadow) {
            /* As folio_sample_light makes them (see shadowFactors16 in avx2.c). */
            if ((i & 31) == 0) {
                __m512i product = _mm512_mulhi_epu16(_mm512_slli_epi16(kept32(shadow, row + i), 1), scaled2);
                factors = _mm512_srli_epi16(_mm512_add_epi16(product, round), 6);
            }
            kBlueRed = _mm512_permutexvar_epi16((i & 16) ? high : low, factors);
            kGreenAlpha = _mm512_mask_mov_epi16(kBlueRed, alpha, unlit);
        }
        const uint32_t *window = column + (vb >> 32);
        if (i + 16 <= count) {
            _mm512_storeu_si512((void *)(out + i), sample16(window, fractions, whole, part, 0xFFFF, kBlueRed, kGreenAlpha, fetch));
        } else {
            /* Only 32 pixels where the real rows' taps lie in them: the column is readable 48 past
             * the last real row's index, not past the window's 48th pixel. */
            int narrowed = fetch == windowOf48 && ((vb + (int64_t)(count - 1 - i) * dv) >> 32) - (vb >> 32) <= 31;
            __mmask16 last = (__mmask16)((1u << (count - i)) - 1);
            _mm512_mask_storeu_epi32(out + i, last, sample16(window, fractions, whole, part, last, kBlueRed, kGreenAlpha,
                                                             narrowed ? windowOf32 : fetch));
        }
    }
}

/* Up to 31/15 rows a step, every step's sixteen taps (and the pixels after them) lie in its first
 * 32 pixels, one two-register permute each; up to 47/15, in its first 48. */
AVX512 static void sample(const uint32_t *column, int64_t v, int64_t dv, int32_t count,
                          const folio_page_shadow *shadow, int32_t row, uint16_t light, uint32_t *out) {
    if (15 * dv <= ((int64_t)31 << 32)) {
        sampleRun(column, v, dv, count, shadow, row, light, out, windowOf32);
    } else if (15 * dv <= ((int64_t)47 << 32)) {
        sampleRun(column, v, dv, count, shadow, row, light, out, windowOf48);
    } else {
        sampleRun(column, v, dv, count, shadow, row, light, out, gathered);
    }
}

AVX512 static void darken(const uint32_t *source, uint32_t flat, const folio_page_shadow *shadow, int32_t row,
                          int32_t count, uint32_t *out) {
    const __m512i colour = _mm512_set1_epi32((int)flat), zero = _mm512_setzero_si512();
    const __m512i opaque = _mm512_set1_epi32((int)FOLIO_OPAQUE), limit = _mm512_set1_epi16(32767);
    __m512i spread[4];
    for (int t = 0; t < 4; t++) spread[t] = _mm512_loadu_si512((const void *)spreadRows[t]);
    int32_t i = 0;
    while (i < count) {
        /* kept·2, with all the light as 32767: the rounding multiply's 1. */
        __m512i factors = _mm512_min_epu16(_mm512_slli_epi16(kept32(shadow, row + i), 1), limit);
        for (int half = 0; half < 2 && i < count; half++, i += 16) {
            __m512i kLow, kHigh;
            spreadFactors(factors, spread, half, &kLow, &kHigh);
            /* Masked loads and stores only for the last part block: they are slow on some CPUs. */
            int whole = count - i >= 16;
            __mmask16 lanes = whole ? (__mmask16)0xFFFF : (__mmask16)((1u << (count - i)) - 1);
            __m512i p = !source ? colour : whole ? load(source + i) : _mm512_maskz_loadu_epi32(lanes, source + i);
            __m512i low = _mm512_mulhrs_epi16(_mm512_unpacklo_epi8(p, zero), kLow);
            __m512i high = _mm512_mulhrs_epi16(_mm512_unpackhi_epi8(p, zero), kHigh);
            __m512i result = _mm512_or_si512(_mm512_packus_epi16(low, high), opaque);
            if (whole) {
                _mm512_storeu_si512((void *)(out + i), result);
            } else {
                _mm512_mask_storeu_epi32(out + i, lanes, result);
            }
        }
    }
}

static const folio_page_kernels avx512 = {
    .name = "avx512", .blend = blend, .sample = sample, .darken = darken, .blend_grid = folio_avx2_blend_grid,
    .write_tile = folio_avx2_write_tile, .copy_rows = folio_avx2_copy_rows,
    .copy_rows_lit = folio_avx2_copy_rows_lit, .darken_rows = folio_avx2_darken_rows, .finish = folio_avx2_finish,
};

const folio_page_kernels *folio_page_kernels_avx512(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && folio_page_kernels_avx2()
        ? &avx512 : 0;
}

#else

const folio_page_kernels *folio_page_kernels_avx512(void) { return 0; }

#endif
