#ifndef FOLIO_VIDEO_PROBE_H
#define FOLIO_VIDEO_PROBE_H

#include <stddef.h>
#include <stdint.h>

/// What a video file holds, as libavformat and libavcodec read it back.
typedef struct {
    int width;
    int height;
    /// Frames decoded.
    int64_t frames;
    /// The container's duration, in seconds.
    double duration;
    /// The stream's frame rate.
    double fps;
    char codec[32];
    char pixel_format[32];
} folio_video_probe;

/// Decodes every frame of the video at `path`; the last one, converted to 32-bit pixels (blue,
/// green, red, 255) with the matrix and range the stream is tagged with, goes to `last` when it
/// holds `capacity` bytes (width × height × 4). 0, or -1 with why in `error`.
int folio_probe_video(const char *path, folio_video_probe *probe, uint8_t *last, size_t capacity, char *error, size_t error_size);

#endif
