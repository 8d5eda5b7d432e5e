#ifndef ALICIA_SD_H
#define ALICIA_SD_H

#include <stddef.h>
#include <systemd/sd-bus.h>

/* The functions of libsystemd's sd-bus that MPRIS (CMPRIS) and desktop notifications (CNotify) use:
 * one table for the process, loaded once for both. */
#define ALICIA_SD_FUNCTIONS(X)                 \
    X(sd_bus_add_match)                     \
    X(sd_bus_add_object_vtable)             \
    X(sd_bus_call)                          \
    X(sd_bus_call_method)                   \
    X(sd_bus_emit_properties_changed_strv)  \
    X(sd_bus_error_free)                    \
    X(sd_bus_flush_close_unref)             \
    X(sd_bus_get_events)                    \
    X(sd_bus_get_fd)                        \
    X(sd_bus_get_timeout)                   \
    X(sd_bus_message_append)                \
    X(sd_bus_message_append_basic)          \
    X(sd_bus_message_append_strv)           \
    X(sd_bus_message_close_container)       \
    X(sd_bus_message_enter_container)       \
    X(sd_bus_message_exit_container)        \
    X(sd_bus_message_get_member)            \
    X(sd_bus_message_get_sender)            \
    X(sd_bus_message_new_method_call)       \
    X(sd_bus_message_new_signal)            \
    X(sd_bus_message_open_container)        \
    X(sd_bus_message_read)                  \
    X(sd_bus_message_read_basic)            \
    X(sd_bus_message_unref)                 \
    X(sd_bus_open_user)                     \
    X(sd_bus_process)                       \
    X(sd_bus_reply_method_return)           \
    X(sd_bus_request_name)                  \
    X(sd_bus_send)

struct alicia_sd_functions {
#define ALICIA_SD_FIELD(name) __typeof__(name) *name;
    ALICIA_SD_FUNCTIONS(ALICIA_SD_FIELD)
#undef ALICIA_SD_FIELD
    /* libsystemd's sd_bus_object_vtable_format, which an object vtable must point at (see mpris.c). */
    const unsigned *vtable_format;
};

/* Filled by alicia_sd_load; read only after it returned 0. */
extern struct alicia_sd_functions alicia_sd;

/* Why: libsystemd is dlopen'ed when a session bus is first used, so a player without one never maps
 * it, and Swift cannot cast dlsym's pointers to function types. Loads it once for the process, from
 * any thread: 0, or -ENOENT with the reason in `why`. */
int alicia_sd_load(char *why, size_t why_size);

#endif
