#include "page_kernels.h"
#include "scalar_kernels.h"
#include "shared_kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>

#define AVX2 __attribute__((target("avx2")))

AVX2 static inline __m256i load(const uint32_t *p) { return _mm256_loadu_si256((const __m256i *)p); }

/* Sixteen pixels from i on: copied from `source` where the weight takes one column alone, else
 * `a` and `b` blended by `weights`, the byte pairs (128 − w, w). */
AVX2 static inline void blend16(const uint32_t *a, const uint32_t *b, const uint32_t *source, __m256i weights,
                                int32_t i, uint32_t *out) {
    const __m256i round = _mm256_set1_epi16(256);
    if (source) {
        _mm256_storeu_si256((__m256i *)(out + i), load(source + i));
        _mm256_storeu_si256((__m256i *)(out + i + 8), load(source + i + 8));
        return;
    }
    a += i, b += i, out += i;
    for (int h = 0; h < 16; h += 8) {
        __m256i pa = load(a + h), pb = load(b + h);
        __m256i low = _mm256_mulhrs_epi16(_mm256_maddubs_epi16(_mm256_unpacklo_epi8(pa, pb), weights), round);
        __m256i high = _mm256_mulhrs_epi16(_mm256_maddubs_epi16(_mm256_unpackhi_epi8(pa, pb), weights), round);
        _mm256_storeu_si256((__m256i *)(out + h), _mm256_packus_epi16(low, high));
    }
}

/* Sixteen pixels a step, so that each step asks for one cache line ahead in each column without a
 * test per vector. A run of 16 or more ends with a step over its last 16 pixels, overlapping the
 * one before: the same bytes again, where a pixel at a time cost a fifth of the kernel's time. */
AVX2 static void blend(const uint32_t *a, const uint32_t *b, int32_t count, uint32_t weight, uint32_t *out,
                       const uint32_t *ahead, const uint32_t *ahead2) {
    int32_t i = 0;
    /* Weights 0 and 128 copy one column: as byte pairs (128, 0) they would overflow a signed byte. */
    const uint32_t *source = weight == 0 ? a : weight == 128 ? b : 0;
    const __m256i weights = _mm256_set1_epi16((short)((weight << 8) | (128 - weight)));
    for (; i + 16 <= count; i += 16) {
        if (ahead) _mm_prefetch((const char *)(ahead + i), _MM_HINT_T1);
        if (ahead2) _mm_prefetch((const char *)(ahead2 + i), _MM_HINT_T1);
        blend16(a, b, source, weights, i, out);
    }
    if (i < count && count >= 16) {
        blend16(a, b, source, weights, count - 16, out);
        return;
    }
    for (; i < count; i++) out[i] = folio_blend_one(a[i], b[i], weight);
}

/* What the light a shadow keeps takes from it, read once per kernel call: stores to the output
 * could otherwise alias the shadow's fields, and the compiler would read them again per block. */
typedef struct {
    const uint16_t *darkening; /* from the margin on */
    int32_t shift, mask;
    __m128i up;                /* 8 − shift: a row's offset in its cell to the weight's scale */
} ShadowRows;

AVX2 static inline ShadowRows shadowRows(const folio_page_shadow *shadow) {
    ShadowRows s;
    s.darkening = shadow->darkening + shadow->margin;
    s.shift = shadow->cell_shift;
    s.mask = (1 << s.shift) - 1;
    s.up = _mm_cvtsi32_si128(8 - s.shift);
    return s;
}

/* The light (0…FOLIO_SHADOW_FULL) the shadow keeps at rows row…row + 15, a 16-bit lane each (as
 * the AVX-512 kernels take it): cells are at least 16 rows, so the rows span at most two of them,
 * and each row picks its cell's pair of grid values out of one 64-bit load with a byte shuffle. */
