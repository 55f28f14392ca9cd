#include <string.h>

#include "turned_image.h"

#if defined(__x86_64__)

/* The portable loops again, for AVX2: the compiler vectorises them twice as wide. */
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#include "turned_image_body.h"

static void draw_avx2(const uint32_t *image, int32_t image_stride, int32_t width, int32_t height,
                      const double inverse[9], const int32_t box[4], uint32_t light, uint32_t solid, int32_t use_solid,
                      uint32_t *scratch, uint32_t *target, int32_t target_stride) {
    draw_turned_image(image, image_stride, width, height, inverse, box, light, solid, use_solid, scratch, target,
                      target_stride);
}
#pragma clang attribute pop

folio_turned_image_fn folio_turned_image_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? draw_avx2 : 0;
}

#else

folio_turned_image_fn folio_turned_image_avx2(void) { return 0; }

#endif
