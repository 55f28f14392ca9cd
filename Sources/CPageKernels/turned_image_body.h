/* The turned-image kernel's loops, compiled once per variant (turned_image.c, turned_image_avx2.c):
 * plain C, so every variant gives the same bytes. */
#ifndef FOLIO_TURNED_IMAGE_BODY_H
#define FOLIO_TURNED_IMAGE_BODY_H

#include <string.h>

#include "turned_image.h"

/* The shelf's drawing gives the bytes of its reference arithmetic only unfused. */
#pragma STDC FP_CONTRACT OFF

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the byte loops take a pixel's bytes as B, G, R, A: little-endian only"
#endif

enum { block = FOLIO_TURNED_BLOCK };

/*
 * Bilinear sampling is separable, and a target column samples one image column position: a pass
 * over `block` target columns first blends each image row's two taps for every column (the
 * horizontal weights), then each target pixel blends two of those rows (the vertical weight).
 * That is the bilinear blend of four taps exactly, as the page renderer's integer arithmetic
 * makes it (horizontal blends first, each truncated). Byte by byte in 16-bit lanes: every
 * product is of a byte and a weight of at most 256, so each fits 16 bits, and per byte this is
 * the packed two-channels-a-word arithmetic exactly.
 */

/* Where one target column samples the image: the column pair u0, u0 + 1 weighed by fx (0…255),
 * and the image row position base + step·(y + 0.5) at target row y. A column that shows none of
 * the image samples row −2, outside it. */
typedef struct {
    double base[block], step[block];
    int64_t u0[block];
    uint16_t fx[block];
    uint8_t left[block], right[block];
} column;

static void columns(const double *inv, int32_t width, int32_t x0, int32_t n, column *out) {
    for (int32_t c = 0; c < n; c++) {
        const double cx = (double)(x0 + c) + 0.5;
        const double nw = inv[6] * cx + inv[8];
        out->base[c] = -2, out->step[c] = 0, out->u0[c] = 0, out->fx[c] = 0, out->left[c] = 0, out->right[c] = 0;
        if (nw == 0) continue;
        const double r = 1 / nw;
        const double u = (inv[0] * cx + inv[2]) * r - 0.5;
        if (!(u > -1 && u < (double)width)) continue;
        const int64_t u0 = (int64_t)(u + 1) - 1;
        out->u0[c] = u0;
        out->fx[c] = (uint16_t)((u - (double)u0) * 256);
        out->step[c] = inv[4] * r;
        out->base[c] = (inv[3] * cx + inv[5]) * r - 0.5;
        out->left[c] = u0 >= 0;
        out->right[c] = u0 + 1 < width;
    }
}

/* (p·(256 − f) + q·f) >> 8 for each of `count` bytes. */
static void blend_bytes(const uint8_t *restrict p, const uint8_t *restrict q, const uint16_t *restrict f, int32_t count,
                        uint8_t *restrict out) {
    for (int32_t i = 0; i < count; i++) {
        out[i] = (uint8_t)((uint16_t)(p[i] * (uint16_t)(256 - f[i]) + q[i] * f[i]) >> 8);
    }
}

/* The pass's columns of every image row, horizontally blended, into rows 1…height of `rows`
 * (`n` pixels a row); rows 0 and height + 1 clear. Each image row's span the columns read is
 * copied between two clear pixels first (past the rows), so that a tap off the image reads one. */
static void blend_rows(const uint32_t *image, int32_t image_stride, int32_t width, int32_t height, const column *cols,
                       int32_t n, uint32_t *rows) {
    uint16_t fx[4 * block];
    uint32_t left[block], right[block];
    int32_t from[block];
    /* The image columns first…last are read; column u is at 2 + (u − first) in `line`. */
    int64_t first = width, last = -1;
    for (int32_t c = 0; c < n; c++) {
        if (!cols->left[c] && !cols->right[c]) continue;
        if (cols->u0[c] < first) first = cols->u0[c];
        if (cols->u0[c] + 1 > last) last = cols->u0[c] + 1;
    }
    if (first < 0) first = 0;
    if (last > width - 1) last = width - 1;
    const int32_t span = last >= first ? (int32_t)(last - first + 1) : 0;
    uint32_t *line = rows + ((int64_t)height + 2) * n;
    for (int32_t c = 0; c < n; c++) {
        for (int b = 0; b < 4; b++) fx[4 * c + b] = cols->fx[c];
        /* Columns off the image read the clear pixel before the span, at 0 and 1. */
        from[c] = cols->left[c] || cols->right[c] ? (int32_t)(cols->u0[c] - first) + 2 : 0;
    }
    memset(rows, 0, (size_t)n * sizeof *rows);
    memset(rows + ((int64_t)height + 1) * n, 0, (size_t)n * sizeof *rows);
    line[0] = line[1] = 0;
    line[span + 2] = line[span + 3] = 0;
    for (int32_t r = 0; r < height; r++) {
        memcpy(line + 2, image + (int64_t)r * image_stride + first, (size_t)span * sizeof *line);
        for (int32_t c = 0; c < n; c++) {
            left[c] = line[from[c]];
            right[c] = line[from[c] + 1];
        }
        blend_bytes((const uint8_t *)left, (const uint8_t *)right, fx, 4 * n, (uint8_t *)(rows + ((int64_t)r + 1) * n));
    }
}

