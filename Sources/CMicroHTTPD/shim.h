#ifndef ALICIA_CMICROHTTPD_SHIM_H
#define ALICIA_CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

// MHD_start_daemon takes its options as a variadic list, which Swift cannot
// call: this adapter passes the demo backend's fixed option set with the C types
// libmicrohttpd reads for each option.
static inline struct MHD_Daemon *alicia_mhd_start(
    unsigned int flags,
    const struct sockaddr_in *address,
    unsigned int connection_timeout_seconds,
    MHD_AccessHandlerCallback handler, void *handler_cls,
    MHD_RequestCompletedCallback completed, void *completed_cls,
    void *(*uri_logger)(void *cls, const char *uri, struct MHD_Connection *connection),
    void *uri_logger_cls)
{
    return MHD_start_daemon(
        flags, ntohs(address->sin_port), NULL, NULL, handler, handler_cls,
        MHD_OPTION_SOCK_ADDR, (const struct sockaddr *) address,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
        MHD_OPTION_URI_LOG_CALLBACK, uri_logger, uri_logger_cls,
        MHD_OPTION_END);
}

// MHD_get_daemon_info is variadic and answers with a union: read the one field
// we need, the port the kernel chose when we bound to port 0.
static inline uint16_t alicia_mhd_bound_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

// The content-reader results are macros with casts, which Swift does not import.
static inline ssize_t alicia_mhd_reader_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
static inline ssize_t alicia_mhd_reader_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }

// MHD_SIZE_UNKNOWN is a macro with a cast: the size that makes a response chunked.
static inline uint64_t alicia_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }

#endif
