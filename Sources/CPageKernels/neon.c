#include "page_kernels.h"
#include "scalar_kernels.h"

#if defined(__aarch64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#include <arm_neon.h>
#include <limits.h>
#include <string.h>
#include <sys/auxv.h>

#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1ul << 1)
#endif

/* (keep·a + take·b + 64) >> 7 over sixteen bytes: widening multiply-adds, a rounding narrow. */
static inline uint8x16_t blendBytes(uint8x16_t a, uint8x16_t b, uint8x16_t keep, uint8x16_t take) {
    uint16x8_t low = vmlal_u8(vmull_u8(vget_low_u8(a), vget_low_u8(keep)), vget_low_u8(b), vget_low_u8(take));
    uint16x8_t high = vmlal_high_u8(vmull_high_u8(a, keep), b, take);
    return vrshrn_high_n_u16(vrshrn_n_u16(low, 7), high, 7);
}

static inline void blend16(const uint32_t *a, const uint32_t *b, uint8x16_t keep, uint8x16_t take, uint32_t *out) {
    uint8x16x4_t pa = vld1q_u8_x4((const uint8_t *)a), pb = vld1q_u8_x4((const uint8_t *)b), o;
    for (int h = 0; h < 4; h++) o.val[h] = blendBytes(pa.val[h], pb.val[h], keep, take);
    vst1q_u8_x4((uint8_t *)out, o);
}

/* __builtin_prefetch(base + offset bytes) in one instruction: written out, as the compiler would
 * rather step a pointer of its own for the sum. */
static inline void prefetchAt(const uint32_t *base, uintptr_t offset) {
    __asm__ volatile("prfm pldl1keep, [%0, %1]" : : "r"(base), "r"(offset));
}

/* One step of sixteen pixels (a cache line of each column), with `hints` (1 or 2) lines asked for at
 * `offset` and `offset2` bytes from a's, the three pointers stepped past it. */
__attribute__((always_inline)) static inline void blendLine(const uint32_t **a, const uint32_t **b, uint32_t **out,
                                                            uint8x16_t keep, uint8x16_t take, uintptr_t offset,
                                                            uintptr_t offset2, int hints) {
    prefetchAt(*a, offset);
    if (hints == 2) prefetchAt(*a, offset2);
    blend16(*a, *b, keep, take, *out);
    *a += 16, *b += 16, *out += 16;
    /* Hidden from the optimiser, so that the next step's loads and store step the same three pointers
     * instead of copies of them. */
    __asm__("" : "+r"(*a), "+r"(*b), "+r"(*out));
}

/* Every whole step of sixteen pixels, four a loop: the output pointer is the loop's count, so that
 * the loop steps three pointers and nothing else. */
__attribute__((always_inline)) static inline void blendSteps(const uint32_t *a, const uint32_t *b, int32_t count,
                                                             uint8x16_t keep, uint8x16_t take, uint32_t *out,
                                                             uintptr_t offset, uintptr_t offset2, int hints) {
    uint32_t *const end = out + (count & ~63), *const end16 = out + (count & ~15);
    while (out < end) {
        blendLine(&a, &b, &out, keep, take, offset, offset2, hints);
        blendLine(&a, &b, &out, keep, take, offset, offset2, hints);
        blendLine(&a, &b, &out, keep, take, offset, offset2, hints);
        blendLine(&a, &b, &out, keep, take, offset, offset2, hints);
    }
    while (out < end16) blendLine(&a, &b, &out, keep, take, offset, offset2, hints);
}

/* Sixteen pixels a step; a run of 16 or more ends with a step over its last 16, the pixels before
 * them given again. */
static void blend(const uint32_t *a, const uint32_t *b, int32_t count, uint32_t weight, uint32_t *out,
                  const uint32_t *ahead, const uint32_t *ahead2) {
    const uint8x16_t keep = vdupq_n_u8((uint8_t)(128 - weight)), take = vdupq_n_u8((uint8_t)weight);
    /* Without a column ahead, the hint is for the line being read anyway: no test per step. */
    const uintptr_t offset = ahead ? (uintptr_t)ahead - (uintptr_t)a : 0;
    if (ahead2) {
        blendSteps(a, b, count, keep, take, out, offset, (uintptr_t)ahead2 - (uintptr_t)a, 2);
    } else {
        blendSteps(a, b, count, keep, take, out, offset, 0, 1);
    }
    int32_t i = count & ~15;
    if (i < count && count >= 16) {
        blend16(a + count - 16, b + count - 16, keep, take, out + count - 16);
        return;
    }
    for (; i + 4 <= count; i += 4) {
        uint8x16_t pa = vld1q_u8((const uint8_t *)(a + i)), pb = vld1q_u8((const uint8_t *)(b + i));
        vst1q_u8((uint8_t *)(out + i), blendBytes(pa, pb, keep, take));
    }
    for (; i < count; i++) out[i] = folio_blend_one(a[i], b[i], weight);
}

/* Lane numbers, for eight rows' offsets. */
static const int16_t rowLanes[8] = {0, 1, 2, 3, 4, 5, 6, 7};

/* What a shadow's rows need, read once per call (stores to the output could alias the fields). */
typedef struct {
    const uint16_t *darkening; /* from the margin on */
    int32_t shift, mask;
    int16x8_t up;              /* 15 − shift: a row's offset in its cell to its weight times 128 */
    int16x8_t base;            /* the weight of a cell's first row, times 128 */
    int16x8_t steps;           /* lane l's weight past lane 0's in one cell, times 128 */
    int16x8_t eight;           /* eight rows' weight in one cell, times 128 */
} ShadowRows;

static inline ShadowRows shadowRows(const folio_page_shadow *shadow) {
    ShadowRows s;
    s.darkening = shadow->darkening + shadow->margin;
    s.shift = shadow->cell_shift;
    s.mask = (1 << s.shift) - 1;
    s.up = vdupq_n_s16((int16_t)(15 - s.shift));
    s.base = vdupq_n_s16((int16_t)(1 << (14 - s.shift)));
    s.steps = vshlq_s16(vld1q_s16(rowLanes), s.up);
    s.eight = vdupq_n_s16((int16_t)(8 << (15 - s.shift)));
    return s;
}

/* The light (0…FOLIO_SHADOW_FULL) kept at rows row…row + 7, as folio_kept gives it: cells are at
 * least 16 rows, so the rows span at most two, and each picks its pair of grid values. The rounding
 * doubling multiply is folio_mulhrs (the weight times 128 stays under 2¹⁵). */
static inline int16x8_t kept8(const ShadowRows *s, int32_t row) {
    const int32_t start = row - ((s->mask + 1) >> 1), g = start >> s->shift;
    if ((start & s->mask) + 7 <= s->mask) {
        /* All eight rows in one cell (most steps): one grid pair, the weights a row's step apart. */
        const int32_t first = s->darkening[g], difference = s->darkening[g + 1] - first;
        const int16_t w = (int16_t)(((start & s->mask) << (15 - s->shift)) + (1 << (14 - s->shift)));
        const int16x8_t dark = vqrdmulhq_s16(vdupq_n_s16((int16_t)difference), vaddq_s16(vdupq_n_s16(w), s->steps));
        return vsubq_s16(vdupq_n_s16((int16_t)(FOLIO_SHADOW_FULL - first)), dark);
    }
    const int16x8_t offset = vaddq_s16(vdupq_n_s16((int16_t)(start & s->mask)), vld1q_s16(rowLanes));
    const int16x8_t mask = vdupq_n_s16((int16_t)s->mask);
    const uint16x8_t second = vcgtq_s16(offset, mask);
    const int16x8_t w = vaddq_s16(vshlq_s16(vandq_s16(offset, mask), s->up), s->base);
    const int16x8_t g0 = vdupq_n_s16((int16_t)s->darkening[g]), g1 = vdupq_n_s16((int16_t)s->darkening[g + 1]);
    const int16x8_t g2 = vdupq_n_s16((int16_t)s->darkening[g + 2]);
    const int16x8_t a = vbslq_s16(second, g1, g0), b = vbslq_s16(second, g2, g1);
    const int16x8_t dark = vaddq_s16(a, vqrdmulhq_s16(vsubq_s16(b, a), w));
    return vsubq_s16(vdupq_n_s16(FOLIO_SHADOW_FULL), dark);
}

