#include "video_probe.h"

#include <stdio.h>
#include <string.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

static int fail(char *error, size_t size, const char *what, int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {0};
    av_strerror(code, text, sizeof text);
    snprintf(error, size, "%s: %s", what, text);
    return -1;
}

/// Converts `frame` to blue-green-red-255 pixels in `last`, as the stream's tags say.
static void keep(const AVFrame *frame, const AVCodecContext *codec, uint8_t *last) {
    struct SwsContext *scale = sws_getContext(frame->width, frame->height, frame->format, frame->width, frame->height,
                                              AV_PIX_FMT_BGR0, SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, NULL, NULL, NULL);
    if (!scale) return;
    int matrix = codec->colorspace == AVCOL_SPC_BT709 ? SWS_CS_ITU709 : SWS_CS_DEFAULT;
    sws_setColorspaceDetails(scale, sws_getCoefficients(matrix), codec->color_range == AVCOL_RANGE_JPEG,
                             sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16);
    uint8_t *planes[1] = {last};
    int strides[1] = {frame->width * 4};
    sws_scale(scale, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, planes, strides);
    sws_freeContext(scale);
}

int folio_probe_video(const char *path, folio_video_probe *probe, uint8_t *last, size_t capacity, char *error, size_t error_size) {
    memset(probe, 0, sizeof *probe);
    AVFormatContext *format = NULL;
    int code = avformat_open_input(&format, path, NULL, NULL);
    if (code < 0) return fail(error, error_size, "open", code);
    code = avformat_find_stream_info(format, NULL);
    int stream = code < 0 ? code : av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
    if (stream < 0) {
        avformat_close_input(&format);
        return fail(error, error_size, "no video stream", stream);
    }
    AVStream *video = format->streams[stream];
    const AVCodec *decoder = avcodec_find_decoder(video->codecpar->codec_id);
    AVCodecContext *codec = avcodec_alloc_context3(decoder);
    avcodec_parameters_to_context(codec, video->codecpar);
    code = avcodec_open2(codec, decoder, NULL);
    if (code < 0) {
        avcodec_free_context(&codec);
        avformat_close_input(&format);
        return fail(error, error_size, "decoder", code);
    }
    probe->width = codec->width;
    probe->height = codec->height;
    probe->duration = format->duration > 0 ? (double)format->duration / AV_TIME_BASE : 0;
    probe->fps = av_q2d(video->avg_frame_rate);
    snprintf(probe->codec, sizeof probe->codec, "%s", decoder->name);
    snprintf(probe->pixel_format, sizeof probe->pixel_format, "%s", av_get_pix_fmt_name(codec->pix_fmt));
    int fits = last && capacity >= (size_t)codec->width * (size_t)codec->height * 4;
    AVPacket *packet = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    int draining = 0;
    while (code >= 0) {
        if (!draining) {
            code = av_read_frame(format, packet);
            if (code == AVERROR_EOF) {
                draining = 1;
                code = avcodec_send_packet(codec, NULL);
            } else if (code >= 0) {
                if (packet->stream_index == stream) code = avcodec_send_packet(codec, packet);
                av_packet_unref(packet);
            }
            if (code < 0) break;
        }
        for (;;) {
            code = avcodec_receive_frame(codec, frame);
            if (code == AVERROR(EAGAIN)) {
                code = 0;
                break;
            }
            if (code < 0) break;
            probe->frames += 1;
            if (fits) keep(frame, codec, last);
            av_frame_unref(frame);
        }
        if (draining && code == AVERROR_EOF) break;
        if (draining && code == 0) continue;
    }
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&codec);
    avformat_close_input(&format);
    if (code < 0 && code != AVERROR_EOF) return fail(error, error_size, "decode", code);
    return 0;
}
