#ifndef ALICIA_CNOTIFY_H
#define ALICIA_CNOTIFY_H

/* Desktop notifications (org.freedesktop.Notifications) over sd-bus for alicia-player's watcher:
 * sd-bus's message building and reading are variadic, which Swift cannot call, so the few calls the
 * watcher makes are written here. libsystemd is dlopen'ed by alicia_notify_open, as for MPRIS. */

#include <stddef.h>
#include <stdint.h>

typedef struct alicia_notify alicia_notify;

enum { ALICIA_NOTIFY_ACTION = 1, ALICIA_NOTIFY_CLOSED = 2 };

/* One ActionInvoked or NotificationClosed signal as it came, with the unique name that sent it. */
typedef struct alicia_notify_signal {
    int kind;
    uint32_t id;
    uint32_t reason;
    char sender[256];
    char action[128];
} alicia_notify_signal;

/* Loads libsystemd, connects to the session bus and subscribes to the server's two signals (a
 * match rule). Returns 0, or a negative errno and in `why` what failed. */
int alicia_notify_open(alicia_notify **out, char *why, size_t why_size);
void alicia_notify_close(alicia_notify *notify);

/* GetCapabilities: whether the server lists "actions" and "sound". */
int alicia_notify_capabilities(alicia_notify *notify, int *actions, int *sound, char *why, size_t why_size);
/* GetNameOwner(org.freedesktop.Notifications): the unique name that may send the signals. */
int alicia_notify_owner(alicia_notify *notify, char *owner, size_t owner_size, char *why, size_t why_size);
/* Notify("alicia-player", 0, icon, summary, body, actions, {desktop-entry, urgency[, sound-name]}, -1).
 * `actions` holds key, label, key, label…; `sound` NULL leaves the hint out. */
int alicia_notify_send(alicia_notify *notify, const char *icon, const char *summary, const char *body,
                       const char *const *actions, size_t action_count, uint8_t urgency, const char *sound,
                       uint32_t *id, char *why, size_t why_size);

/* Waits (one ppoll on the bus descriptor) at most `timeout_ms` (-1: no limit) for the bus to have
 * something, then handles it. 1 when a signal is waiting for alicia_notify_next, 0 when not, a
 * negative errno when the connection is gone. */
int alicia_notify_wait(alicia_notify *notify, int timeout_ms);
/* The oldest signal received and not taken yet: 1 and `out`, or 0. */
int alicia_notify_next(alicia_notify *notify, alicia_notify_signal *out);

#endif