/* The same for rows row…row + 15, in two vectors: one grid pair for all when they lie in one cell. */
__attribute__((always_inline)) static inline int16x8x2_t kept16(const ShadowRows *s, int32_t row) {
    const int32_t start = row - ((s->mask + 1) >> 1), g = start >> s->shift;
    if ((start & s->mask) + 15 <= s->mask) {
        const int32_t first = s->darkening[g], difference = s->darkening[g + 1] - first;
        const int16_t w = (int16_t)(((start & s->mask) << (15 - s->shift)) + (1 << (14 - s->shift)));
        const int16x8_t d = vdupq_n_s16((int16_t)difference), full = vdupq_n_s16((int16_t)(FOLIO_SHADOW_FULL - first));
        const int16x8_t w0 = vaddq_s16(vdupq_n_s16(w), s->steps), w1 = vaddq_s16(w0, s->eight);
        return (int16x8x2_t){{vsubq_s16(full, vqrdmulhq_s16(d, w0)), vsubq_s16(full, vqrdmulhq_s16(d, w1))}};
    }
    return (int16x8x2_t){{kept8(s, row), kept8(s, row + 8)}};
}

/* The darkening factor folio_darken_factor makes of the light kept (0…FOLIO_SHADOW_FULL): twice it,
 * saturating, so that all of it is 32767. */
static inline int16x8_t darkenFactors(int16x8_t kept) { return vqaddq_s16(kept, kept); }

/* Eight pixels as channel planes, darkened by one factor each (colours; alpha made opaque). */
static inline uint8x8x4_t darkenPlanes(uint8x8x4_t p, int16x8_t k) {
    for (int c = 0; c < 3; c++) {
        int16x8_t v = vreinterpretq_s16_u16(vmovl_u8(p.val[c]));
        p.val[c] = vmovn_u16(vreinterpretq_u16_s16(vqrdmulhq_s16(v, k)));
    }
    p.val[3] = vdup_n_u8(0xFF);
    return p;
}

/* The same for sixteen pixels, each plane's rows 0–7 by `low`, 8–15 by `high`. */
static inline uint8x16x4_t darkenPlanes16(uint8x16x4_t p, int16x8_t low, int16x8_t high) {
    for (int c = 0; c < 3; c++) {
        int16x8_t l = vqrdmulhq_s16(vreinterpretq_s16_u16(vmovl_u8(vget_low_u8(p.val[c]))), low);
        int16x8_t h = vqrdmulhq_s16(vreinterpretq_s16_u16(vmovl_high_u8(p.val[c])), high);
        p.val[c] = vuzp1q_u8(vreinterpretq_u8_s16(l), vreinterpretq_u8_s16(h));
    }
    p.val[3] = vdupq_n_u8(0xFF);
    return p;
}

/* The sampler's light factors (folio_sample_light of the light kept) for eight rows: the doubling
 * high multiply gives kept·scale >> 15 (both at most 2¹⁴ + 128, no saturation), and rounding off five
 * bits more adds the 2¹⁹ of folio_sample_light. */
static inline uint16x8_t sampleFactors(int16x8_t kept, int16x4_t scale) {
    return vrshrq_n_u16(vreinterpretq_u16_s16(vqdmulhq_lane_s16(kept, scale, 0)), 5);
}

/* Eight rows' factors laid out as the byte products take them: (k, k, k, unlit) per pixel, two
 * pixels a vector, picked by one table lookup each from the factors and the unlit constant. */
static inline void spreadFactors(uint16x8_t k, int16x8_t out[4]) {
    static const uint8_t pick[4][16] = {
        {0, 1, 0, 1, 0, 1, 16, 17, 2, 3, 2, 3, 2, 3, 16, 17},
        {4, 5, 4, 5, 4, 5, 16, 17, 6, 7, 6, 7, 6, 7, 16, 17},
        {8, 9, 8, 9, 8, 9, 16, 17, 10, 11, 10, 11, 10, 11, 16, 17},
        {12, 13, 12, 13, 12, 13, 16, 17, 14, 15, 14, 15, 14, 15, 16, 17},
    };
    uint8x16x2_t table = {{vreinterpretq_u8_u16(k), vreinterpretq_u8_u16(vdupq_n_u16(FOLIO_UNLIT))}};
    for (int q = 0; q < 4; q++) out[q] = vreinterpretq_s16_u8(vqtbl2q_u8(table, vld1q_u8(pick[q])));
}

/* Four samples from their taps (top and bottom pixels) and position fractions: the byte weights
 * 127 − f and f (f the fraction's top 7 bits) in widening multiply-adds, then the light. No result
 * passes 255 (127·255·258/2¹⁵ rounds to 255) or goes below 0, so the low bytes are the samples. */
static inline uint8x16_t sample4(uint8x16_t top, uint8x16_t bottom, uint32x4_t fractions, int16x8_t kLow,
                                 int16x8_t kHigh) {
    uint8x16_t f = vreinterpretq_u8_u32(vmulq_n_u32(vshrq_n_u32(fractions, 25), 0x01010101u));
    uint8x16_t g = vsubq_u8(vdupq_n_u8(127), f);
    uint16x8_t low = vmlal_u8(vmull_u8(vget_low_u8(top), vget_low_u8(g)), vget_low_u8(bottom), vget_low_u8(f));
    uint16x8_t high = vmlal_high_u8(vmull_high_u8(top, g), bottom, f);
    int16x8_t litLow = vqrdmulhq_s16(vreinterpretq_s16_u16(low), kLow);
    int16x8_t litHigh = vqrdmulhq_s16(vreinterpretq_s16_u16(high), kHigh);
    return vuzp1q_u8(vreinterpretq_u8_s16(litLow), vreinterpretq_u8_s16(litHigh));
}

/* Lane offsets of the sampler's eight lanes (two vectors of four): each lane's part of l·dv's
 * fraction, and its top tap's bytes in a window of 16 pixels, without and with the carry from its
 * fraction (shown as a fraction below lane 0's, which its part was added to). */
typedef struct {
    uint32x4_t part[2];
    uint8x16_t bytes[2], carried[2];
} Lanes;

/* A step's eight samples at positions vb + l·dv, dv at most 2 rows: every top tap within 15 pixels
 * of the first, in one window, every bottom tap in the window a pixel on; table lookups pick them. */
