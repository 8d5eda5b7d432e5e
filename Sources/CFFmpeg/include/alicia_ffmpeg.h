#ifndef ALICIA_FFMPEG_H
#define ALICIA_FFMPEG_H

#include <stdarg.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>

/* FFmpeg (libavformat, libavcodec, libavutil) is loaded on first use, never linked: Debian's
 * libavcodec pulls in about a hundred libraries (video codecs, librsvg, glib…), and a player that
 * plays WAV, FLAC and MP3 must not map or relocate any of them. Only the headers are used at build
 * time; the functions are looked up by name once, from the sonames these headers belong to, so a
 * struct layout can never disagree with the library. alicia_ffmpeg() returns NULL, with the
 * loader's reason, when a library is missing. Loaded once per process. */
typedef struct {
    AVFormatContext *(*format_alloc)(void);
    int (*open_input)(AVFormatContext **, const char *, const AVInputFormat *, AVDictionary **);
    int (*find_stream_info)(AVFormatContext *, AVDictionary **);
    int (*find_best_stream)(AVFormatContext *, enum AVMediaType, int, int, const AVCodec **, int);
    int (*read_frame)(AVFormatContext *, AVPacket *);
    int (*seek_frame)(AVFormatContext *, int, int64_t, int);
    void (*close_input)(AVFormatContext **);
    AVIOContext *(*io_alloc)(unsigned char *, int, int, void *, int (*)(void *, uint8_t *, int),
                             int (*)(void *, uint8_t *, int), int64_t (*)(void *, int64_t, int));
    void (*io_free)(AVIOContext **);
    const AVCodec *(*find_decoder)(enum AVCodecID);
    AVCodecContext *(*codec_alloc)(const AVCodec *);
    int (*parameters_to_context)(AVCodecContext *, const AVCodecParameters *);
    int (*codec_open)(AVCodecContext *, const AVCodec *, AVDictionary **);
    int (*send_packet)(AVCodecContext *, const AVPacket *);
    int (*receive_frame)(AVCodecContext *, AVFrame *);
    void (*flush_buffers)(AVCodecContext *);
    void (*codec_free)(AVCodecContext **);
    AVPacket *(*packet_alloc)(void);
    void (*packet_free)(AVPacket **);
    void (*packet_unref)(AVPacket *);
    const char *(*codec_name)(enum AVCodecID);
    AVFrame *(*frame_alloc)(void);
    void (*frame_free)(AVFrame **);
    void (*frame_unref)(AVFrame *);
    void *(*malloc)(size_t);
    void (*free)(void *);
    AVDictionaryEntry *(*dict_get)(const AVDictionary *, const char *, const AVDictionaryEntry *, int);
    void (*log_set_callback)(void (*)(void *, int, const char *, va_list));
    int (*strerror)(int, char *, size_t);
} alicia_ffmpeg_api;

/* Where FFmpeg's log lines go (the player's debug log), one formatted line at a time. */
typedef void (*alicia_ffmpeg_log_sink)(int level, const char *line);

/* The functions, loaded on the first call (thread-safe: pthread_once); NULL with the loader's
 * reason when a library is missing. `sink` receives FFmpeg's log from then on. */
const alicia_ffmpeg_api *alicia_ffmpeg(const char **reason, alicia_ffmpeg_log_sink sink);

/* Why: these are macros of expressions Swift does not import. */
int alicia_averror_eof(void);
int alicia_averror_exit(void);
int alicia_averror_eagain(void);
int alicia_averror_eio(void);
int64_t alicia_av_nopts(void);
int alicia_avseek_size(void);

#endif
