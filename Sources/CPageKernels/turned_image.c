#include "turned_image_body.h"

void folio_draw_turned_image_portable(const uint32_t *image, int32_t image_stride, int32_t width, int32_t height,
                                      const double inverse[9], const int32_t box[4], uint32_t light, uint32_t solid,
                                      int32_t use_solid, uint32_t *scratch, uint32_t *target, int32_t target_stride) {
    draw_turned_image(image, image_stride, width, height, inverse, box, light, solid, use_solid, scratch, target,
                      target_stride);
}
