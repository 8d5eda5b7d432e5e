#include "CMPRIS.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
/* SD_BUS_VTABLE_START refers to libsystemd's sd_bus_object_vtable_format, which a library that is
 * dlopen'ed cannot provide at link time: the vtables are built with a stand-in (sd-bus only checks
 * that the reference is set) and pointed at the real one once the library is loaded. */
#define sd_bus_object_vtable_format alicia_sd_bus_object_vtable_format
#include <systemd/sd-bus.h>
#include "alicia_sd.h"
const unsigned alicia_sd_bus_object_vtable_format = 242;

static sd_bus_vtable root_vtable[];
static sd_bus_vtable player_vtable[];

struct alicia_mpris {
    sd_bus *bus;
    alicia_mpris_handlers handlers;
};

static const char *const object_path = "/org/mpris/MediaPlayer2";
static const char *const interfaces[] = {"org.mpris.MediaPlayer2", "org.mpris.MediaPlayer2.Player"};

static int interface_index(const char *interface) {
    return strcmp(interface, interfaces[ALICIA_MPRIS_PLAYER]) == 0 ? ALICIA_MPRIS_PLAYER : ALICIA_MPRIS_ROOT;
}

static int get_property(sd_bus *bus, const char *path, const char *interface, const char *property,
                        sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus; (void)path; (void)error;
    alicia_mpris *mpris = userdata;
    return mpris->handlers.get(mpris->handlers.context, interface_index(interface), property, reply);
}

static int set_property(sd_bus *bus, const char *path, const char *interface, const char *property,
                        sd_bus_message *value, void *userdata, sd_bus_error *error) {
    (void)bus; (void)path; (void)interface; (void)error;
    alicia_mpris *mpris = userdata;
    return mpris->handlers.set(mpris->handlers.context, property, value);
}

static int call_method(sd_bus_message *message, void *userdata, int interface) {
    alicia_mpris *mpris = userdata;
    const char *member = alicia_sd.sd_bus_message_get_member(message);
    int r = mpris->handlers.call(mpris->handlers.context, interface, member ? member : "", message);
    if (r < 0) return r;
    return alicia_sd.sd_bus_reply_method_return(message, NULL);
}

static int root_method(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    return call_method(m, userdata, ALICIA_MPRIS_ROOT);
}

static int player_method(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    return call_method(m, userdata, ALICIA_MPRIS_PLAYER);
}

#define CHANGES SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE
#define READ(name, type) SD_BUS_PROPERTY(name, type, get_property, 0, CHANGES)
#define WRITE(name, type) SD_BUS_WRITABLE_PROPERTY(name, type, get_property, set_property, 0, CHANGES)

static sd_bus_vtable root_vtable[] = {
    SD_BUS_VTABLE_START(0),
    READ("CanQuit", "b"),
    READ("CanRaise", "b"),
    READ("HasTrackList", "b"),
    READ("Identity", "s"),
    READ("SupportedUriSchemes", "as"),
    READ("SupportedMimeTypes", "as"),
    SD_BUS_METHOD("Raise", "", "", root_method, 0),
    SD_BUS_METHOD("Quit", "", "", root_method, 0),
    SD_BUS_VTABLE_END,
};

