#ifndef FOLIO_RGB_TO_YUV_H
#define FOLIO_RGB_TO_YUV_H

#include <stddef.h>
#include <stdint.h>

/// Converts `width`×`height` (both even) pixels of blue, green, red and an ignored byte into
/// BT.709 limited-range 4:2:0 planes, chroma the mean of each 2×2 block.
void folio_bgr0_to_yuv420(const uint8_t *pixels, int stride, int width, int height, uint8_t *y_plane, int y_stride,
                          uint8_t *u_plane, int u_stride, uint8_t *v_plane, int v_stride);

#endif