/* One target row of a pass: each pixel's two blended rows and weight gathered, blended, lit and
 * put OVER the target. A pixel outside the image blends the clear row with weight 0: clear. */
static void draw_row(const uint32_t *rows, int32_t height, const column *cols, int32_t n, double cy,
                     const uint16_t *paint, int32_t use_solid, uint32_t *out) {
    uint32_t upper[block], lower[block], p[block];
    uint16_t fy[4 * block], k[4 * block];
    uint8_t s[4 * block];
    int32_t at[block];
    uint16_t f[block];
    const double limit = (double)height;
    /* Row −1 with weight 0 where the column is outside the image: the clear row. */
    for (int32_t c = 0; c < n; c++) {
        const double v = cols->base[c] + cols->step[c] * cy;
        const double kept = v > -1 && v < limit ? v : -1;
        const int32_t v0 = (int32_t)(kept + 1) - 1;
        f[c] = (uint16_t)(int32_t)((kept - (double)v0) * 256);
        at[c] = (v0 + 1) * n + c;
    }
    for (int32_t c = 0; c < n; c++) {
        upper[c] = rows[at[c]];
        lower[c] = rows[at[c] + n];
    }
    for (int32_t c = 0; c < n; c++) {
        for (int b = 0; b < 4; b++) fy[4 * c + b] = f[c];
    }
    blend_bytes((const uint8_t *)upper, (const uint8_t *)lower, fy, 4 * n, (uint8_t *)p);
    const uint8_t *pb = (const uint8_t *)p;
    /* The colour drawn: solid through the alpha, or the colour lit (alpha kept). */
    if (use_solid) {
        for (int32_t c = 0; c < n; c++) {
            const uint16_t alpha = (uint16_t)(p[c] >> 24), weight = (uint16_t)(alpha + (alpha >> 7));
            for (int b = 0; b < 4; b++) k[4 * c + b] = weight;
        }
        for (int32_t i = 0; i < 4 * n; i++) s[i] = (uint8_t)((uint16_t)(paint[i] * k[i]) >> 8);
    } else {
        for (int32_t i = 0; i < 4 * n; i++) s[i] = (uint8_t)((uint16_t)(pb[i] * paint[i]) >> 8);
    }
    /* OVER, no carry between bytes (premultiplied colours never overflow): a clear pixel leaves
     * the target as it was (times 256/256), an opaque one replaces it. */
    for (int32_t c = 0; c < n; c++) {
        const uint16_t alpha = s[4 * c + 3], keep = (uint16_t)(256 - (alpha + (alpha >> 7)));
        for (int b = 0; b < 4; b++) k[4 * c + b] = keep;
    }
    uint8_t *o = (uint8_t *)out;
    for (int32_t i = 0; i < 4 * n; i++) o[i] = (uint8_t)(s[i] + ((uint16_t)(o[i] * k[i]) >> 8));
}

static void draw_turned_image(const uint32_t *image, int32_t image_stride, int32_t width, int32_t height,
                              const double inverse[9], const int32_t box[4], uint32_t light, uint32_t solid,
                              int32_t use_solid, uint32_t *scratch, uint32_t *target, int32_t target_stride) {
    column cols;
    /* Per byte lane: the solid colour's channels, or the light (256 for alpha, kept). */
    uint16_t paint[4 * block];
    for (int32_t i = 0; i < 4 * block; i++) {
        paint[i] = use_solid ? (uint16_t)((solid >> (8 * (i & 3))) & 0xFF) : (i & 3) == 3 || light > 256 ? 256 : (uint16_t)light;
    }
    for (int32_t x0 = box[0]; x0 < box[0] + box[2]; x0 += block) {
        const int32_t n = box[0] + box[2] - x0 < block ? box[0] + box[2] - x0 : block;
        columns(inverse, width, x0, n, &cols);
        blend_rows(image, image_stride, width, height, &cols, n, scratch);
        for (int32_t y = box[1]; y < box[1] + box[3]; y++) {
            draw_row(scratch, height, &cols, n, (double)y + 0.5, paint, use_solid,
                     target + (int64_t)y * target_stride + x0);
        }
    }
}

#endif
