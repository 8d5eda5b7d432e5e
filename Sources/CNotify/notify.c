#define _GNU_SOURCE
#include "CNotify.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <systemd/sd-bus.h>
#include "alicia_sd.h"

/* Signals wait here between sd_bus_process (which calls on_signal) and alicia_notify_next; more
 * than 16 unread at once (a flood from some process) drops the newest. */
enum { QUEUE_SIZE = 16 };

struct alicia_notify {
    sd_bus *bus;
    alicia_notify_signal queue[QUEUE_SIZE];
    size_t head, count;
};

static const char *const service = "org.freedesktop.Notifications";
static const char *const object_path = "/org/freedesktop/Notifications";

static void copy(char *to, size_t size, const char *from) {
    snprintf(to, size, "%s", from ? from : "");
}

static void say(char *why, size_t why_size, const char *what, int r, const sd_bus_error *error) {
    if (error && error->name) {
        snprintf(why, why_size, "%s: %s%s%s", what, error->name, error->message ? ": " : "",
                 error->message ? error->message : "");
    } else {
        snprintf(why, why_size, "%s: %s", what, strerror(r < 0 ? -r : r));
    }
}

static int on_signal(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    alicia_notify *notify = userdata;
    const char *member = alicia_sd.sd_bus_message_get_member(m);
    if (!member || notify->count == QUEUE_SIZE) return 0;
    alicia_notify_signal signal;
    memset(&signal, 0, sizeof signal);
    if (strcmp(member, "ActionInvoked") == 0) {
        const char *action = NULL;
        if (alicia_sd.sd_bus_message_read(m, "us", &signal.id, &action) < 0) return 0;
        signal.kind = ALICIA_NOTIFY_ACTION;
        copy(signal.action, sizeof signal.action, action);
    } else if (strcmp(member, "NotificationClosed") == 0) {
        if (alicia_sd.sd_bus_message_read(m, "uu", &signal.id, &signal.reason) < 0) return 0;
        signal.kind = ALICIA_NOTIFY_CLOSED;
    } else {
        return 0;
    }
    copy(signal.sender, sizeof signal.sender, alicia_sd.sd_bus_message_get_sender(m));
    notify->queue[(notify->head + notify->count) % QUEUE_SIZE] = signal;
    notify->count += 1;
    return 0;
}

int alicia_notify_open(alicia_notify **out, char *why, size_t why_size) {
    *out = NULL;
    int r = alicia_sd_load(why, why_size);
    if (r < 0) return r;
    alicia_notify *notify = calloc(1, sizeof *notify);
    if (!notify) return -ENOMEM;
    r = alicia_sd.sd_bus_open_user(&notify->bus);
    if (r < 0) {
        say(why, why_size, "no session bus", r, NULL);
        free(notify);
        return r;
    }
    /* Floating slot: the match lives as long as the connection. */
    r = alicia_sd.sd_bus_add_match(notify->bus, NULL,
                            "type='signal',interface='org.freedesktop.Notifications',"
                            "path='/org/freedesktop/Notifications'",
                            on_signal, notify);
    if (r < 0) {
        say(why, why_size, "cannot subscribe to the notification signals", r, NULL);
        alicia_notify_close(notify);
        return r;
    }
    *out = notify;
    return 0;
}

void alicia_notify_close(alicia_notify *notify) {
    if (!notify) return;
    if (notify->bus) alicia_sd.sd_bus_flush_close_unref(notify->bus);
    free(notify);
}

int alicia_notify_capabilities(alicia_notify *notify, int *actions, int *sound, char *why, size_t why_size) {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    *actions = 0;
    *sound = 0;
    int r = alicia_sd.sd_bus_call_method(notify->bus, service, object_path, service, "GetCapabilities", &error, &reply, "");
    if (r < 0) {
        say(why, why_size, "no notification server", r, &error);
        alicia_sd.sd_bus_error_free(&error);
        return r;
    }
    r = alicia_sd.sd_bus_message_enter_container(reply, 'a', "s");
    const char *capability = NULL;
    while (r >= 0 && (r = alicia_sd.sd_bus_message_read_basic(reply, 's', &capability)) > 0) {
        if (strcmp(capability, "actions") == 0) *actions = 1;
        if (strcmp(capability, "sound") == 0) *sound = 1;
    }
    alicia_sd.sd_bus_message_unref(reply);
    if (r < 0) say(why, why_size, "GetCapabilities' reply is not a list of names", r, NULL);
    return r < 0 ? r : 0;
}