AVX2 static inline __m256i kept16(const ShadowRows *s, int32_t row) {
    int32_t start = row - ((s->mask + 1) >> 1), first = start >> s->shift;
    /* Each row's offset from the start of the first row's cell: past the mask, the next cell. */
    __m256i offset = _mm256_add_epi16(_mm256_set1_epi16((short)(start & s->mask)),
                                      _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    __m256i second = _mm256_cmpgt_epi16(offset, _mm256_set1_epi16((short)s->mask));
    __m256i w = _mm256_add_epi16(_mm256_sll_epi16(_mm256_and_si256(offset, _mm256_set1_epi16((short)s->mask)), s->up),
                                 _mm256_set1_epi16((short)(128 >> s->shift)));
    int64_t values;
    memcpy(&values, s->darkening + first, sizeof values);
    __m256i grid = _mm256_set1_epi64x(values);
    /* Bytes 0, 1 (the first cell's value) or 2, 3 (the next one's) of each 64-bit lane. */
    __m256i pick = _mm256_add_epi16(_mm256_set1_epi16(0x0100), _mm256_and_si256(second, _mm256_set1_epi16(0x0202)));
    __m256i a = _mm256_shuffle_epi8(grid, pick);
    __m256i b = _mm256_shuffle_epi8(grid, _mm256_add_epi16(pick, _mm256_set1_epi16(0x0202)));
    __m256i dark = _mm256_add_epi16(a, _mm256_mulhrs_epi16(_mm256_sub_epi16(b, a), _mm256_slli_epi16(w, 7)));
    return _mm256_sub_epi16(_mm256_set1_epi16(FOLIO_SHADOW_FULL), dark);
}

/* The load at `p` moved by `bytes` (not a whole pixel): each lane takes bytes of two neighbours. */
AVX2 static inline __m256i loadShifted(const uint32_t *p, int bytes) {
    return _mm256_loadu_si256((const __m256i *)((const char *)p + bytes));
}

/* Pixel j of the window with pixel j + 1, channel by channel, as byte pairs for a multiply-add:
 * `blueRed` has (B_j, B_j+1, R_j, R_j+1) in lane j, `greenAlpha` (G_j, G_j+1, A_j, A_j+1). Whole
 * loads and masks build them, so the taps need no byte shuffles after the lane permute. */
AVX2 static inline __m256i blueRed(const uint32_t *window) {
    const __m256i even = _mm256_set1_epi32(0x00FF00FF);
    return _mm256_or_si256(_mm256_and_si256(load(window), even), _mm256_andnot_si256(even, loadShifted(window + 1, -1)));
}

AVX2 static inline __m256i greenAlpha(const uint32_t *window) {
    const __m256i even = _mm256_set1_epi32(0x00FF00FF);
    return _mm256_or_si256(_mm256_and_si256(loadShifted(window, 1), even), _mm256_andnot_si256(even, load(window + 1)));
}

/* Each lane's window index: its whole offset, plus one where adding its part of the offset carried
 * into the whole, which shows as a fraction below that part. Both are kept with their top bits
 * flipped, so a signed compare orders them as unsigned. */
AVX2 static inline __m256i laneIndex(__m256i whole, __m256i flippedPart, __m256i flippedFractions) {
    return _mm256_sub_epi32(whole, _mm256_cmpgt_epi32(flippedPart, flippedFractions));
}

/* A step's eight samples from their taps as channel pairs: each pair meets its weights, the
 * signed byte pair (127 − f, f) with f the fraction's top 7 bits, in one multiply-add, which
 * leaves the results in place in the pixel's 16-bit halves; then the light k. With its top bit
 * flipped, a fraction's top 7 bits read as a signed number are f − 64, so the weights come from
 * the flipped fractions with 64 pair steps added to the base. */
AVX2 static inline __m256i samples(__m256i br, __m256i ga, __m256i flippedFractions, __m256i kBlueRed, __m256i kGreenAlpha) {
    const __m256i pairBase = _mm256_set1_epi32((int32_t)(127 * 0x10001u + 64 * 0x00FF00FFu));
    const __m256i pairStep = _mm256_set1_epi32(0x00FF00FF);
    __m256i weights = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_srai_epi32(flippedFractions, 25), pairStep), pairBase);
    __m256i blueAndRed = _mm256_mulhrs_epi16(_mm256_maddubs_epi16(br, weights), kBlueRed);
    __m256i greenAndAlpha = _mm256_mulhrs_epi16(_mm256_maddubs_epi16(ga, weights), kGreenAlpha);
    return _mm256_or_si256(blueAndRed, _mm256_slli_epi32(greenAndAlpha, 8));
}

/* The sampler's light factors (light times the light the shadow keeps, as folio_sample_light makes
 * them) for rows row…row + 15, a 16-bit lane each; `scaled2` is twice the light's scale. */
