#ifndef FOLIO_TURNED_IMAGE_H
#define FOLIO_TURNED_IMAGE_H

#include <stdint.h>

/* Target columns the turned-image kernel draws per pass. */
#define FOLIO_TURNED_BLOCK 128

/* The pixels of scratch the turned-image kernel needs for a width×height image: a pass's columns
 * of every image row with a clear row above and below, and an image row with two clear pixels at
 * either end. */
static inline int64_t folio_turned_image_scratch(int32_t width, int32_t height) {
    return ((int64_t)height + 2) * FOLIO_TURNED_BLOCK + width + 4;
}

/*
 * Draws an image (width×height premultiplied 0xAARRGGBB pixels, image_stride pixels a row) over
 * the target's pixels in `box` (x, y, width, height; target_stride pixels a row), bilinearly,
 * Porter–Duff OVER, through a homography turned about the vertical axis: `inverse` (row-major 3×3,
 * target pixel centre → image, homogeneous) has inverse[1] == inverse[7] == 0, so each target
 * column shows one image column position, scaled vertically. Taps outside the image are clear.
 * Colours are scaled by light/256 (light ≤ 256), or, when `use_solid`, `solid` is drawn through
 * the image's alpha, premultiplied. `scratch` holds folio_turned_image_scratch(width, height) pixels.
 * Every variant gives the same bytes.
 */
typedef void (*folio_turned_image_fn)(const uint32_t *image, int32_t image_stride, int32_t width, int32_t height,
                                      const double inverse[9], const int32_t box[4], uint32_t light, uint32_t solid,
                                      int32_t use_solid, uint32_t *scratch, uint32_t *target, int32_t target_stride);

/* Plain C: any CPU. */
void folio_draw_turned_image_portable(const uint32_t *image, int32_t image_stride, int32_t width, int32_t height,
                                      const double inverse[9], const int32_t box[4], uint32_t light, uint32_t solid,
                                      int32_t use_solid, uint32_t *scratch, uint32_t *target, int32_t target_stride);
/* The same loops built for AVX2; null when this CPU lacks it. */
folio_turned_image_fn folio_turned_image_avx2(void);

#endif