static inline void sampleWindow(const uint32_t *column, int64_t vb, const Lanes *lanes, const uint32x4_t fractions[2],
                                const int16x8_t k[4], uint32_t *out) {
    const uint8_t *at = (const uint8_t *)(column + (vb >> 32));
    const uint8x16x4_t window = vld1q_u8_x4(at), next = vld1q_u8_x4(at + 4);
    uint8x16x2_t result;
    const uint32x4_t first = vdupq_laneq_u32(fractions[0], 0);
    for (int h = 0; h < 2; h++) {
        uint8x16_t carry = vreinterpretq_u8_u32(vcltq_u32(fractions[h], first));
        uint8x16_t bytes = vbslq_u8(carry, lanes->carried[h], lanes->bytes[h]);
        result.val[h] = sample4(vqtbl4q_u8(window, bytes), vqtbl4q_u8(next, bytes), fractions[h], k[2 * h], k[2 * h + 1]);
    }
    vst1q_u8_x2((uint8_t *)out, result);
}

/* The same for any dv: each pair of taps read alone. */
static inline void sampleTaps(const uint32_t *column, int64_t vb, int64_t dv, const uint32x4_t fractions[2],
                              const int16x8_t k[4], uint32_t *out) {
    uint32_t top[8], bottom[8];
    for (int l = 0; l < 8; l++) {
        const uint32_t *taps = column + ((vb + l * dv) >> 32);
        top[l] = taps[0];
        bottom[l] = taps[1];
    }
    for (int h = 0; h < 2; h++) {
        uint8x16_t t = vld1q_u8((const uint8_t *)(top + 4 * h)), b = vld1q_u8((const uint8_t *)(bottom + 4 * h));
        vst1q_u8((uint8_t *)(out + 4 * h), sample4(t, b, fractions[h], k[2 * h], k[2 * h + 1]));
    }
}

static inline void stepFractions(uint32x4_t fractions[2], const Lanes *lanes, int64_t vb) {
    for (int h = 0; h < 2; h++) fractions[h] = vaddq_u32(vdupq_n_u32((uint32_t)vb), lanes->part[h]);
}

/* One step: the shadow's factors for its rows first, where a shadow falls. */
static inline void sampleStep(const uint32_t *column, int64_t vb, int64_t dv, int windowed, const Lanes *lanes,
                              const uint32x4_t fractions[2], const ShadowRows *rows, int32_t row, int16x4_t scale,
                              int16x8_t k[4], uint32_t *out) {
    if (rows) spreadFactors(sampleFactors(kept8(rows, row), scale), k);
    if (windowed) {
        sampleWindow(column, vb, lanes, fractions, k, out);
    } else {
        sampleTaps(column, vb, dv, fractions, k, out);
    }
}

/* Every step of a run but its last eight rows' (which `sample` takes), with `windowed` and `rows`
 * fixed for the loop, so that each of their cases is a loop of its own. */
__attribute__((always_inline)) static inline int32_t sampleSteps(const uint32_t *column, int64_t v, int64_t dv,
                                                                 int32_t count, int windowed, const Lanes *lanes,
                                                                 const ShadowRows *rows, int32_t row, int16x4_t scale,
                                                                 int16x8_t k[4], uint32_t *out) {
    uint32x4_t fractions[2];
    stepFractions(fractions, lanes, v);
    const uint32x4_t advance = vdupq_n_u32((uint32_t)(8 * (uint64_t)dv));
    int32_t i = 0;
    int64_t vb = v;
    for (; i + 8 <= count; i += 8, vb += 8 * dv) {
        sampleStep(column, vb, dv, windowed, lanes, fractions, rows, row + i, scale, k, out + i);
        for (int h = 0; h < 2; h++) fractions[h] = vaddq_u32(fractions[h], advance);
    }
    return i;
}

/* The sixteen-lane sampler's lane offsets: each lane's part of l·dv's fraction, and its top tap's
 * index in a window of 32 pixels without the carry from its fraction, and one on (its bottom tap);
 * the weights' 127 in every byte; and, for the window's pixels 0–15 and 16–31, 0xFF where no lane's
 * tap can fall, even with the carry: the opaque steps ask only the pixels they may use to be opaque,
 * not the window's end, which may lie past the column's rows. */
typedef struct {
    uint32x4_t part[4];
    uint8x16_t index, next, weight, untapped[2];
} Lanes16;

/* The window's pixels 0–31 past `farthest`, as 0xFF. */
static inline void untappedPast(int farthest, uint8x16_t untapped[2]) {
    static const uint8_t pixels[32] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                       16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
    for (int h = 0; h < 2; h++) untapped[h] = vcgtq_u8(vld1q_u8(pixels + 16 * h), vdupq_n_u8((uint8_t)farthest));
}

/* folio_lane_offsets for sixteen lanes, in vectors: l·dv in 64-bit lanes, two a vector, split into
 * their low and high halves. */
static inline Lanes16 lanes16(int64_t dv) {
    const uint64x2_t two = vdupq_n_u64(2 * (uint64_t)dv);
    uint64x2_t offsets[8];
    offsets[0] = vcombine_u64(vdup_n_u64(0), vdup_n_u64((uint64_t)dv));
    for (int q = 1; q < 8; q++) offsets[q] = vaddq_u64(offsets[q - 1], two);
    uint32x4_t whole[4];
    Lanes16 lanes;
    for (int q = 0; q < 4; q++) {
        const uint32x4_t a = vreinterpretq_u32_u64(offsets[2 * q]), b = vreinterpretq_u32_u64(offsets[2 * q + 1]);
        lanes.part[q] = vuzp1q_u32(a, b);
        whole[q] = vuzp2q_u32(a, b);
    }
    const uint16x8_t whole01 = vuzp1q_u16(vreinterpretq_u16_u32(whole[0]), vreinterpretq_u16_u32(whole[1]));
    const uint16x8_t whole23 = vuzp1q_u16(vreinterpretq_u16_u32(whole[2]), vreinterpretq_u16_u32(whole[3]));
    lanes.index = vuzp1q_u8(vreinterpretq_u8_u16(whole01), vreinterpretq_u8_u16(whole23));
    lanes.next = vaddq_u8(lanes.index, vdupq_n_u8(1));
    lanes.weight = vdupq_n_u8(127);
    /* The last lane's bottom tap, carried, is the farthest (dv ≥ 0). */
    untappedPast(vgetq_lane_u8(lanes.index, 15) + 2, lanes.untapped);
    return lanes;
}

/* One channel plane of sixteen samples: the taps picked from the window's plane (32 pixels, two
 * registers), weighed in widening multiply-adds, lit (no result passes 255: the low bytes). */
static inline uint8x16_t samplePlane(uint8x16x2_t plane, uint8x16_t top, uint8x16_t bottom, uint8x16_t g, uint8x16_t f,
                                     int16x8_t kLow, int16x8_t kHigh) {
    uint8x16_t t = vqtbl2q_u8(plane, top), b = vqtbl2q_u8(plane, bottom);
    uint16x8_t low = vmlal_u8(vmull_u8(vget_low_u8(t), vget_low_u8(g)), vget_low_u8(b), vget_low_u8(f));
    uint16x8_t high = vmlal_high_u8(vmull_high_u8(t, g), b, f);
    int16x8_t litLow = vqrdmulhq_s16(vreinterpretq_s16_u16(low), kLow);
    int16x8_t litHigh = vqrdmulhq_s16(vreinterpretq_s16_u16(high), kHigh);
    return vuzp1q_u8(vreinterpretq_u8_s16(litLow), vreinterpretq_u8_s16(litHigh));
}

/* The first part of a sixteen-sample step: each lane's fraction plus vb's, halved so that the
 * carry stays: the top byte is the carry (one row on) over the position's 7-bit weight. */