AVX2 static inline __m256i shadowFactors16(const ShadowRows *rows, int32_t row, __m256i scaled2) {
    __m256i product = _mm256_mulhi_epu16(_mm256_slli_epi16(kept16(rows, row), 1), scaled2);
    return _mm256_srli_epi16(_mm256_add_epi16(product, _mm256_set1_epi16(32)), 6);
}

/* Eight rows' light factors as `samples` takes them: each colour factor in both halves of its
 * pixel's blue-and-red lane, and beside alpha's unlit factor in its green-and-alpha lane. */
AVX2 static inline void lightEight(__m128i factors, __m256i *kBlueRed, __m256i *kGreenAlpha) {
    __m256i kept = _mm256_cvtepu16_epi32(factors);
    *kBlueRed = _mm256_or_si256(kept, _mm256_slli_epi32(kept, 16));
    *kGreenAlpha = _mm256_or_si256(kept, _mm256_set1_epi32(FOLIO_UNLIT << 16));
}

/* A step's taps from position vb on as channel pairs: one window of the column holds them, or two
 * (a lane permute each), or past two rows a row, a gather. */
AVX2 static inline void fetchTaps(const uint32_t *column, int64_t vb, int64_t dv, __m256i index, __m256i *br, __m256i *ga) {
    const uint32_t *window = column + (vb >> 32);
    const int32_t last = (int32_t)(((vb + 7 * dv) >> 32) - (vb >> 32));
    if (last <= 7) {
        *br = _mm256_permutevar8x32_epi32(blueRed(window), index);
        *ga = _mm256_permutevar8x32_epi32(greenAlpha(window), index);
    } else if (last <= 15) {
        __m256i second = _mm256_cmpgt_epi32(index, _mm256_set1_epi32(7));
        *br = _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(blueRed(window), index),
                                 _mm256_permutevar8x32_epi32(blueRed(window + 8), index), second);
        *ga = _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(greenAlpha(window), index),
                                 _mm256_permutevar8x32_epi32(greenAlpha(window + 8), index), second);
    } else {
        const __m256i even = _mm256_set1_epi32(0x00FF00FF);
        __m256i top = _mm256_i32gather_epi32((const int *)window, index, 4);
        __m256i bottom = _mm256_i32gather_epi32((const int *)(window + 1), index, 4);
        *br = _mm256_or_si256(_mm256_and_si256(top, even), _mm256_andnot_si256(even, _mm256_slli_epi32(bottom, 8)));
        *ga = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(top, 8), even), _mm256_andnot_si256(even, bottom));
    }
}

/*
 * Eight rows per step, at exact positions. The eight source positions of a step lie in a short
 * window of the column, so a lane permute of one or two windows of channel pairs fetches them (a
 * gather only for steps past two rows, when the page shrinks a lot). Where the page shrinks a
 * little and no shadow falls, a step takes only the 6 or 7 rows one window holds: one window a
 * step, and no branch between one and two that the fractions decide.
 */
