#ifndef FOLIO_VIDEO_ENCODER_H
#define FOLIO_VIDEO_ENCODER_H

#include <stddef.h>
#include <stdint.h>

/// An H.264 encoder writing an MP4 (yuv420p, its index at the front so it plays while it
/// downloads) into a file descriptor the caller opened for reading and writing. Frames are
/// given as 32-bit pixels, blue green red then an ignored byte (pixman's x8r8g8b8 in memory on a
/// little-endian machine), and converted with BT.709's matrix in limited range, as tagged
/// (`folio_bgr0_to_yuv420`).
typedef struct folio_video folio_video;

/// Opens an encoder for `width`×`height` (even, at least 16) frames at `fps` frames a second.
/// `name` names the output in the muxer (the file it reads back through `fd`). On failure,
/// returns NULL with one line of why in `error`.
folio_video *folio_video_open(int fd, const char *name, int width, int height, int fps, char *error, size_t error_size);

/// Encodes one frame of `width`×`height` pixels whose rows are `stride` bytes apart. 0, or -1
/// with one line of why in `error`.
int folio_video_append(folio_video *video, const uint8_t *pixels, int stride, char *error, size_t error_size);

/// Flushes the encoder and writes the MP4's index; 0, or -1 with why in `error`. Frees `video`
/// either way; the caller still owns `fd`.
int folio_video_finish(folio_video *video, char *error, size_t error_size);

/// Frees `video` without finishing the file (a failure elsewhere: the caller removes the file).
void folio_video_free(folio_video *video);

#endif
