/* One-pixel forms of the kernels: the portable kernels, and the vector kernels' leftovers. */
#ifndef FOLIO_SCALAR_KERNELS_H
#define FOLIO_SCALAR_KERNELS_H

#include <stdint.h>
#include "page_kernels.h"

#define FOLIO_OPAQUE 0xFF000000u

/* (x·k + 2¹⁴) >> 15, as a rounding high multiply of 16-bit lanes makes it. */
static inline int32_t folio_mulhrs(int32_t x, int32_t k) { return (x * k + 16384) >> 15; }

static inline uint32_t folio_clamp_byte(int32_t v) { return v < 0 ? 0 : v > 255 ? 255 : (uint32_t)v; }

static inline uint32_t folio_blend_one(uint32_t a, uint32_t b, uint32_t weight) {
    uint32_t out = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        uint32_t v = ((128 - weight) * ((a >> shift) & 0xFF) + weight * ((b >> shift) & 0xFF) + 64) >> 7;
        out |= v << shift;
    }
    return out;
}

/* The light (0…FOLIO_SHADOW_FULL) a shadow keeps at buffer row y. */
static inline int32_t folio_kept(const folio_page_shadow *shadow, int32_t y) {
    int32_t shift = shadow->cell_shift, r = y - (1 << (shift - 1));
    int32_t g = (r >> shift) + shadow->margin;
    int32_t w = ((r & ((1 << shift) - 1)) << (8 - shift)) + (128 >> shift);
    int32_t a = shadow->darkening[g], b = shadow->darkening[g + 1];
    return FOLIO_SHADOW_FULL - (a + folio_mulhrs(b - a, w * 128));
}

/* The light factor that leaves a channel as it is: 258 turns 127·c back into c. */
#define FOLIO_UNLIT 258

/*
 * The sample at stored index j with weight f (0…127) of j + 1 and 127 − f of j (signed byte
 * weights sum to 127 at most), colours times k/258 (the light k/256 with the 128/127 the weights
 * lack), alpha times 258/258: opaque taps give an opaque sample.
 */
static inline uint32_t folio_sample_one(const uint32_t *column, int32_t j, int32_t f, int32_t k) {
    uint32_t top = column[j], bottom = column[j + 1], out = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        int32_t madd = (127 - f) * (int32_t)((top >> shift) & 0xFF) + f * (int32_t)((bottom >> shift) & 0xFF);
        out |= folio_clamp_byte(folio_mulhrs(madd, shift == 24 ? FOLIO_UNLIT : k)) << shift;
    }
    return out;
}

/* A pixel as the sampler gives it at a whole position (the next tap weighs 0): colours times k/258,
 * alpha kept. */
static inline uint32_t folio_lit_one(uint32_t p, int32_t k) {
    uint32_t out = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        out |= folio_clamp_byte(folio_mulhrs(127 * (int32_t)((p >> shift) & 0xFF), shift == 24 ? FOLIO_UNLIT : k)) << shift;
    }
    return out;
}

/* light/256 (≤ 256) times 129/128, for the weights' 127/128, halved to fit a signed 16-bit lane. */
static inline int32_t folio_light_scale(int32_t light) { return (light * 129 + 1) >> 1; }

/* The sampler's light factor (≤ 258): light/256 times kept/FOLIO_SHADOW_FULL times 129/128, rounded
 * once: (kept·scale + 2¹⁹) >> 20. The vector kernels take it as (the high half of the unsigned
 * 16-bit product 2·kept × 2·scale, + 32) >> 6, which is the same number. */
static inline int32_t folio_sample_light(int32_t kept, int32_t light) {
    return (kept * folio_light_scale(light) + (1 << 19)) >> 20;
}

/* Lane l's position past lane 0's in a vector sampler's step, l·dv in 32.32, as whole rows and a
 * 32-bit fraction: a step's positions are its window's row plus these, and one more where the
 * fractions carry. */
static inline void folio_lane_offsets(int64_t dv, int lanes, int32_t *whole, int32_t *part) {
    for (int l = 0; l < lanes; l++) {
        whole[l] = (int32_t)(((uint64_t)l * (uint64_t)dv) >> 32);
        part[l] = (int32_t)(uint32_t)((uint64_t)l * (uint64_t)dv);
    }
}

/* Sample i of a run, at the 32.32 position v + i·dv (v ≥ 0). */
static inline uint32_t folio_sample_at(const uint32_t *column, int64_t v, int64_t dv, int32_t i, int32_t k) {
    int64_t position = v + (int64_t)i * dv;
    return folio_sample_one(column, (int32_t)(position >> 32), (int32_t)(position >> 25) & 0x7F, k);
}

static inline uint32_t folio_sample_lit(const uint32_t *column, int64_t v, int64_t dv, int32_t i,
                                        const folio_page_shadow *shadow, int32_t row, uint16_t light) {
    int32_t k = folio_sample_light(shadow ? folio_kept(shadow, row + i) : FOLIO_SHADOW_FULL, light);
    return folio_sample_at(column, v, dv, i, k);
}

/* The rounding multiply's factor for keeping keep/FOLIO_SHADOW_FULL of a channel: all of it is its 1,
 * 32767. */
static inline int32_t folio_darken_factor(int32_t keep) { return keep >= FOLIO_SHADOW_FULL ? 32767 : keep * 2; }

static inline uint32_t folio_darken_one(uint32_t p, int32_t keep) {
    int32_t k = folio_darken_factor(keep);
    uint32_t out = FOLIO_OPAQUE;
    for (int shift = 0; shift < 24; shift += 8) {
        out |= folio_clamp_byte(folio_mulhrs((int32_t)((p >> shift) & 0xFF), k)) << shift;
    }
    return out;
}

static inline int folio_blend_grid(const uint16_t *a, const uint16_t *b, int32_t count, uint32_t weight, uint16_t *out) {
    uint32_t any = 0;
    for (int32_t i = 0; i < count; i++) {
        uint32_t v = (a[i] * (256 - weight) + b[i] * weight) >> 8;
        out[i] = (uint16_t)v;
        any |= v;
    }
    return any != 0;
}

#endif