AVX2 static void sample(const uint32_t *column, int64_t v, int64_t dv, int32_t count, const folio_page_shadow *shadow,
                        int32_t row, uint16_t light, uint32_t *out) {
    int32_t laneWhole[8], lanePart[8];
    folio_lane_offsets(dv, 8, laneWhole, lanePart);
    const __m256i flip = _mm256_set1_epi32((int32_t)0x80000000u);
    const __m256i whole = _mm256_loadu_si256((const __m256i *)laneWhole);
    const __m256i part = _mm256_loadu_si256((const __m256i *)lanePart);
    const __m256i flippedPart = _mm256_xor_si256(part, flip);
    /* Colours lit, alpha kept (see folio_sample_one): the factor for blue and red, and for green
     * and alpha. Every result is at most 255 (127·255·258/2¹⁵ rounds to 255), so the halves
     * recombine with a shift and an or. */
    const int32_t k = folio_sample_light(FOLIO_SHADOW_FULL, light);
    __m256i kBlueRed = _mm256_set1_epi16((short)k);
    __m256i kGreenAlpha = _mm256_set1_epi32(k | FOLIO_UNLIT << 16);
    const __m256i scaled2 = _mm256_set1_epi16((short)(2 * folio_light_scale(light)));
    /* In shadow, the sixteen rows' factors from row i on (i a multiple of 16). */
    __m256i factors = scaled2;
    ShadowRows rows = shadow ? shadowRows(shadow) : (ShadowRows){0};
    /* The fractions of a step's positions with their top bits flipped (for unsigned compares),
     * kept from step to step by one add. */
    const __m256i advance = _mm256_set1_epi32((int32_t)(uint32_t)(8 * (uint64_t)dv));
    __m256i flippedFractions = _mm256_xor_si256(_mm256_add_epi32(_mm256_set1_epi32((int32_t)(uint32_t)v), part), flip);
    int32_t i = 0;
    /* A page shrunk by up to 7/5 without a shadow: steps of fewer rows (6 or 7) whose positions
     * all lie in one window, so no step needs two; all 8 lanes are stored, and the next step (or
     * the last step) writes over those past the step's own. */
    if (!shadow && dv > ((int64_t)1 << 32) && dv * 5 <= ((int64_t)7 << 32)) {
        const int32_t lanes = (int32_t)(((int64_t)7 << 32) / dv) + 1;
        const __m256i narrowAdvance = _mm256_set1_epi32((int32_t)(uint32_t)(lanes * (uint64_t)dv));
        for (; i + 8 <= count; i += lanes, flippedFractions = _mm256_add_epi32(flippedFractions, narrowAdvance)) {
            const uint32_t *window = column + ((v + (int64_t)i * dv) >> 32);
            __m256i index = laneIndex(whole, flippedPart, flippedFractions);
            __m256i br = _mm256_permutevar8x32_epi32(blueRed(window), index);
            __m256i ga = _mm256_permutevar8x32_epi32(greenAlpha(window), index);
            _mm256_storeu_si256((__m256i *)(out + i), samples(br, ga, flippedFractions, kBlueRed, kGreenAlpha));
        }
    }
    for (; i + 8 <= count; i += 8, flippedFractions = _mm256_add_epi32(flippedFractions, advance)) {
        __m256i br, ga;
        fetchTaps(column, v + (int64_t)i * dv, dv, laneIndex(whole, flippedPart, flippedFractions), &br, &ga);
        if (shadow) {
            if ((i & 15) == 0) factors = shadowFactors16(&rows, row + i, scaled2);
            lightEight((i & 8) ? _mm256_extracti128_si256(factors, 1) : _mm256_castsi256_si128(factors), &kBlueRed,
                       &kGreenAlpha);
        }
        _mm256_storeu_si256((__m256i *)(out + i), samples(br, ga, flippedFractions, kBlueRed, kGreenAlpha));
    }
    if (i == count) return;
    if (count < 8) {
        for (; i < count; i++) out[i] = folio_sample_lit(column, v, dv, i, shadow, row, light);
        return;
    }
    /* The last rows: one more step over the run's last eight, the rows before them given again. */
    i = count - 8;
    int64_t vb = v + (int64_t)i * dv;
    flippedFractions = _mm256_xor_si256(_mm256_add_epi32(_mm256_set1_epi32((int32_t)(uint32_t)vb), part), flip);
    __m256i br, ga;
    fetchTaps(column, vb, dv, laneIndex(whole, flippedPart, flippedFractions), &br, &ga);
    if (shadow) lightEight(_mm256_castsi256_si128(shadowFactors16(&rows, row + i, scaled2)), &kBlueRed, &kGreenAlpha);
    _mm256_storeu_si256((__m256i *)(out + i), samples(br, ga, flippedFractions, kBlueRed, kGreenAlpha));
}

/* Pixels darkened in place, as the sampler takes them: blue and red in each pixel's two 16-bit
 * halves, green and alpha (which the or with opaque covers) in those of a second vector, each
 * meeting the row's factor `k`. No result passes 255 (255·32767 rounds to 255), so the halves
 * recombine with a shift and an or. */
AVX2 static inline __m256i darkenPixels(__m256i p, __m256i k) {
    const __m256i even = _mm256_set1_epi32(0x00FF00FF), opaque = _mm256_set1_epi32((int)FOLIO_OPAQUE);
    __m256i blueRed = _mm256_mulhrs_epi16(_mm256_and_si256(p, even), k);
    __m256i greenAlpha = _mm256_mulhrs_epi16(_mm256_srli_epi16(p, 8), k);
    return _mm256_or_si256(_mm256_or_si256(blueRed, _mm256_slli_epi16(greenAlpha, 8)), opaque);
}