static inline uint8x16_t stepTops(int64_t vb, const Lanes16 *lanes) {
    const uint32x4_t first = vdupq_n_u32((uint32_t)vb);
    uint32x4_t sums[4];
    for (int q = 0; q < 4; q++) sums[q] = vhaddq_u32(first, lanes->part[q]);
    uint16x8_t high01 = vuzp2q_u16(vreinterpretq_u16_u32(sums[0]), vreinterpretq_u16_u32(sums[1]));
    uint16x8_t high23 = vuzp2q_u16(vreinterpretq_u16_u32(sums[2]), vreinterpretq_u16_u32(sums[3]));
    return vuzp2q_u8(vreinterpretq_u8_u16(high01), vreinterpretq_u8_u16(high23));
}

/*
 * Sixteen samples at positions vb + l·dv, dv at most 2 rows, as channel planes: a window of 32
 * pixels loaded as planes holds every tap (the top taps are at most 30 rows on), and each lane's
 * index, weight and light is one byte or 16-bit lane of a vector, with no spreading across a
 * pixel's bytes. `k` holds the colours' light for lanes 0–7 and 8–15; the alpha plane is weighed
 * as a colour with the unlit factor.
 */
static inline void sample16(const uint32_t *column, int64_t vb, const Lanes16 *lanes, const int16x8_t k[2],
                            uint32_t *out) {
    const uint8_t *at = (const uint8_t *)(column + (vb >> 32));
    const uint8x16x4_t low = vld4q_u8(at), high = vld4q_u8(at + 64);
    const uint8x16_t tops = stepTops(vb, lanes);
    const uint8x16_t weight = vdupq_n_u8(127);
    const uint8x16_t f = vandq_u8(tops, weight), g = vbicq_u8(weight, tops);
    /* The carry (the top bit) added to each lane's indices. */
    const uint8x16_t top = vsraq_n_u8(lanes->index, tops, 7), bottom = vsraq_n_u8(lanes->next, tops, 7);
    const int16x8_t unlit = vdupq_n_s16(FOLIO_UNLIT);
    uint8x16x4_t result;
    for (int c = 0; c < 4; c++) {
        uint8x16x2_t plane = {{low.val[c], high.val[c]}};
        result.val[c] = samplePlane(plane, top, bottom, g, f, c < 3 ? k[0] : unlit, c < 3 ? k[1] : unlit);
    }
    vst4q_u8((uint8_t *)out, result);
}

/* Each lane's fraction part, halved with the low bit of the fractions it is added to (whose parity
 * is vb's: a step of sixteen rows moves a fraction by an even amount), so that vb's fraction halved
 * plus it is the halved sum of stepTops without its low bit: an add returning high halves gives the
 * sums' top 16 bits. */
typedef struct {
    uint32x4_t part[4];
} Halves;

static inline Halves halves16(const Lanes16 *lanes, int64_t vb) {
    const uint32x4_t bit = vdupq_n_u32((uint32_t)vb & 1);
    Halves h;
    for (int q = 0; q < 4; q++) h.part[q] = vhaddq_u32(lanes->part[q], bit);
    return h;
}

/*
 * The same made opaque, the alpha of the window's pixels a tap may fall on ANDed into `alphas` for
 * the caller to check (the rest of the window may lie past the rows given, where the pixels are not
 * the page's): the common case, written out so that the table lookups' register pairs cost one move
 * each. The window's planes go to v16–v19 (pixels 0–15) and v20–v23 (16–31); each colour's pair is
 * made by moving its upper plane next to its lower one, red first, over planes already used.
 */
static inline void sample16Opaque(const uint32_t *column, int64_t vb, const Halves *halves, const Lanes16 *lanes,
                                  const uint8x16_t untapped[2], int16x8_t kLow, int16x8_t kHigh, uint8x16_t *alphas,
                                  uint32_t **out) {
    const uint8_t *at = (const uint8_t *)(column + (vb >> 32));
    uint32_t *to = *out;
    register uint8x16_t opaque __asm__("v31") = vdupq_n_u8(0xFF);
    uint8x16_t acc = *alphas;
    __asm__("ld4 {v16.16b-v19.16b}, [%[at]], #64\n\t"
            "ld4 {v20.16b-v23.16b}, [%[at]]\n\t"
            /* Tops (v24), then the weights f (v25) and 127 − f (v26), the top (v24) and bottom (v27)
             * taps' indices with the carry. */
            "dup v24.4s, %w[half]\n\t"
            "addhn v25.4h, v24.4s, %[p0].4s\n\t"
            "addhn2 v25.8h, v24.4s, %[p1].4s\n\t"
            "addhn v26.4h, v24.4s, %[p2].4s\n\t"
            "addhn2 v26.8h, v24.4s, %[p3].4s\n\t"
            "uzp2 v24.16b, v25.16b, v26.16b\n\t"
            "and v25.16b, v24.16b, %[w127].16b\n\t"
            "bic v26.16b, %[w127].16b, v24.16b\n\t"
            "cmlt v27.16b, v24.16b, #0\n\t"
            "sub v24.16b, %[index].16b, v27.16b\n\t"
            "sub v27.16b, %[next].16b, v27.16b\n\t"
            /* The alpha of every pixel a tap may fall on. */
            "orr v19.16b, v19.16b, %[untapped0].16b\n\t"
            "orr v23.16b, v23.16b, %[untapped1].16b\n\t"
            "and v19.16b, v19.16b, v23.16b\n\t"
            "and %[acc].16b, %[acc].16b, v19.16b\n\t"
            /* Red from {v18, v19} into v30. */
            "mov v19.16b, v22.16b\n\t"
            "tbl v22.16b, {v18.16b, v19.16b}, v24.16b\n\t"
            "tbl v23.16b, {v18.16b, v19.16b}, v27.16b\n\t"
            "umull v30.8h, v22.8b, v26.8b\n\t"
            "umull2 v22.8h, v22.16b, v26.16b\n\t"
            "umlal v30.8h, v23.8b, v25.8b\n\t"
            "umlal2 v22.8h, v23.16b, v25.16b\n\t"
            "sqrdmulh v30.8h, v30.8h, %[k0].8h\n\t"
            "sqrdmulh v22.8h, v22.8h, %[k1].8h\n\t"
            "uzp1 v30.16b, v30.16b, v22.16b\n\t"
            /* Green from {v17, v18} into v29. */
            "mov v18.16b, v21.16b\n\t"
            "tbl v21.16b, {v17.16b, v18.16b}, v24.16b\n\t"
            "tbl v19.16b, {v17.16b, v18.16b}, v27.16b\n\t"
            "umull v29.8h, v21.8b, v26.8b\n\t"
            "umull2 v21.8h, v21.16b, v26.16b\n\t"
            "umlal v29.8h, v19.8b, v25.8b\n\t"
            "umlal2 v21.8h, v19.16b, v25.16b\n\t"
            "sqrdmulh v29.8h, v29.8h, %[k0].8h\n\t"
            "sqrdmulh v21.8h, v21.8h, %[k1].8h\n\t"
            "uzp1 v29.16b, v29.16b, v21.16b\n\t"
            /* Blue from {v16, v17} into v28. */
            "mov v17.16b, v20.16b\n\t"
            "tbl v20.16b, {v16.16b, v17.16b}, v24.16b\n\t"
            "tbl v18.16b, {v16.16b, v17.16b}, v27.16b\n\t"
            "umull v28.8h, v20.8b, v26.8b\n\t"
            "umull2 v20.8h, v20.16b, v26.16b\n\t"
            "umlal v28.8h, v18.8b, v25.8b\n\t"
            "umlal2 v20.8h, v18.16b, v25.16b\n\t"
            "sqrdmulh v28.8h, v28.8h, %[k0].8h\n\t"
            "sqrdmulh v20.8h, v20.8h, %[k1].8h\n\t"
            "uzp1 v28.16b, v28.16b, v20.16b\n\t"
            "st4 {v28.16b-v31.16b}, [%[out]], #64"
            : [at] "+r"(at), [acc] "+w"(acc), [out] "+r"(to)
            : [half] "r"((uint32_t)vb >> 1), [p0] "w"(halves->part[0]), [p1] "w"(halves->part[1]),
              [p2] "w"(halves->part[2]), [p3] "w"(halves->part[3]), [w127] "w"(lanes->weight),
              [index] "w"(lanes->index), [next] "w"(lanes->next), [untapped0] "w"(untapped[0]),
              [untapped1] "w"(untapped[1]), [k0] "w"(kLow), [k1] "w"(kHigh), "w"(opaque)
            : "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29",
              "v30", "memory");
    *alphas = acc;
    *out = to;
}

