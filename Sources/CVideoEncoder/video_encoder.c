#include "video_encoder.h"
#include "rgb_to_yuv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/opt.h>

// FFmpeg 7 (libavformat 61) made the write callback's buffer const; FFmpeg 5 and 6 have it
// mutable unless built without FF_API_AVIO_WRITE_NONCONST.
#if LIBAVFORMAT_VERSION_MAJOR >= 61 || (defined(FF_API_AVIO_WRITE_NONCONST) && !FF_API_AVIO_WRITE_NONCONST)
#define FOLIO_WRITE_BUFFER const uint8_t
#else
#define FOLIO_WRITE_BUFFER uint8_t
#endif

enum { io_buffer_size = 1 << 16 };

/// One way into the output file: the writer's (the file offset) or a reader's (its own offset,
/// through pread, so the muxer can read back while it writes).
typedef struct {
    int fd;
    int64_t position;
} folio_io;

struct folio_video {
    AVFormatContext *format;
    AVCodecContext *codec;
    AVStream *stream;
    AVFrame *frame;
    AVPacket *packet;
    folio_io writer;
    int64_t next_pts;
    char *name;
};

static void say(char *error, size_t size, const char *format, ...) {
    if (!error || size == 0) return;
    va_list args;
    va_start(args, format);
    vsnprintf(error, size, format, args);
    va_end(args);
}

static void say_av(char *error, size_t size, const char *what, int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {0};
    av_strerror(code, text, sizeof text);
    say(error, size, "%s: %s", what, text);
}

static int write_all(void *opaque, FOLIO_WRITE_BUFFER *buffer, int size) {
    folio_io *io = opaque;
    int done = 0;
    while (done < size) {
        ssize_t n = pwrite(io->fd, buffer + done, (size_t)(size - done), io->position);
        if (n < 0) {
            if (errno == EINTR) continue;
            return AVERROR(errno);
        }
        done += (int)n;
        io->position += n;
    }
    return done;
}

static int read_some(void *opaque, uint8_t *buffer, int size) {
    folio_io *io = opaque;
    for (;;) {
        ssize_t n = pread(io->fd, buffer, (size_t)size, io->position);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return AVERROR(errno);
        if (n == 0) return AVERROR_EOF;
        io->position += n;
        return (int)n;
    }
}

static int64_t seek_to(void *opaque, int64_t offset, int whence) {
    folio_io *io = opaque;
    struct stat status;
    if (whence & AVSEEK_SIZE) return fstat(io->fd, &status) == 0 ? (int64_t)status.st_size : AVERROR(errno);
    switch (whence & ~AVSEEK_FORCE) {
    case SEEK_SET: break;
    case SEEK_CUR: offset += io->position; break;
    case SEEK_END:
        if (fstat(io->fd, &status) != 0) return AVERROR(errno);
        offset += status.st_size;
        break;
    default: return AVERROR(EINVAL);
    }
    if (offset < 0) return AVERROR(EINVAL);
    io->position = offset;
    return offset;
}

static AVIOContext *open_io(folio_io *io, int writable) {
    uint8_t *buffer = av_malloc(io_buffer_size);
    if (!buffer) return NULL;
    AVIOContext *context = avio_alloc_context(buffer, io_buffer_size, writable, io, writable ? NULL : read_some,
                                              writable ? write_all : NULL, seek_to);
    if (!context) av_free(buffer);
    return context;
}

static void close_io(AVIOContext **context) {
    if (!*context) return;
    av_freep(&(*context)->buffer);
    avio_context_free(context);
}

/// The muxer reopens its output by name to read it back (moving the index to the front): the
/// same file, through the same descriptor, at an offset of the reader's own. Nothing else opens.
static int open_by_name(AVFormatContext *format, AVIOContext **context, const char *url, int flags, AVDictionary **options) {
    (void)options;
    folio_video *video = format->opaque;
    if ((flags & AVIO_FLAG_WRITE) || strcmp(url, video->name) != 0) return AVERROR(EPERM);
    folio_io *reader = av_malloc(sizeof *reader);
    if (!reader) return AVERROR(ENOMEM);
    *reader = (folio_io){.fd = video->writer.fd, .position = 0};
    *context = open_io(reader, 0);
    if (!*context) {
        av_free(reader);
        return AVERROR(ENOMEM);
    }
    return 0;
}

static int close_by_name(AVFormatContext *format, AVIOContext *context) {
    (void)format;
    if (!context) return 0;
    av_free(context->opaque);
    close_io(&context);
    return 0;
}

void folio_video_free(folio_video *video) {
    if (!video) return;
    if (video->format) {
        close_io(&video->format->pb);
        avformat_free_context(video->format);
    }
    avcodec_free_context(&video->codec);
    av_frame_free(&video->frame);
    av_packet_free(&video->packet);
    av_free(video->name);
    av_free(video);
}

/// The H.264 encoder to use: x264 where libavcodec has it, else whichever it offers.
static const AVCodec *h264_encoder(void) {
    const AVCodec *codec = avcodec_find_encoder_by_name("libx264");
    return codec ? codec : avcodec_find_encoder(AV_CODEC_ID_H264);
}

