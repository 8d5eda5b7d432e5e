#ifndef ALICIA_CMPRIS_H
#define ALICIA_CMPRIS_H

/* MPRIS over sd-bus for alicia-player: the object vtables (written with sd-bus's own macros, which
 * Swift cannot expand) and non-variadic wrappers for what the Swift side appends and reads.
 * libsystemd is dlopen'ed by alicia_mpris_open: a player without a session bus never maps it. */

#include <stddef.h>
#include <stdint.h>

typedef struct sd_bus_message sd_bus_message;
typedef struct alicia_mpris alicia_mpris;

enum { ALICIA_MPRIS_ROOT = 0, ALICIA_MPRIS_PLAYER = 1 };

/* The Swift side's answers, called on the thread that calls alicia_mpris_process. Each returns 0
 * or a negative errno (which sd-bus turns into an error reply). `call` returns 0 for an empty
 * reply. */
typedef struct alicia_mpris_handlers {
    void *context;
    int (*get)(void *context, int interface, const char *property, sd_bus_message *reply);
    int (*set)(void *context, const char *property, sd_bus_message *value);
    int (*call)(void *context, int interface, const char *method, sd_bus_message *message);
} alicia_mpris_handlers;

/* What Metadata holds; NULL or a negative length leaves a key out. */
typedef struct alicia_mpris_track {
    const char *track_id;
    int64_t length_us;
    const char *title;
    const char *album;
    const char *artist;
    const char *url;
    const char *art_url;
} alicia_mpris_track;

/* Loads libsystemd, connects to the session bus, exports the objects and takes the name
 * org.mpris.MediaPlayer2.<base> (or <base>.instance<pid> when taken). Returns 0 and the name,
 * or a negative errno and in `why` what failed. */
int alicia_mpris_open(const alicia_mpris_handlers *handlers, const char *base, alicia_mpris **out,
                      char *name, size_t name_size, char *why, size_t why_size);
void alicia_mpris_close(alicia_mpris *mpris);

/* For poll: the descriptor, the events to wait for, and the milliseconds until sd-bus needs to
 * run again (-1: no timer). */
int alicia_mpris_fd(alicia_mpris *mpris);
short alicia_mpris_events(alicia_mpris *mpris);
int alicia_mpris_timeout_ms(alicia_mpris *mpris);
/* Handles everything pending; a negative errno when the connection is gone. */
int alicia_mpris_process(alicia_mpris *mpris);

/* PropertiesChanged for `names` (NULL-terminated) of one interface. */
int alicia_mpris_changed(alicia_mpris *mpris, int interface, const char **names);
/* org.mpris.MediaPlayer2.Player.Seeked(position in µs). */
int alicia_mpris_seeked(alicia_mpris *mpris, int64_t position_us);

int alicia_mpris_append_string(sd_bus_message *m, const char *value);
int alicia_mpris_append_bool(sd_bus_message *m, int value);
int alicia_mpris_append_double(sd_bus_message *m, double value);
int alicia_mpris_append_int64(sd_bus_message *m, int64_t value);
int alicia_mpris_append_strings(sd_bus_message *m, const char *const *values, size_t count);
int alicia_mpris_append_metadata(sd_bus_message *m, const alicia_mpris_track *track);

int alicia_mpris_read_int64(sd_bus_message *m, int64_t *value);
int alicia_mpris_read_double(sd_bus_message *m, double *value);
int alicia_mpris_read_bool(sd_bus_message *m, int *value);
/* A string or an object path (the pointer is valid while the message is). */
int alicia_mpris_read_string(sd_bus_message *m, char type, const char **value);

#endif