/* The colours' light for sixteen rows from row on: the shadow's, or `flat`. */
__attribute__((always_inline)) static inline void light16(const ShadowRows *rows, int32_t row, int16x4_t scale,
                                                          int16x8_t flat, int16x8_t k[2]) {
    if (!rows) {
        k[0] = k[1] = flat;
        return;
    }
    const int16x8x2_t kept = kept16(rows, row);
    k[0] = vreinterpretq_s16_u16(sampleFactors(kept.val[0], scale));
    k[1] = vreinterpretq_s16_u16(sampleFactors(kept.val[1], scale));
}

/* A shadowed run's light, sixteen rows a step, while the steps stay in one cell: its grid pair as
 * FOLIO_SHADOW_FULL less the first value and the difference, and the weights of the step's rows,
 * which move on by sixteen rows' weight a step. `last` is the last row whose step of sixteen stays in
 * the cell; a step past it starts the walk again from its own rows. */
typedef struct {
    int32_t last;
    int16x8_t full, difference, weights;
} ShadowWalk;

/* The light kept at rows row…row + 15 of a walk (as kept16 gives it), each call sixteen rows on from
 * the last. */
__attribute__((always_inline)) static inline int16x8x2_t walkKept16(const ShadowRows *rows, ShadowWalk *walk,
                                                                    int32_t row) {
    if (row > walk->last) {
        const int32_t start = row - ((rows->mask + 1) >> 1), offset = start & rows->mask;
        /* Across two cells: this step alone. */
        if (offset + 15 > rows->mask) return kept16(rows, row);
        const int32_t g = start >> rows->shift, first = rows->darkening[g];
        walk->last = row - offset + rows->mask - 15;
        walk->full = vdupq_n_s16((int16_t)(FOLIO_SHADOW_FULL - first));
        walk->difference = vdupq_n_s16((int16_t)(rows->darkening[g + 1] - first));
        walk->weights = vaddq_s16(vdupq_n_s16((int16_t)((offset << (15 - rows->shift)) + (1 << (14 - rows->shift)))),
                                  rows->steps);
    }
    const int16x8_t w1 = vaddq_s16(walk->weights, rows->eight);
    const int16x8x2_t kept = {{vsubq_s16(walk->full, vqrdmulhq_s16(walk->difference, walk->weights)),
                               vsubq_s16(walk->full, vqrdmulhq_s16(walk->difference, w1))}};
    walk->weights = vaddq_s16(w1, rows->eight);
    return kept;
}

/* Every step of a run of 16 rows or more, the last over its last sixteen; returns the AND of the
 * alpha the steps' taps may fall on where `weighAlpha` is 0. */
__attribute__((always_inline)) static inline uint8x16_t sampleRun16(const uint32_t *column, int64_t v, int64_t dv,
                                                                    int32_t count, const ShadowRows *rows, int32_t row,
                                                                    int16x4_t scale, int16x8_t flat, const Lanes16 *lanes,
                                                                    int weighAlpha, uint32_t *out) {
    uint8x16_t alphas = vdupq_n_u8(0xFF);
    int16x8_t k[2];
    /* Stepping the output pointer alone: the loop's only count. */
    uint32_t *at = out, *const last = out + count - 16;
    int64_t vb = v;
    if (weighAlpha) {
        for (; at <= last; at += 16, vb += 16 * dv) {
            light16(rows, row + (int32_t)(at - out), scale, flat, k);
            sample16(column, vb, lanes, k, at);
        }
        if ((count & 15) == 0) return alphas;
        vb = v + (int64_t)(count - 16) * dv;
        light16(rows, row + count - 16, scale, flat, k);
        sample16(column, vb, lanes, k, last);
        return alphas;
    }
    const Halves halves = halves16(lanes, v);
    ShadowWalk walk = {.last = INT32_MIN};
    for (int32_t r = row; at < last; r += 16, vb += 16 * dv) {
        if (rows) {
            const int16x8x2_t kept = walkKept16(rows, &walk, r);
            k[0] = vreinterpretq_s16_u16(sampleFactors(kept.val[0], scale));
            k[1] = vreinterpretq_s16_u16(sampleFactors(kept.val[1], scale));
        } else {
            k[0] = k[1] = flat;
        }
        sample16Opaque(column, vb, &halves, lanes, lanes->untapped, k[0], k[1], &alphas, &at);
    }
    /* The last step, over the last sixteen rows: past its last lane's bottom tap the column is
     * usually no longer the page's (the rows blended for it end there), so only its own taps count. */
    vb = v + (int64_t)(count - 16) * dv;
    light16(rows, row + count - 16, scale, flat, k);
    const Halves end = halves16(lanes, vb);
    uint8x16_t untapped[2];
    untappedPast((int)(((vb + 15 * dv) >> 32) - (vb >> 32)) + 1, untapped);
    at = last;
    sample16Opaque(column, vb, &end, lanes, untapped, k[0], k[1], &alphas, &at);
    return alphas;
}

/* A run of 16 rows or more with dv at most 2 rows: sixteen rows a step, taken as opaque, and again
 * with the alpha weighed where a window was not. `rows` is fixed for the loop, so that each case is a
 * loop of its own. */
__attribute__((always_inline)) static inline void sampleWindowed(const uint32_t *column, int64_t v, int64_t dv,
                                                                 int32_t count, const ShadowRows *rows, int32_t row,
                                                                 uint16_t light, uint32_t *out) {
    const Lanes16 lanes = lanes16(dv);
    const int16x4_t scale = vdup_n_s16((int16_t)folio_light_scale(light));
    const int16x8_t flat = vdupq_n_s16((int16_t)folio_sample_light(FOLIO_SHADOW_FULL, light));
    const uint8x16_t alphas = sampleRun16(column, v, dv, count, rows, row, scale, flat, &lanes, 0, out);
    if (vminvq_u8(alphas) != 0xFF) sampleRun16(column, v, dv, count, rows, row, scale, flat, &lanes, 1, out);
}

/* sampleWindowed without a shadow and with one. */
__attribute__((noinline)) static void sampleWindowedFlat(const uint32_t *column, int64_t v, int64_t dv, int32_t count,
                                                         uint16_t light, uint32_t *out) {
    sampleWindowed(column, v, dv, count, 0, 0, light, out);
}

