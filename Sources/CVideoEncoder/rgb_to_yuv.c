#include "rgb_to_yuv.h"

// BT.709 in limited range, in 1/65536 steps: Y = 16 + 219/255 (Kr R + Kg G + Kb B), Cb and Cr
// = 128 + 224/255 of the colour differences. Each row of coefficients sums to what white needs
// (Y 235, Cb and Cr 128).
enum {
    yr = 11966, yg = 40254, yb = 4064,
    ur = -6596, ug = -22188, ub = 28784,
    vr = 28784, vg = -26145, vb = -2639,
};

void folio_bgr0_to_yuv420(const uint8_t *pixels, int stride, int width, int height, uint8_t *y_plane, int y_stride,
                          uint8_t *u_plane, int u_stride, uint8_t *v_plane, int v_stride) {
    // Plain loops over rows, one plane at a time, so the compiler can vectorise them.
    for (int row = 0; row < height; row++) {
        const uint8_t *p = pixels + (size_t)row * stride;
        uint8_t *y = y_plane + (size_t)row * y_stride;
        for (int x = 0; x < width; x++) {
            y[x] = (uint8_t)((yr * p[4 * x + 2] + yg * p[4 * x + 1] + yb * p[4 * x] + (16 << 16) + (1 << 15)) >> 16);
        }
    }
    for (int row = 0; row + 1 < height; row += 2) {
        const uint8_t *top = pixels + (size_t)row * stride, *bottom = top + stride;
        uint8_t *u = u_plane + (size_t)(row / 2) * u_stride, *v = v_plane + (size_t)(row / 2) * v_stride;
        for (int x = 0; x < width / 2; x++) {
            const uint8_t *a = top + 8 * x, *b = bottom + 8 * x;
            int blue = a[0] + a[4] + b[0] + b[4], green = a[1] + a[5] + b[1] + b[5], red = a[2] + a[6] + b[2] + b[6];
            // Sums of four pixels, so the shift is by 18: their mean, as 4:2:0 takes it.
            u[x] = (uint8_t)((ur * red + ug * green + ub * blue + (128 << 18) + (1 << 17)) >> 18);
            v[x] = (uint8_t)((vr * red + vg * green + vb * blue + (128 << 18) + (1 << 17)) >> 18);
        }
    }
}