/* kept·2 for a group of 8 rows in one cell, with all the light as 32767: the rounding multiply's 1.
 * `base` is 2·a − 1 (−1 without shadow), so a saturating take from 32767 gives it. */
AVX2 static inline __m256i groupFactors(__m256i difference, __m256i base, __m256i weights) {
    __m256i dark = _mm256_add_epi16(base, _mm256_slli_epi16(_mm256_mulhrs_epi16(difference, weights), 1));
    return _mm256_subs_epi16(_mm256_set1_epi16(32767), dark);
}

/* darkenPixels' factors for rows row…row + 7 at any row: the light kept (kept16's first eight) as
 * folio_darken_factor makes it, in both halves of each pixel's lane. */
AVX2 static inline __m256i keptFactors8(const ShadowRows *rows, int32_t row) {
    __m256i keep = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(kept16(rows, row)));
    __m256i factor = _mm256_min_epi32(_mm256_slli_epi32(keep, 1), _mm256_set1_epi32(32767));
    return _mm256_or_si256(factor, _mm256_slli_epi32(factor, 16));
}

/*
 * Factors in groups of 8 rows aligned to the cells (at least 16 rows, so a group never straddles
 * two): a group's cell pair times its weights, one multiply a row. The rows before the first group
 * and after the last take one vector each over the run's first and last eight (a run of fewer rows
 * goes one pixel at a time), so each block of pixels in between is one group.
 */
AVX2 static void darken(const uint32_t *source, uint32_t flat, const folio_page_shadow *shadow, int32_t row,
                        int32_t count, uint32_t *out) {
    const int32_t shift = shadow->cell_shift, mask = (1 << shift) - 1;
    const int32_t start = row - ((mask + 1) >> 1), end = start + count - 7;
    const uint16_t *darkening = shadow->darkening + shadow->margin;
    const __m256i colour = _mm256_set1_epi32((int)flat);
    /* The weights of the rows (folio_kept's, times 128) of a cell's first group, in both halves of
     * each row's pixel; and their step to the next group. */
    const __m256i weights = _mm256_add_epi16(
        _mm256_sll_epi16(_mm256_setr_epi16(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7), _mm_cvtsi32_si128(15 - shift)),
        _mm256_set1_epi16((short)(1 << (14 - shift))));
    const __m256i step = _mm256_set1_epi16((short)(8 << (15 - shift)));
    int32_t i = 0, head = -start & 7;
    if (count >= 8) {
        /* The rows before the first group (and the first few of it): the run's first eight at once. */
        const ShadowRows rows = shadowRows(shadow);
        _mm256_storeu_si256((__m256i *)out, darkenPixels(source ? load(source) : colour, keptFactors8(&rows, row)));
        int32_t r = start + head;
        __m256i w = _mm256_add_epi16(weights, _mm256_set1_epi16((short)((r & mask) << (15 - shift))));
        while (r < end) {
            int32_t g = r >> shift, a = darkening[g], stop = (g + 1) << shift;
            if (stop > end) stop = end;
            __m256i difference = _mm256_set1_epi16((short)(darkening[g + 1] - a));
            __m256i base = _mm256_set1_epi16((short)(2 * a - 1));
            for (; r < stop; r += 8, w = _mm256_add_epi16(w, step)) {
                i = r - start;
                __m256i k = groupFactors(difference, base, w);
                _mm256_storeu_si256((__m256i *)(out + i), darkenPixels(source ? load(source + i) : colour, k));
            }
            w = weights;
        }
        /* The rows after the last group: the run's last eight at once. */
        i = count - 8;
        _mm256_storeu_si256((__m256i *)(out + i), darkenPixels(source ? load(source + i) : colour, keptFactors8(&rows, row + i)));
        return;
    }
    for (; i < count; i++) out[i] = folio_darken_one(source ? source[i] : flat, folio_kept(shadow, row + i));
}

AVX2 int folio_avx2_blend_grid(const uint16_t *a, const uint16_t *b, int32_t count, uint32_t weight, uint16_t *out) {
    return folio_blend_grid(a, b, count, weight, out);
}

/* One 8×8 block of a column-major tile transposed in registers: o[k] is the block's row k. Each
 * load pairs four rows of column c (low half) with the same rows of column c + 4 (high half), so
 * two rounds of in-lane unpacks finish the transpose (no lane-crossing shuffles). */
