#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include "alicia_ffmpeg.h"

/* Written once, in load(), before FFmpeg can log. */
static alicia_ffmpeg_log_sink log_sink;
static alicia_ffmpeg_api api;
static const char *load_failure;
static char why[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Why: av_log's callback takes a va_list, which Swift cannot format. */
static void forward_log(void *context, int level, const char *format, va_list arguments) {
    (void)context;
    alicia_ffmpeg_log_sink sink = log_sink;
    if (level > AV_LOG_VERBOSE || !sink) return;
    char line[512];
    vsnprintf(line, sizeof line, format, arguments);
    sink(level, line);
}

#define ALICIA_STRINGIFY2(x) #x
#define ALICIA_STRINGIFY(x) ALICIA_STRINGIFY2(x)

static alicia_ffmpeg_log_sink pending_sink;

/* Why: dlopen/dlsym of a fixed set of functions, which Swift cannot cast to function types itself. */
static void load(void) {
    const char *names[3] = {
        "libavutil.so." ALICIA_STRINGIFY(LIBAVUTIL_VERSION_MAJOR),
        "libavcodec.so." ALICIA_STRINGIFY(LIBAVCODEC_VERSION_MAJOR),
        "libavformat.so." ALICIA_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR),
    };
    void *libraries[3];
    for (int i = 0; i < 3; i++) {
        libraries[i] = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (!libraries[i]) {
            snprintf(why, sizeof why, "%s", dlerror());
            load_failure = why;
            return;
        }
    }
    void *u = libraries[0], *c = libraries[1], *f = libraries[2];
#define ALICIA_LOOK(field, library, name) *(void **)(&api.field) = dlsym(library, name); if (!api.field) { snprintf(why, sizeof why, "%s has no %s", names[library == u ? 0 : library == c ? 1 : 2], name); load_failure = why; return; }
    ALICIA_LOOK(format_alloc, f, "avformat_alloc_context")
    ALICIA_LOOK(open_input, f, "avformat_open_input")
    ALICIA_LOOK(find_stream_info, f, "avformat_find_stream_info")
    ALICIA_LOOK(find_best_stream, f, "av_find_best_stream")
    ALICIA_LOOK(read_frame, f, "av_read_frame")
    ALICIA_LOOK(seek_frame, f, "av_seek_frame")
    ALICIA_LOOK(close_input, f, "avformat_close_input")
    ALICIA_LOOK(io_alloc, f, "avio_alloc_context")
    ALICIA_LOOK(io_free, f, "avio_context_free")
    ALICIA_LOOK(find_decoder, c, "avcodec_find_decoder")
    ALICIA_LOOK(codec_alloc, c, "avcodec_alloc_context3")
    ALICIA_LOOK(parameters_to_context, c, "avcodec_parameters_to_context")
    ALICIA_LOOK(codec_open, c, "avcodec_open2")
    ALICIA_LOOK(send_packet, c, "avcodec_send_packet")
    ALICIA_LOOK(receive_frame, c, "avcodec_receive_frame")
    ALICIA_LOOK(flush_buffers, c, "avcodec_flush_buffers")
    ALICIA_LOOK(codec_free, c, "avcodec_free_context")
    ALICIA_LOOK(packet_alloc, c, "av_packet_alloc")
    ALICIA_LOOK(packet_free, c, "av_packet_free")
    ALICIA_LOOK(packet_unref, c, "av_packet_unref")
    ALICIA_LOOK(codec_name, c, "avcodec_get_name")
    ALICIA_LOOK(frame_alloc, u, "av_frame_alloc")
    ALICIA_LOOK(frame_free, u, "av_frame_free")
    ALICIA_LOOK(frame_unref, u, "av_frame_unref")
    ALICIA_LOOK(malloc, u, "av_malloc")
    ALICIA_LOOK(free, u, "av_free")
    ALICIA_LOOK(dict_get, u, "av_dict_get")
    ALICIA_LOOK(log_set_callback, u, "av_log_set_callback")
    ALICIA_LOOK(strerror, u, "av_strerror")
#undef ALICIA_LOOK
    /* No single allocation of FFmpeg's over 128 MiB (its default is INT_MAX): a damaged MP4 of 3 KiB
       whose sample table claims 33 million entries made the mov demuxer ask for 805 MB (fuzzing
       found it). The largest a real podcast needs is its index: 24 bytes a packet, some 40 MB for
       ten hours of AAC. Past the cap FFmpeg fails the open with ENOMEM, which is said in words. */
    void (*max_alloc)(size_t) = NULL;
    *(void **)(&max_alloc) = dlsym(u, "av_max_alloc");
    if (max_alloc) max_alloc((size_t)128 << 20);
    log_sink = pending_sink;
    api.log_set_callback(forward_log);
}

const alicia_ffmpeg_api *alicia_ffmpeg(const char **reason, alicia_ffmpeg_log_sink sink) {
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    if (!pending_sink) pending_sink = sink;
    pthread_mutex_unlock(&lock);
    pthread_once(&once, load);
    if (load_failure) {
        if (reason) *reason = load_failure;
        return NULL;
    }
    return &api;
}

int alicia_averror_eof(void) { return AVERROR_EOF; }
int alicia_averror_exit(void) { return AVERROR_EXIT; }
int alicia_averror_eagain(void) { return AVERROR(EAGAIN); }
int alicia_averror_eio(void) { return AVERROR(EIO); }
int64_t alicia_av_nopts(void) { return AV_NOPTS_VALUE; }
int alicia_avseek_size(void) { return AVSEEK_SIZE; }