__attribute__((noinline)) static void sampleWindowedShadow(const uint32_t *column, int64_t v, int64_t dv, int32_t count,
                                                           const folio_page_shadow *shadow, int32_t row, uint16_t light,
                                                           uint32_t *out) {
    const ShadowRows rows = shadowRows(shadow);
    sampleWindowed(column, v, dv, count, &rows, row, light, out);
}

/* Runs of 8 rows or more that sampleWindowed does not take, eight rows a step. */
__attribute__((noinline)) static void sampleEights(const uint32_t *column, int64_t v, int64_t dv, int32_t count,
                                                   int windowed, const folio_page_shadow *shadow, int32_t row,
                                                   uint16_t light, uint32_t *out) {
    int32_t whole[8], part[8];
    folio_lane_offsets(dv, 8, whole, part);
    Lanes lanes;
    for (int h = 0; h < 2; h++) {
        lanes.part[h] = vld1q_u32((const uint32_t *)part + 4 * h);
        uint32x4_t index = vld1q_u32((const uint32_t *)whole + 4 * h);
        lanes.bytes[h] = vreinterpretq_u8_u32(vmlaq_n_u32(vdupq_n_u32(0x03020100u), index, 0x04040404u));
        lanes.carried[h] = vaddq_u8(lanes.bytes[h], vdupq_n_u8(4));
    }
    const int16x4_t scale = vdup_n_s16((int16_t)folio_light_scale(light));
    int16x8_t k[4];
    spreadFactors(vdupq_n_u16((uint16_t)folio_sample_light(FOLIO_SHADOW_FULL, light)), k);
    const ShadowRows rows = shadow ? shadowRows(shadow) : (ShadowRows){0};
    int32_t i;
    if (shadow) {
        i = windowed ? sampleSteps(column, v, dv, count, 1, &lanes, &rows, row, scale, k, out)
                     : sampleSteps(column, v, dv, count, 0, &lanes, &rows, row, scale, k, out);
    } else {
        i = windowed ? sampleSteps(column, v, dv, count, 1, &lanes, 0, row, scale, k, out)
                     : sampleSteps(column, v, dv, count, 0, &lanes, 0, row, scale, k, out);
    }
    if (i == count) return;
    i = count - 8;
    const int64_t vb = v + (int64_t)i * dv;
    uint32x4_t fractions[2];
    stepFractions(fractions, &lanes, vb);
    sampleStep(column, vb, dv, windowed, &lanes, fractions, shadow ? &rows : 0, row + i, scale, k, out + i);
}

/*
 * Exact positions. Runs of 16 rows or more with dv up to 2 rows go sixteen rows a step as channel
 * planes (sampleWindowed); other runs of 8 or more eight rows a step, their taps from one window of
 * 16 pixels by table lookups where dv is up to 2 rows, else each pair read alone, and a last step
 * over the run's last eight rows. Each case is a function of its own, so that a call saves only the
 * registers its case uses.
 */
static void sample(const uint32_t *column, int64_t v, int64_t dv, int32_t count, const folio_page_shadow *shadow,
                   int32_t row, uint16_t light, uint32_t *out) {
    if (count < 8) {
        for (int32_t i = 0; i < count; i++) out[i] = folio_sample_lit(column, v, dv, i, shadow, row, light);
        return;
    }
    const int windowed = dv >= 0 && dv <= ((int64_t)2 << 32);
    if (windowed && count >= 16) {
        if (shadow) {
            sampleWindowedShadow(column, v, dv, count, shadow, row, light, out);
        } else {
            sampleWindowedFlat(column, v, dv, count, light, out);
        }
        return;
    }
    sampleEights(column, v, dv, count, windowed, shadow, row, light, out);
}

/* Rows row…row + 15 darkened: the source's pixels, or `colour` where there is no source. */
__attribute__((always_inline)) static inline void darken16(const uint32_t *source, uint8x16x4_t colour,
                                                           const ShadowRows *rows, int32_t row, uint32_t *out) {
    const int16x8x2_t kept = kept16(rows, row);
    const uint8x16x4_t p = source ? vld4q_u8((const uint8_t *)source) : colour;
    vst4q_u8((uint8_t *)out, darkenPlanes16(p, darkenFactors(kept.val[0]), darkenFactors(kept.val[1])));
}

/* A run of 16 rows or more, sixteen a step, the last over its last sixteen; `source` null or not
 * for the whole loop, so that each case is a loop of its own. */
__attribute__((always_inline)) static inline void darkenRun16(const uint32_t *source, uint8x16x4_t colour,
                                                              const ShadowRows *rows, int32_t row, int32_t count,
                                                              uint32_t *out) {
    for (int32_t i = 0; i < count - 16; i += 16) darken16(source ? source + i : 0, colour, rows, row + i, out + i);
    darken16(source ? source + count - 16 : 0, colour, rows, row + count - 16, out + count - 16);
}

/* Eight rows a step as channel planes, sixteen for a run of 16 or more; a run ends with a step over
 * its last rows, and one of 4 to 7 is darkened in a buffer of eight. */
/* darkenRun16 with a source and without, as functions of their own: a call saves only the registers
 * its case uses. */
__attribute__((noinline)) static void darkenSource16(const uint32_t *source, const folio_page_shadow *shadow,
                                                     int32_t row, int32_t count, uint32_t *out) {
    const ShadowRows rows = shadowRows(shadow);
    darkenRun16(source, (uint8x16x4_t){{vdupq_n_u8(0), vdupq_n_u8(0), vdupq_n_u8(0), vdupq_n_u8(0)}}, &rows, row,
                count, out);
}

__attribute__((noinline)) static void darkenFlat16(uint32_t flat, const folio_page_shadow *shadow, int32_t row,
                                                   int32_t count, uint32_t *out) {
    const ShadowRows rows = shadowRows(shadow);
    darkenRun16(0, vld4q_dup_u8((const uint8_t *)&flat), &rows, row, count, out);
}

static void darken(const uint32_t *source, uint32_t flat, const folio_page_shadow *shadow, int32_t row, int32_t count,
                   uint32_t *out) {
    if (count >= 16) {
        if (source) {
            darkenSource16(source, shadow, row, count, out);
        } else {
            darkenFlat16(flat, shadow, row, count, out);
        }
        return;
    }
    const ShadowRows rows = shadowRows(shadow);
    if (count < 4) {
        for (int32_t i = 0; i < count; i++) out[i] = folio_darken_one(source ? source[i] : flat, folio_kept(shadow, row + i));
        return;
    }
    if (count < 8) {
        /* In a buffer of eight, through two overlapping loads and stores of four. */
        uint32_t pixels[8];
        vst1q_u32(pixels + 4, vdupq_n_u32(flat));
        if (source) {
            vst1q_u32(pixels, vld1q_u32(source));
            vst1q_u32(pixels + count - 4, vld1q_u32(source + count - 4));
        } else {
            vst1q_u32(pixels, vdupq_n_u32(flat));
        }
        vst4_u8((uint8_t *)pixels, darkenPlanes(vld4_u8((const uint8_t *)pixels), darkenFactors(kept8(&rows, row))));
        vst1q_u32(out, vld1q_u32(pixels));
        vst1q_u32(out + count - 4, vld1q_u32(pixels + count - 4));
        return;
    }
    const uint8x8x4_t colour = vld4_dup_u8((const uint8_t *)&flat);
    for (int32_t i = 0;; i = count - 8) {
        uint8x8x4_t p = source ? vld4_u8((const uint8_t *)(source + i)) : colour;
        vst4_u8((uint8_t *)(out + i), darkenPlanes(p, darkenFactors(kept8(&rows, row + i))));
        if (i + 8 == count) return;
    }
}