AVX2 static inline void transpose8(const uint32_t *block, int32_t tile_stride, __m256i o[8]) {
    __m256i r[8], t[8];
    for (int h = 0; h < 2; h++) {
        for (int c = 0; c < 4; c++) {
            const uint32_t *low = block + (int64_t)c * tile_stride + 4 * h, *high = low + (int64_t)4 * tile_stride;
            r[4 * h + c] = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)low)),
                                                   _mm_loadu_si128((const __m128i *)high), 1);
        }
    }
    for (int h = 0; h < 8; h += 4) {
        t[h] = _mm256_unpacklo_epi32(r[h], r[h + 1]);
        t[h + 1] = _mm256_unpackhi_epi32(r[h], r[h + 1]);
        t[h + 2] = _mm256_unpacklo_epi32(r[h + 2], r[h + 3]);
        t[h + 3] = _mm256_unpackhi_epi32(r[h + 2], r[h + 3]);
        o[h] = _mm256_unpacklo_epi64(t[h], t[h + 2]);
        o[h + 1] = _mm256_unpackhi_epi64(t[h], t[h + 2]);
        o[h + 2] = _mm256_unpacklo_epi64(t[h + 1], t[h + 3]);
        o[h + 3] = _mm256_unpackhi_epi64(t[h + 1], t[h + 3]);
    }
}

AVX2 static inline void put(uint32_t *target, __m256i v, int streams) {
    if (streams) {
        _mm256_stream_si256((__m256i *)target, v);
    } else {
        _mm256_storeu_si256((__m256i *)target, v);
    }
}

/* Four rows of eight columns of a column-major tile transposed in registers: o[k] is row k. Each
 * load pairs the four rows of column c (low half) with those of column c + 4 (high half). */
AVX2 static inline void transpose4x8(const uint32_t *block, int32_t tile_stride, __m256i o[4]) {
    __m256i r[4];
    for (int c = 0; c < 4; c++) {
        const uint32_t *low = block + (int64_t)c * tile_stride, *high = low + (int64_t)4 * tile_stride;
        r[c] = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)low)),
                                       _mm_loadu_si128((const __m128i *)high), 1);
    }
    __m256i t0 = _mm256_unpacklo_epi32(r[0], r[1]), t1 = _mm256_unpackhi_epi32(r[0], r[1]);
    __m256i t2 = _mm256_unpacklo_epi32(r[2], r[3]), t3 = _mm256_unpackhi_epi32(r[2], r[3]);
    o[0] = _mm256_unpacklo_epi64(t0, t2);
    o[1] = _mm256_unpackhi_epi64(t0, t2);
    o[2] = _mm256_unpacklo_epi64(t1, t3);
    o[3] = _mm256_unpackhi_epi64(t1, t3);
}

/* Rows y…y + 7: 32 columns four rows at a time, so that each row's two cache lines of the frame go
 * out one after the other (non-temporal stores drain faster that way than as one line of each of
 * eight rows followed by their second lines); then two blocks at a time (a whole line a row), a
 * lone block, single columns. */
AVX2 static inline void write_band(const uint32_t *band, int32_t tile_stride, int32_t columns, uint32_t *out,
                                   int32_t out_stride, int streams) {
    int32_t c0 = 0;
    for (; c0 + 32 <= columns; c0 += 32) {
        for (int h = 0; h < 8; h += 4) {
            __m256i o[4][4];
            for (int g = 0; g < 4; g++) transpose4x8(band + h + (int64_t)(c0 + 8 * g) * tile_stride, tile_stride, o[g]);
            for (int k = 0; k < 4; k++) {
                uint32_t *target = out + (int64_t)(h + k) * out_stride + c0;
                for (int g = 0; g < 4; g++) put(target + 8 * g, o[g][k], streams);
            }
        }
    }
    for (; c0 + 16 <= columns; c0 += 16) {
        __m256i a[8], b[8];
        transpose8(band + (int64_t)c0 * tile_stride, tile_stride, a);
        transpose8(band + (int64_t)(c0 + 8) * tile_stride, tile_stride, b);
        for (int k = 0; k < 8; k++) {
            uint32_t *target = out + (int64_t)k * out_stride + c0;
            put(target, a[k], streams);
            put(target + 8, b[k], streams);
        }
    }
    if (c0 + 8 <= columns) {
        __m256i a[8];
        transpose8(band + (int64_t)c0 * tile_stride, tile_stride, a);
        for (int k = 0; k < 8; k++) put(out + (int64_t)k * out_stride + c0, a[k], streams);
        c0 += 8;
    }
    for (; c0 < columns; c0++) {
        for (int k = 0; k < 8; k++) out[(int64_t)k * out_stride + c0] = band[(int64_t)c0 * tile_stride + k];
    }
}