static sd_bus_vtable player_vtable[] = {
    SD_BUS_VTABLE_START(0),
    READ("PlaybackStatus", "s"),
    WRITE("LoopStatus", "s"),
    WRITE("Rate", "d"),
    READ("Metadata", "a{sv}"),
    WRITE("Volume", "d"),
    /* Never announced: clients extrapolate it from Rate and the Seeked signal. */
    SD_BUS_PROPERTY("Position", "x", get_property, 0, 0),
    READ("MinimumRate", "d"),
    READ("MaximumRate", "d"),
    READ("CanGoNext", "b"),
    READ("CanGoPrevious", "b"),
    READ("CanPlay", "b"),
    READ("CanPause", "b"),
    READ("CanSeek", "b"),
    SD_BUS_PROPERTY("CanControl", "b", get_property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_METHOD("Next", "", "", player_method, 0),
    SD_BUS_METHOD("Previous", "", "", player_method, 0),
    SD_BUS_METHOD("Pause", "", "", player_method, 0),
    SD_BUS_METHOD("PlayPause", "", "", player_method, 0),
    SD_BUS_METHOD("Stop", "", "", player_method, 0),
    SD_BUS_METHOD("Play", "", "", player_method, 0),
    SD_BUS_METHOD("Seek", "x", "", player_method, 0),
    SD_BUS_METHOD("SetPosition", "ox", "", player_method, 0),
    SD_BUS_METHOD("OpenUri", "s", "", player_method, 0),
    SD_BUS_SIGNAL("Seeked", "x", 0),
    SD_BUS_VTABLE_END,
};

int alicia_mpris_open(const alicia_mpris_handlers *handlers, const char *base, alicia_mpris **out,
                      char *name, size_t name_size, char *why, size_t why_size) {
    *out = NULL;
    int r = alicia_sd_load(why, why_size);
    if (r < 0) return r;
    if (alicia_sd.vtable_format) {
        root_vtable[0].x.start.vtable_format_reference = alicia_sd.vtable_format;
        player_vtable[0].x.start.vtable_format_reference = alicia_sd.vtable_format;
    }
    alicia_mpris *mpris = calloc(1, sizeof *mpris);
    if (!mpris) return -ENOMEM;
    mpris->handlers = *handlers;
    r = alicia_sd.sd_bus_open_user(&mpris->bus);
    if (r < 0) {
        snprintf(why, why_size, "no session bus (%s)", strerror(-r));
        free(mpris);
        return r;
    }
    r = alicia_sd.sd_bus_add_object_vtable(mpris->bus, NULL, object_path, interfaces[ALICIA_MPRIS_ROOT], root_vtable, mpris);
    if (r >= 0)
        r = alicia_sd.sd_bus_add_object_vtable(mpris->bus, NULL, object_path, interfaces[ALICIA_MPRIS_PLAYER], player_vtable, mpris);
    if (r < 0) {
        snprintf(why, why_size, "cannot export the MPRIS objects (%s)", strerror(-r));
        alicia_mpris_close(mpris);
        return r;
    }
    snprintf(name, name_size, "org.mpris.MediaPlayer2.%s", base);
    r = alicia_sd.sd_bus_request_name(mpris->bus, name, 0);
    if (r == -EEXIST) {
        snprintf(name, name_size, "org.mpris.MediaPlayer2.%s.instance%ld", base, (long)getpid());
        r = alicia_sd.sd_bus_request_name(mpris->bus, name, 0);
    }
    if (r < 0) {
        snprintf(why, why_size, "cannot take the name %s (%s)", name, strerror(-r));
        alicia_mpris_close(mpris);
        return r;
    }
    *out = mpris;
    return 0;
}

void alicia_mpris_close(alicia_mpris *mpris) {
    if (!mpris) return;
    if (mpris->bus) alicia_sd.sd_bus_flush_close_unref(mpris->bus);
    free(mpris);
}

int alicia_mpris_fd(alicia_mpris *mpris) { return alicia_sd.sd_bus_get_fd(mpris->bus); }

short alicia_mpris_events(alicia_mpris *mpris) {
    int events = alicia_sd.sd_bus_get_events(mpris->bus);
    return events < 0 ? POLLIN : (short)events;
}

int alicia_mpris_timeout_ms(alicia_mpris *mpris) {
    uint64_t at = 0;
    if (alicia_sd.sd_bus_get_timeout(mpris->bus, &at) <= 0 || at == UINT64_MAX) return -1;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    uint64_t now_us = (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
    if (at <= now_us) return 0;
    uint64_t ms = (at - now_us + 999) / 1000;
    return ms > 60000 ? 60000 : (int)ms;
}

int alicia_mpris_process(alicia_mpris *mpris) {
    /* Bounded: a flood of calls cannot hold the control thread. */
    for (int i = 0; i < 256; i++) {
        int r = alicia_sd.sd_bus_process(mpris->bus, NULL);
        if (r <= 0) return r;
    }
    return 0;
}

int alicia_mpris_changed(alicia_mpris *mpris, int interface, const char **names) {
    return alicia_sd.sd_bus_emit_properties_changed_strv(mpris->bus, object_path, interfaces[interface], (char **)names);
}

int alicia_mpris_seeked(alicia_mpris *mpris, int64_t position_us) {
    sd_bus_message *m = NULL;
    int r = alicia_sd.sd_bus_message_new_signal(mpris->bus, &m, object_path, interfaces[ALICIA_MPRIS_PLAYER], "Seeked");
    if (r >= 0) r = alicia_sd.sd_bus_message_append_basic(m, 'x', &position_us);
    if (r >= 0) r = alicia_sd.sd_bus_send(mpris->bus, m, NULL);
    if (m) alicia_sd.sd_bus_message_unref(m);
    return r;
}

int alicia_mpris_append_string(sd_bus_message *m, const char *value) {
    return alicia_sd.sd_bus_message_append_basic(m, 's', value);
}

int alicia_mpris_append_bool(sd_bus_message *m, int value) {
    int b = value != 0;
    return alicia_sd.sd_bus_message_append_basic(m, 'b', &b);
}

int alicia_mpris_append_double(sd_bus_message *m, double value) {
    return alicia_sd.sd_bus_message_append_basic(m, 'd', &value);
}

int alicia_mpris_append_int64(sd_bus_message *m, int64_t value) {
    return alicia_sd.sd_bus_message_append_basic(m, 'x', &value);
}

int alicia_mpris_append_strings(sd_bus_message *m, const char *const *values, size_t count) {
    int r = alicia_sd.sd_bus_message_open_container(m, 'a', "s");
    for (size_t i = 0; r >= 0 && i < count; i++) r = alicia_sd.sd_bus_message_append_basic(m, 's', values[i]);
    return r < 0 ? r : alicia_sd.sd_bus_message_close_container(m);
}

/* One {sv} entry of a dictionary: the key, then the value in a variant of `type`. */
static int append_entry(sd_bus_message *m, const char *key, char type, const void *value) {
    char contents[2] = {type, 0};
    int r = alicia_sd.sd_bus_message_open_container(m, 'e', "sv");
    if (r >= 0) r = alicia_sd.sd_bus_message_append_basic(m, 's', key);
    if (r >= 0) r = alicia_sd.sd_bus_message_open_container(m, 'v', contents);
    if (r >= 0) r = alicia_sd.sd_bus_message_append_basic(m, type, value);
    if (r >= 0) r = alicia_sd.sd_bus_message_close_container(m);
    if (r >= 0) r = alicia_sd.sd_bus_message_close_container(m);
    return r;
}

int alicia_mpris_append_metadata(sd_bus_message *m, const alicia_mpris_track *track) {
    int r = alicia_sd.sd_bus_message_open_container(m, 'a', "{sv}");
    if (r >= 0 && track->track_id) r = append_entry(m, "mpris:trackid", 'o', track->track_id);
    if (r >= 0 && track->length_us >= 0) r = append_entry(m, "mpris:length", 'x', &track->length_us);
    if (r >= 0 && track->title) r = append_entry(m, "xesam:title", 's', track->title);
    if (r >= 0 && track->album) r = append_entry(m, "xesam:album", 's', track->album);
    if (r >= 0 && track->artist) {
        /* xesam:artist is a list of names. */
        r = alicia_sd.sd_bus_message_open_container(m, 'e', "sv");
        if (r >= 0) r = alicia_sd.sd_bus_message_append_basic(m, 's', "xesam:artist");
        if (r >= 0) r = alicia_sd.sd_bus_message_open_container(m, 'v', "as");
        if (r >= 0) r = alicia_mpris_append_strings(m, &track->artist, 1);
        if (r >= 0) r = alicia_sd.sd_bus_message_close_container(m);
        if (r >= 0) r = alicia_sd.sd_bus_message_close_container(m);
    }
    if (r >= 0 && track->url) r = append_entry(m, "xesam:url", 's', track->url);
    if (r >= 0 && track->art_url) r = append_entry(m, "mpris:artUrl", 's', track->art_url);
    return r < 0 ? r : alicia_sd.sd_bus_message_close_container(m);
}

int alicia_mpris_read_int64(sd_bus_message *m, int64_t *value) { return alicia_sd.sd_bus_message_read_basic(m, 'x', value); }

int alicia_mpris_read_double(sd_bus_message *m, double *value) { return alicia_sd.sd_bus_message_read_basic(m, 'd', value); }

int alicia_mpris_read_bool(sd_bus_message *m, int *value) { return alicia_sd.sd_bus_message_read_basic(m, 'b', value); }

int alicia_mpris_read_string(sd_bus_message *m, char type, const char **value) {
    return alicia_sd.sd_bus_message_read_basic(m, type, value);
}