int alicia_notify_owner(alicia_notify *notify, char *owner, size_t owner_size, char *why, size_t why_size) {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    int r = alicia_sd.sd_bus_call_method(notify->bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                  "org.freedesktop.DBus", "GetNameOwner", &error, &reply, "s", service);
    if (r < 0) {
        say(why, why_size, "no notification server", r, &error);
        alicia_sd.sd_bus_error_free(&error);
        return r;
    }
    const char *name = NULL;
    r = alicia_sd.sd_bus_message_read(reply, "s", &name);
    if (r >= 0) copy(owner, owner_size, name);
    alicia_sd.sd_bus_message_unref(reply);
    return r < 0 ? r : 0;
}

static int append_hints(sd_bus_message *m, uint8_t urgency, const char *sound) {
    int r = alicia_sd.sd_bus_message_open_container(m, 'a', "{sv}");
    if (r >= 0) r = alicia_sd.sd_bus_message_append(m, "{sv}", "desktop-entry", "s", "alicia-player");
    if (r >= 0) r = alicia_sd.sd_bus_message_append(m, "{sv}", "urgency", "y", urgency);
    if (r >= 0 && sound) r = alicia_sd.sd_bus_message_append(m, "{sv}", "sound-name", "s", sound);
    if (r >= 0) r = alicia_sd.sd_bus_message_close_container(m);
    return r;
}

int alicia_notify_send(alicia_notify *notify, const char *icon, const char *summary, const char *body,
                       const char *const *actions, size_t action_count, uint8_t urgency, const char *sound,
                       uint32_t *id, char *why, size_t why_size) {
    sd_bus_message *m = NULL, *reply = NULL;
    sd_bus_error error = SD_BUS_ERROR_NULL;
    char *list[action_count + 1];
    for (size_t i = 0; i < action_count; i++) list[i] = (char *)actions[i];
    list[action_count] = NULL;
    int r = alicia_sd.sd_bus_message_new_method_call(notify->bus, &m, service, object_path, service, "Notify");
    if (r >= 0) r = alicia_sd.sd_bus_message_append(m, "susss", "alicia-player", (uint32_t)0, icon, summary, body);
    if (r >= 0) r = alicia_sd.sd_bus_message_append_strv(m, list);
    if (r >= 0) r = append_hints(m, urgency, sound);
    if (r >= 0) r = alicia_sd.sd_bus_message_append(m, "i", (int32_t)-1);
    if (r < 0) {
        say(why, why_size, "cannot build the notification", r, NULL);
    } else if ((r = alicia_sd.sd_bus_call(notify->bus, m, 0, &error, &reply)) < 0) {
        say(why, why_size, "the notification server refused the notification", r, &error);
    } else if ((r = alicia_sd.sd_bus_message_read(reply, "u", id)) < 0) {
        say(why, why_size, "Notify's reply has no id", r, NULL);
    }
    alicia_sd.sd_bus_error_free(&error);
    if (reply) alicia_sd.sd_bus_message_unref(reply);
    if (m) alicia_sd.sd_bus_message_unref(m);
    return r < 0 ? r : 0;
}

/* Runs sd_bus_process until it has nothing more to do. */
static int process_all(alicia_notify *notify) {
    int r;
    while ((r = alicia_sd.sd_bus_process(notify->bus, NULL)) > 0) {}
    return r;
}

int alicia_notify_wait(alicia_notify *notify, int timeout_ms) {
    int r = process_all(notify);
    if (r < 0) return r;
    if (notify->count > 0) return 1;
    struct pollfd fd = {.fd = alicia_sd.sd_bus_get_fd(notify->bus), .events = (short)alicia_sd.sd_bus_get_events(notify->bus)};
    if (fd.fd < 0) return fd.fd;
    /* sd-bus's own deadline (a pending call's timeout) when it comes first. */
    uint64_t at = 0;
    int wait = timeout_ms;
    if (alicia_sd.sd_bus_get_timeout(notify->bus, &at) > 0 && at != UINT64_MAX) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        uint64_t now_us = (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
        int bus_ms = at > now_us ? (int)((at - now_us + 999) / 1000) : 0;
        if (wait < 0 || bus_ms < wait) wait = bus_ms;
    }
    struct timespec span = {.tv_sec = wait / 1000, .tv_nsec = (long)(wait % 1000) * 1000000L};
    r = ppoll(&fd, 1, wait < 0 ? NULL : &span, NULL);
    if (r < 0 && errno != EINTR) return -errno;
    r = process_all(notify);
    if (r < 0) return r;
    return notify->count > 0 ? 1 : 0;
}

int alicia_notify_next(alicia_notify *notify, alicia_notify_signal *out) {
    if (notify->count == 0) return 0;
    *out = notify->queue[notify->head];
    notify->head = (notify->head + 1) % QUEUE_SIZE;
    notify->count -= 1;
    return 1;
}
