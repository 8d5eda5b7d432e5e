#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include "alicia_mhd.h"

/* Written once, in load(), under pthread_once; read only after it. */
static struct {
    __typeof__(MHD_start_daemon) *start_daemon;
    __typeof__(MHD_stop_daemon) *stop_daemon;
    __typeof__(MHD_get_daemon_info) *get_daemon_info;
    __typeof__(MHD_get_connection_values) *get_connection_values;
    __typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
    __typeof__(MHD_create_response_from_callback) *create_response_from_callback;
    __typeof__(MHD_add_response_header) *add_response_header;
    __typeof__(MHD_queue_response) *queue_response;
    __typeof__(MHD_destroy_response) *destroy_response;
} api;
static const char *load_failure;
static char why[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Why: dlopen/dlsym of a fixed set of functions, which Swift cannot cast to function types itself. */
static void load(void) {
    void *library = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(why, sizeof why, "%s", dlerror());
        load_failure = why;
        return;
    }
#define ALICIA_LOOK(field, name) *(void **)(&api.field) = dlsym(library, name); if (!api.field) { snprintf(why, sizeof why, "libmicrohttpd.so.12 has no %s", name); load_failure = why; return; }
    ALICIA_LOOK(start_daemon, "MHD_start_daemon")
    ALICIA_LOOK(stop_daemon, "MHD_stop_daemon")
    ALICIA_LOOK(get_daemon_info, "MHD_get_daemon_info")
    ALICIA_LOOK(get_connection_values, "MHD_get_connection_values")
    ALICIA_LOOK(create_response_from_buffer, "MHD_create_response_from_buffer")
    ALICIA_LOOK(create_response_from_callback, "MHD_create_response_from_callback")
    ALICIA_LOOK(add_response_header, "MHD_add_response_header")
    ALICIA_LOOK(queue_response, "MHD_queue_response")
    ALICIA_LOOK(destroy_response, "MHD_destroy_response")
#undef ALICIA_LOOK
}

const char *alicia_mhd_load(void) {
    pthread_once(&once, load);
    return load_failure;
}

struct MHD_Daemon *alicia_mhd_start(unsigned int flags, const struct sockaddr_in *address, unsigned int connection_timeout_seconds,
        MHD_AccessHandlerCallback handler, MHD_RequestCompletedCallback completed,
        void *(*uri_logger)(void *cls, const char *uri, struct MHD_Connection *connection), void *cls) {
    if (alicia_mhd_load()) return NULL;
    return api.start_daemon(
        flags, ntohs(address->sin_port), NULL, NULL, handler, cls,
        MHD_OPTION_SOCK_ADDR, (const struct sockaddr *) address,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
        MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
        MHD_OPTION_URI_LOG_CALLBACK, uri_logger, cls,
        MHD_OPTION_END);
}

uint16_t alicia_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = api.get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

void alicia_mhd_stop_daemon(struct MHD_Daemon *daemon) { api.stop_daemon(daemon); }
int alicia_mhd_get_connection_values(struct MHD_Connection *connection, enum MHD_ValueKind kind,
                                     MHD_KeyValueIterator iterator, void *iterator_cls) {
    return api.get_connection_values(connection, kind, iterator, iterator_cls);
}
struct MHD_Response *alicia_mhd_create_response_from_buffer(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode) {
    return api.create_response_from_buffer(size, buffer, mode);
}
struct MHD_Response *alicia_mhd_create_response_from_callback(uint64_t size, size_t block_size, MHD_ContentReaderCallback crc,
                                                              void *crc_cls, MHD_ContentReaderFreeCallback crfc) {
    return api.create_response_from_callback(size, block_size, crc, crc_cls, crfc);
}
enum MHD_Result alicia_mhd_add_response_header(struct MHD_Response *response, const char *header, const char *content) {
    return api.add_response_header(response, header, content);
}
enum MHD_Result alicia_mhd_queue_response(struct MHD_Connection *connection, unsigned int status_code, struct MHD_Response *response) {
    return api.queue_response(connection, status_code, response);
}
void alicia_mhd_destroy_response(struct MHD_Response *response) { api.destroy_response(response); }