/* Eight values of two grid columns blended, as folio_blend_grid does. */
static inline uint16x8_t blendGrid8(uint16x8_t a, uint16x8_t b, uint16x8_t keep, uint16x8_t take) {
    uint32x4_t low = vmlal_u16(vmull_u16(vget_low_u16(a), vget_low_u16(keep)), vget_low_u16(b), vget_low_u16(take));
    uint32x4_t high = vmlal_high_u16(vmull_high_u16(a, keep), b, take);
    return vshrn_high_n_u32(vshrn_n_u32(low, 8), high, 8);
}

/* Sixteen values a step (two registers loaded and stored at once), then eight, then one at a time. */
static int blend_grid(const uint16_t *a, const uint16_t *b, int32_t count, uint32_t weight, uint16_t *out) {
    const uint16x8_t keep = vdupq_n_u16((uint16_t)(256 - weight)), take = vdupq_n_u16((uint16_t)weight);
    uint16x8_t any = vdupq_n_u16(0);
    int32_t i = 0;
    for (; i + 16 <= count; i += 16) {
        const uint16x8x2_t pa = vld1q_u16_x2(a + i), pb = vld1q_u16_x2(b + i);
        const uint16x8x2_t v = {{blendGrid8(pa.val[0], pb.val[0], keep, take), blendGrid8(pa.val[1], pb.val[1], keep, take)}};
        vst1q_u16_x2(out + i, v);
        any = vorrq_u16(any, vorrq_u16(v.val[0], v.val[1]));
    }
    if (i + 8 <= count) {
        const uint16x8_t v = blendGrid8(vld1q_u16(a + i), vld1q_u16(b + i), keep, take);
        vst1q_u16(out + i, v);
        any = vorrq_u16(any, v);
        i += 8;
    }
    int rest = i < count && folio_blend_grid(a + i, b + i, count - i, weight, out + i);
    return rest || vmaxvq_u16(any) != 0;
}

/* Four columns of a column-major tile, four rows from `y`: each column's four pixels go to one lane
 * of the four row vectors in a single structure load, so the loads do the transposing. */
static inline uint32x4x4_t columns4(const uint32_t *from, int32_t tile_stride, int32_t y) {
    uint32x4x4_t r = vld4q_dup_u32(from + y);
    r = vld4q_lane_u32(from + tile_stride + y, r, 1);
    r = vld4q_lane_u32(from + 2 * (int64_t)tile_stride + y, r, 2);
    return vld4q_lane_u32(from + 3 * (int64_t)tile_stride + y, r, 3);
}

/* Sixteen columns of a tile at rows y…y + 3 (`rows` their four output rows): each row's sixteen
 * pixels stored from four registers, `at` pixels into the row. */
static inline void writeBlock16(const uint32_t *from, int32_t tile_stride, int32_t y, uint32_t *const rows[4],
                                int32_t at) {
    const int64_t quarter = 4 * (int64_t)tile_stride;
    const uint32x4x4_t a = columns4(from, tile_stride, y), b = columns4(from + quarter, tile_stride, y);
    const uint32x4x4_t c = columns4(from + 2 * quarter, tile_stride, y), d = columns4(from + 3 * quarter, tile_stride, y);
    for (int k = 0; k < 4; k++) {
        vst1q_u32(rows[k] + at, a.val[k]);
        vst1q_u32(rows[k] + at + 4, b.val[k]);
        vst1q_u32(rows[k] + at + 8, c.val[k]);
        vst1q_u32(rows[k] + at + 12, d.val[k]);
    }
}

/* Thirty-two columns of a tile down its rows, four rows a step: the four rows' pointers serve both
 * halves. */
static inline void writeColumns32(const uint32_t *from, int32_t tile_stride, int32_t rows, uint32_t *out,
                                  int32_t out_stride) {
    const uint32_t *right = from + 16 * (int64_t)tile_stride;
    for (int32_t y = 0; y + 4 <= rows; y += 4, out += 4 * (int64_t)out_stride) {
        uint32_t *const to[4] = {out, out + out_stride, out + 2 * (int64_t)out_stride, out + 3 * (int64_t)out_stride};
        writeBlock16(from, tile_stride, y, to, 0);
        writeBlock16(right, tile_stride, y, to, 16);
    }
}

/* Sixteen columns of a tile down its rows, four rows a step. */
static inline void writeColumns16(const uint32_t *from, int32_t tile_stride, int32_t rows, uint32_t *out,
                                  int32_t out_stride) {
    for (int32_t y = 0; y + 4 <= rows; y += 4, out += 4 * (int64_t)out_stride) {
        uint32_t *const to[4] = {out, out + out_stride, out + 2 * (int64_t)out_stride, out + 3 * (int64_t)out_stride};
        writeBlock16(from, tile_stride, y, to, 0);
    }
}

/* Eight columns of a tile down its rows, four rows a step: each row's eight pixels in one store of
 * two registers. */
static inline void writeColumns8(const uint32_t *from, int32_t tile_stride, int32_t rows, uint32_t *out, int32_t out_stride) {
    const uint32_t *right = from + 4 * (int64_t)tile_stride;
    for (int32_t y = 0; y + 4 <= rows; y += 4, out += 4 * (int64_t)out_stride) {
        const uint32x4x4_t a = columns4(from, tile_stride, y), b = columns4(right, tile_stride, y);
        for (int k = 0; k < 4; k++) {
            vst1q_u32(out + k * (int64_t)out_stride, a.val[k]);
            vst1q_u32(out + k * (int64_t)out_stride + 4, b.val[k]);
        }
    }
}

/* The same for four columns. */
static inline void writeColumns4(const uint32_t *from, int32_t tile_stride, int32_t rows, uint32_t *out, int32_t out_stride) {
    for (int32_t y = 0; y + 4 <= rows; y += 4, out += 4 * (int64_t)out_stride) {
        const uint32x4x4_t r = columns4(from, tile_stride, y);
        for (int k = 0; k < 4; k++) vst1q_u32(out + k * (int64_t)out_stride, r.val[k]);
    }
}

/* Thirty-two columns at a time, then sixteen, eight, four; the leftover columns and rows a pixel at a
 * time. */
static void write_tile(const uint32_t *tile, int32_t tile_stride, int32_t columns, int32_t rows, uint32_t *out,
                       int32_t out_stride) {
    const int32_t whole_rows = rows & ~3, whole_columns = columns & ~3;
    int32_t c = 0;
    for (; c + 32 <= whole_columns; c += 32) {
        writeColumns32(tile + (int64_t)c * tile_stride, tile_stride, whole_rows, out + c, out_stride);
    }
    for (; c + 16 <= whole_columns; c += 16) {
        writeColumns16(tile + (int64_t)c * tile_stride, tile_stride, whole_rows, out + c, out_stride);
    }
    for (; c + 8 <= whole_columns; c += 8) {
        writeColumns8(tile + (int64_t)c * tile_stride, tile_stride, whole_rows, out + c, out_stride);
    }
    if (c < whole_columns) writeColumns4(tile + (int64_t)c * tile_stride, tile_stride, whole_rows, out + c, out_stride);
    if (whole_rows == rows && whole_columns == columns) return;
    for (int32_t y = 0; y < rows; y++) {
        for (int32_t x = y < whole_rows ? whole_columns : 0; x < columns; x++) {
            out[(int64_t)y * out_stride + x] = tile[(int64_t)x * tile_stride + y];
        }
    }
}