/*
 * 8×8 blocks transposed in registers, written straight to the frame, with non-temporal stores
 * when its rows are 32-byte aligned: the frame is written, never read, so its cache lines need
 * not be fetched first (and the stores drain while later columns compute, until `finish` fences
 * them).
 */
AVX2 void folio_avx2_write_tile(const uint32_t *tile, int32_t tile_stride, int32_t columns, int32_t rows, uint32_t *out,
                                int32_t out_stride) {
    int32_t whole_rows = rows & ~7;
    int streams = ((uintptr_t)out & 31) == 0 && (out_stride & 7) == 0;
    for (int32_t y = 0; y < whole_rows; y += 8) {
        if (streams) {
            write_band(tile + y, tile_stride, columns, out + (int64_t)y * out_stride, out_stride, 1);
        } else {
            write_band(tile + y, tile_stride, columns, out + (int64_t)y * out_stride, out_stride, 0);
        }
    }
    for (int32_t r = whole_rows; r < rows; r++) {
        for (int32_t c = 0; c < columns; c++) out[(int64_t)r * out_stride + c] = tile[(int64_t)c * tile_stride + r];
    }
}

/* Whole rows of 32-byte pieces, non-temporal when the frame's rows are 32-byte aligned (written,
 * never read: no line need be fetched first). Each row asks for the one two rows on into L2: a
 * row is a short stream, which the hardware prefetchers pick up late. */
AVX2 void folio_avx2_copy_rows(const uint32_t *source, int32_t source_stride, int32_t columns, int32_t rows, uint32_t *out,
                               int32_t out_stride) {
    int streams = ((uintptr_t)out & 31) == 0 && (out_stride & 7) == 0;
    for (int32_t y = 0; y < rows; y++) {
        const uint32_t *from = source + (int64_t)y * source_stride;
        uint32_t *to = out + (int64_t)y * out_stride;
        int32_t c = 0;
        if (streams) {
            for (; c + 8 <= columns; c += 8) {
                if ((c & 15) == 0) _mm_prefetch((const char *)(from + 2 * (int64_t)source_stride + c), _MM_HINT_T1);
                _mm256_stream_si256((__m256i *)(to + c), load(from + c));
            }
        }
        if (c < columns) memcpy(to + c, from + c, (size_t)(columns - c) * sizeof(uint32_t));
    }
}

/* Per 256 columns, their factors are laid out once in byte-unpack order (colour k, alpha unlit;
 * a low half holds pixels 0, 1 and 4, 5 of eight, a high half 2, 3 and 6, 7), then every row of
 * them is lit as the sampler lights a tap of weight 127: (127·c·k + 2¹⁴) >> 15. */
AVX2 void folio_avx2_copy_rows_lit(const uint32_t *source, int32_t source_stride, int32_t columns, int32_t rows,
                                   const uint16_t *lights, uint32_t *out, int32_t out_stride) {
    enum { chunk = 256 };
    __m256i factors[chunk / 4];
    const __m256i zero = _mm256_setzero_si256(), weight = _mm256_set1_epi16(127);
    const short u = FOLIO_UNLIT;
    int streams = ((uintptr_t)out & 31) == 0 && (out_stride & 7) == 0;
    for (int32_t c0 = 0; c0 < columns; c0 += chunk) {
        int32_t n = columns - c0 < chunk ? columns - c0 : chunk, whole = n & ~7;
        for (int32_t c = 0; c < whole; c += 8) {
            short k[8];
            for (int i = 0; i < 8; i++) k[i] = (short)folio_sample_light(FOLIO_SHADOW_FULL, lights[c0 + c + i]);
            factors[c / 4] = _mm256_setr_epi16(k[0], k[0], k[0], u, k[1], k[1], k[1], u, k[4], k[4], k[4], u, k[5], k[5], k[5], u);
            factors[c / 4 + 1] = _mm256_setr_epi16(k[2], k[2], k[2], u, k[3], k[3], k[3], u, k[6], k[6], k[6], u, k[7], k[7], k[7], u);
        }
        for (int32_t y = 0; y < rows; y++) {
            const uint32_t *from = source + (int64_t)y * source_stride + c0;
            uint32_t *to = out + (int64_t)y * out_stride + c0;
            int32_t c = 0;
            for (; c < whole; c += 8) {
                __m256i p = load(from + c);
                __m256i low = _mm256_mulhrs_epi16(_mm256_mullo_epi16(_mm256_unpacklo_epi8(p, zero), weight), factors[c / 4]);
                __m256i high = _mm256_mulhrs_epi16(_mm256_mullo_epi16(_mm256_unpackhi_epi8(p, zero), weight), factors[c / 4 + 1]);
                put(to + c, _mm256_packus_epi16(low, high), streams);
            }
            for (; c < n; c++) to[c] = folio_lit_one(from[c], folio_sample_light(FOLIO_SHADOW_FULL, lights[c0 + c]));
        }
    }
}