folio_video *folio_video_open(int fd, const char *name, int width, int height, int fps, char *error, size_t error_size) {
    // Failures come back as one line of ours; the libraries' own chatter would only add noise.
    av_log_set_level(AV_LOG_QUIET);
    const AVCodec *encoder = h264_encoder();
    if (!encoder) {
        say(error, error_size, "this libavcodec (%s) has no H.264 encoder; install one with libx264 (Debian's libavcodec does)",
            av_version_info());
        return NULL;
    }
    folio_video *video = av_mallocz(sizeof *video);
    if (!video) goto no_memory;
    video->writer = (folio_io){.fd = fd, .position = 0};
    video->name = av_strdup(name);
    int code = avformat_alloc_output_context2(&video->format, NULL, "mp4", NULL);
    if (code < 0 || !video->name) goto no_memory;
    video->format->opaque = video;
    video->format->flags |= AVFMT_FLAG_CUSTOM_IO;
    video->format->io_open = open_by_name;
    video->format->io_close2 = close_by_name;
    av_freep(&video->format->url);
    video->format->url = av_strdup(name);
    video->format->pb = open_io(&video->writer, 1);
    video->stream = avformat_new_stream(video->format, NULL);
    video->codec = avcodec_alloc_context3(encoder);
    video->frame = av_frame_alloc();
    video->packet = av_packet_alloc();
    if (!video->format->url || !video->format->pb || !video->stream || !video->codec || !video->frame || !video->packet) goto no_memory;

    AVCodecContext *codec = video->codec;
    codec->width = width;
    codec->height = height;
    codec->time_base = (AVRational){1, fps};
    codec->framerate = (AVRational){fps, 1};
    codec->pix_fmt = AV_PIX_FMT_YUV420P;
    codec->gop_size = fps * 2;
    codec->color_range = AVCOL_RANGE_MPEG;
    codec->colorspace = AVCOL_SPC_BT709;
    codec->color_primaries = AVCOL_PRI_BT709;
    codec->color_trc = AVCOL_TRC_BT709;
    if (video->format->oformat->flags & AVFMT_GLOBALHEADER) codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    AVDictionary *codec_options = NULL;
    if (strcmp(encoder->name, "libx264") == 0) {
        // A drawing is flat paper and thin lines: x264's fast preset keeps them sharp at a
        // fraction of the default's time; CRF 18 is visually lossless for ink.
        av_dict_set(&codec_options, "preset", "veryfast", 0);
        av_dict_set(&codec_options, "crf", "18", 0);
        av_dict_set(&codec_options, "profile", "high", 0);
    }
    code = avcodec_open2(codec, encoder, &codec_options);
    av_dict_free(&codec_options);
    if (code < 0) {
        say_av(error, error_size, encoder->name, code);
        folio_video_free(video);
        return NULL;
    }
    code = avcodec_parameters_from_context(video->stream->codecpar, codec);
    if (code < 0) goto failed;
    video->stream->time_base = codec->time_base;
    video->stream->avg_frame_rate = codec->framerate;

    video->frame->format = codec->pix_fmt;
    video->frame->width = width;
    video->frame->height = height;
    code = av_frame_get_buffer(video->frame, 0);
    if (code < 0) goto failed;

    AVDictionary *format_options = NULL;
    av_dict_set(&format_options, "movflags", "+faststart", 0);
    code = avformat_write_header(video->format, &format_options);
    av_dict_free(&format_options);
    if (code < 0) goto failed;
    return video;

failed:
    say_av(error, error_size, "writing the MP4", code);
    folio_video_free(video);
    return NULL;
no_memory:
    say(error, error_size, "out of memory opening the encoder");
    folio_video_free(video);
    return NULL;
}

/// Writes every packet the encoder has ready; 0, or -1 with why in `error`.
static int drain(folio_video *video, char *error, size_t error_size) {
    for (;;) {
        int code = avcodec_receive_packet(video->codec, video->packet);
        if (code == AVERROR(EAGAIN) || code == AVERROR_EOF) return 0;
        if (code < 0) {
            say_av(error, error_size, "encoding a frame", code);
            return -1;
        }
        av_packet_rescale_ts(video->packet, video->codec->time_base, video->stream->time_base);
        video->packet->stream_index = video->stream->index;
        code = av_interleaved_write_frame(video->format, video->packet);
        if (code >= 0 && video->format->pb->error < 0) code = video->format->pb->error;
        if (code < 0) {
            say_av(error, error_size, "writing the MP4", code);
            return -1;
        }
    }
}

int folio_video_append(folio_video *video, const uint8_t *pixels, int stride, char *error, size_t error_size) {
    int code = av_frame_make_writable(video->frame);
    if (code < 0) {
        say_av(error, error_size, "encoding a frame", code);
        return -1;
    }
    AVFrame *frame = video->frame;
    folio_bgr0_to_yuv420(pixels, stride, frame->width, frame->height, frame->data[0], frame->linesize[0], frame->data[1],
                         frame->linesize[1], frame->data[2], frame->linesize[2]);
    video->frame->pts = video->next_pts++;
    code = avcodec_send_frame(video->codec, video->frame);
    if (code < 0) {
        say_av(error, error_size, "encoding a frame", code);
        return -1;
    }
    return drain(video, error, error_size);
}

int folio_video_finish(folio_video *video, char *error, size_t error_size) {
    int code = avcodec_send_frame(video->codec, NULL);
    if (code < 0) {
        say_av(error, error_size, "encoding a frame", code);
    } else if (drain(video, error, error_size) < 0) {
        code = -1;
    } else {
        code = av_write_trailer(video->format);
        if (code >= 0) {
            avio_flush(video->format->pb);
            if (video->format->pb->error < 0) code = video->format->pb->error;
        }
        if (code < 0) say_av(error, error_size, "writing the MP4", code);
    }
    folio_video_free(video);
    return code < 0 ? -1 : 0;
}