/* Sixteen pixels (a cache line) a step; the rest of a row by memcpy. */
static void copy_rows(const uint32_t *source, int32_t source_stride, int32_t columns, int32_t rows, uint32_t *out,
                      int32_t out_stride) {
    for (int32_t y = 0; y < rows; y++) {
        const uint32_t *from = source + (int64_t)y * source_stride;
        uint32_t *to = out + (int64_t)y * out_stride;
        int32_t c = 0;
        for (; c + 16 <= columns; c += 16) vst1q_u32_x4(to + c, vld1q_u32_x4(from + c));
        if (c < columns) memcpy(to + c, from + c, (size_t)(columns - c) * sizeof(uint32_t));
    }
}

/* A colour plane lit by its columns' factors: (127·c·k + 2¹⁴) >> 15, at most 255. Alpha needs no
 * work: 127·258 is 2¹⁵ − 2, so its factor gives every alpha back. */
static inline uint8x16_t litPlane(uint8x16_t c, int16x8_t kLow, int16x8_t kHigh) {
    const uint8x16_t weight = vdupq_n_u8(127);
    int16x8_t low = vqrdmulhq_s16(vreinterpretq_s16_u16(vmull_u8(vget_low_u8(c), vget_low_u8(weight))), kLow);
    int16x8_t high = vqrdmulhq_s16(vreinterpretq_s16_u16(vmull_high_u8(c, weight)), kHigh);
    return vqmovun_high_s16(vqmovun_s16(low), high);
}

/* A span of columns at a time: their light factors laid out once, then sixteen pixels of a row a
 * step as channel planes. */
static void copy_rows_lit(const uint32_t *source, int32_t source_stride, int32_t columns, int32_t rows,
                          const uint16_t *lights, uint32_t *out, int32_t out_stride) {
    enum { span = 512 };
    int16_t factors[span];
    for (int32_t c0 = 0; c0 < columns; c0 += span) {
        const int32_t n = columns - c0 < span ? columns - c0 : span, whole = n & ~15;
        for (int32_t c = 0; c < n; c++) factors[c] = (int16_t)folio_sample_light(FOLIO_SHADOW_FULL, lights[c0 + c]);
        for (int32_t y = 0; y < rows; y++) {
            const uint32_t *from = source + (int64_t)y * source_stride + c0;
            uint32_t *to = out + (int64_t)y * out_stride + c0;
            for (int32_t c = 0; c < whole; c += 16) {
                uint8x16x4_t p = vld4q_u8((const uint8_t *)(from + c));
                const int16x8_t kLow = vld1q_s16(factors + c), kHigh = vld1q_s16(factors + c + 8);
                for (int k = 0; k < 3; k++) p.val[k] = litPlane(p.val[k], kLow, kHigh);
                vst4q_u8((uint8_t *)(to + c), p);
            }
            for (int32_t c = whole; c < n; c++) to[c] = folio_lit_one(from[c], factors[c]);
        }
    }
}

/* The columns c…n − 1 of a row of darken_rows (fewer than 16, `from` and `to` at column c): eight a
 * step, then one at a time. A function of its own, so that the rows' loop keeps its registers. */
__attribute__((noinline)) static void darkenRowRest(const uint32_t *from, const int16_t *cells, int32_t c, int32_t n,
                                                    int32_t w, uint32_t *to) {
    const int16x8_t weight = vdupq_n_s16((int16_t)(w * 128));
    int32_t i = 0;
    for (; c + 8 <= n; c += 8, i += 8) {
        const int16x8_t k = vsubq_s16(vld1q_s16(cells + 2 * c), vqrdmulhq_s16(vld1q_s16(cells + 2 * c + 8), weight));
        vst4_u8((uint8_t *)(to + i), darkenPlanes(vld4_u8((const uint8_t *)(from + i)), darkenFactors(k)));
    }
    for (; c < n; c++, i++) {
        const int32_t at = (c & ~7) * 2 + (c & 7);
        to[i] = folio_darken_one(from[i], cells[at] - ((cells[at + 8] * w + 128) >> 8));
    }
}

/* A span of columns at a time. A row's grid rows and weight are the same in every column, so each
 * column's grid pair is read once per cell, as the light kept at the cell's first row and the
 * difference, laid out eight columns of each in turn; a row then costs a rounding multiply and a
 * subtraction per eight columns for their factors, and the pixels go as channel planes, sixteen a
 * step. */
static void darken_rows(const uint32_t *source, int32_t source_stride, int32_t columns, int32_t rows, const uint16_t *grid,
                        int32_t grid_stride, int32_t cell_shift, int32_t margin, int32_t row, uint32_t *out,
                        int32_t out_stride) {
    enum { span = 256 };
    const int32_t mask = (1 << cell_shift) - 1, up = 8 - cell_shift, base = 128 >> cell_shift;
    int16_t cells[2 * span];
    for (int32_t c0 = 0; c0 < columns; c0 += span) {
        const int32_t n = columns - c0 < span ? columns - c0 : span, sixteens = n & ~15;
        int32_t cell = 0, loaded = 0;
        for (int32_t y = 0; y < rows; y++) {
            const int32_t r = row + y - ((mask + 1) >> 1), g = (r >> cell_shift) + margin;
            if (!loaded || g != cell) {
                for (int32_t c = 0; c < n; c++) {
                    const uint16_t *column = grid + (int64_t)(c0 + c) * grid_stride;
                    const int32_t at = (c & ~7) * 2 + (c & 7);
                    cells[at] = (int16_t)(FOLIO_SHADOW_FULL - column[g]);
                    cells[at + 8] = (int16_t)(column[g + 1] - column[g]);
                }
                cell = g;
                loaded = 1;
            }
            const int32_t w = ((r & mask) << up) + base;
            const int16x8_t weight = vdupq_n_s16((int16_t)(w * 128));
            const uint32_t *from = source + (int64_t)y * source_stride + c0;
            uint32_t *to = out + (int64_t)y * out_stride + c0;
            const int16_t *kd = cells;
            for (uint32_t *const end = to + sixteens; to < end; from += 16, to += 16, kd += 32) {
                const int16x8x4_t k = vld1q_s16_x4(kd);
                const int16x8_t low = vsubq_s16(k.val[0], vqrdmulhq_s16(k.val[1], weight));
                const int16x8_t high = vsubq_s16(k.val[2], vqrdmulhq_s16(k.val[3], weight));
                const uint8x16x4_t p = vld4q_u8((const uint8_t *)from);
                vst4q_u8((uint8_t *)to, darkenPlanes16(p, darkenFactors(low), darkenFactors(high)));
            }
            if (sixteens < n) darkenRowRest(from, cells, sixteens, n, w, to);
        }
    }
}

static void finish(void) {}

static const folio_page_kernels neon = {
    .name = "neon", .blend = blend, .sample = sample, .darken = darken, .blend_grid = blend_grid,
    .write_tile = write_tile, .copy_rows = copy_rows, .copy_rows_lit = copy_rows_lit, .darken_rows = darken_rows,
    .finish = finish,
};

const folio_page_kernels *folio_page_kernels_neon(void) { return (getauxval(AT_HWCAP) & HWCAP_ASIMD) ? &neon : 0; }

#else

const folio_page_kernels *folio_page_kernels_neon(void) { return 0; }

#endif