/*
 * Row by row, eight columns a vector. Each cell's rows share their grid pair, so the pairs (as
 * darken's groups take them, in both halves of each pixel's lane) are laid out once per cell for
 * 32 columns at a time; a row then costs one multiply a vector for its factors.
 */
AVX2 void folio_avx2_darken_rows(const uint32_t *source, int32_t source_stride, int32_t columns, int32_t rows,
                                 const uint16_t *grid, int32_t grid_stride, int32_t cell_shift, int32_t margin, int32_t row,
                                 uint32_t *out, int32_t out_stride) {
    enum { chunk = 32 };
    const int32_t mask = (1 << cell_shift) - 1;
    const int streams = ((uintptr_t)out & 31) == 0 && (out_stride & 7) == 0;
    for (int32_t c0 = 0; c0 < columns; c0 += chunk) {
        const int32_t n = columns - c0 < chunk ? columns - c0 : chunk, whole = n & ~7;
        __m256i base[chunk / 8], difference[chunk / 8];
        int32_t cell = -1;
        for (int32_t y = 0; y < rows; y++) {
            const int32_t r = row + y - ((mask + 1) >> 1), g = (r >> cell_shift) + margin;
            if (g != cell) {
                cell = g;
                for (int32_t c = 0; c < whole; c += 8) {
                    int32_t b[8], d[8];
                    for (int i = 0; i < 8; i++) {
                        const uint16_t *column = grid + (int64_t)(c0 + c + i) * grid_stride;
                        b[i] = (2 * column[g] - 1) & 0xFFFF;
                        d[i] = (column[g + 1] - column[g]) & 0xFFFF;
                    }
                    base[c / 8] = _mm256_mullo_epi32(_mm256_loadu_si256((const __m256i *)b), _mm256_set1_epi32(0x10001));
                    difference[c / 8] = _mm256_mullo_epi32(_mm256_loadu_si256((const __m256i *)d), _mm256_set1_epi32(0x10001));
                }
            }
            const __m256i weight = _mm256_set1_epi16((short)((((r & mask) << (8 - cell_shift)) + (128 >> cell_shift)) * 128));
            const uint32_t *from = source + (int64_t)y * source_stride + c0;
            uint32_t *to = out + (int64_t)y * out_stride + c0;
            for (int32_t c = 0; c < whole; c += 8) {
                __m256i k = groupFactors(difference[c / 8], base[c / 8], weight);
                put(to + c, darkenPixels(load(from + c), k), streams);
            }
            for (int32_t c = whole; c < n; c++) {
                folio_page_shadow shadow = {grid + (int64_t)(c0 + c) * grid_stride, cell_shift, margin};
                to[c] = folio_darken_one(from[c], folio_kept(&shadow, row + y));
            }
        }
    }
}

void folio_avx2_finish(void) { _mm_sfence(); }

static const folio_page_kernels avx2 = {
    .name = "avx2", .blend = blend, .sample = sample, .darken = darken, .blend_grid = folio_avx2_blend_grid,
    .write_tile = folio_avx2_write_tile, .copy_rows = folio_avx2_copy_rows,
    .copy_rows_lit = folio_avx2_copy_rows_lit, .darken_rows = folio_avx2_darken_rows, .finish = folio_avx2_finish,
};

const folio_page_kernels *folio_page_kernels_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? &avx2 : 0;
}

#else

const folio_page_kernels *folio_page_kernels_avx2(void) { return 0; }

#endif
