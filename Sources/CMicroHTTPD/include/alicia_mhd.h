#ifndef ALICIA_MHD_H
#define ALICIA_MHD_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/* libmicrohttpd is loaded when the demo backend starts, never linked: it brings GnuTLS and its
 * libraries (p11-kit, nettle, gmp…), whose mapping and initialisers cost every start 4 ms, and only
 * `demo` and the tests serve HTTP. alicia_mhd_load() says why it could not be loaded (NULL:
 * loaded); the other functions here need it to have succeeded. */
const char *alicia_mhd_load(void);

/* MHD_start_daemon takes its options as a variadic list, which Swift cannot call: this adapter
 * passes the demo backend's fixed option set with the C types libmicrohttpd reads for each option;
 * the three callbacks share one context, `cls`. */
struct MHD_Daemon *alicia_mhd_start(unsigned int flags, const struct sockaddr_in *address, unsigned int connection_timeout_seconds,
                                    MHD_AccessHandlerCallback handler, MHD_RequestCompletedCallback completed,
                                    void *(*uri_logger)(void *cls, const char *uri, struct MHD_Connection *connection), void *cls);

/* MHD_get_daemon_info is variadic and answers with a union: the one field needed, the port the
 * kernel chose when bound to port 0. */
uint16_t alicia_mhd_bound_port(struct MHD_Daemon *daemon);

void alicia_mhd_stop_daemon(struct MHD_Daemon *daemon);
int alicia_mhd_get_connection_values(struct MHD_Connection *connection, enum MHD_ValueKind kind,
                                     MHD_KeyValueIterator iterator, void *iterator_cls);
struct MHD_Response *alicia_mhd_create_response_from_buffer(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode);
struct MHD_Response *alicia_mhd_create_response_from_callback(uint64_t size, size_t block_size, MHD_ContentReaderCallback crc,
                                                              void *crc_cls, MHD_ContentReaderFreeCallback crfc);
enum MHD_Result alicia_mhd_add_response_header(struct MHD_Response *response, const char *header, const char *content);
enum MHD_Result alicia_mhd_queue_response(struct MHD_Connection *connection, unsigned int status_code, struct MHD_Response *response);
void alicia_mhd_destroy_response(struct MHD_Response *response);

/* The content-reader results are macros with casts, which Swift does not import. */
static inline ssize_t alicia_mhd_reader_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
static inline ssize_t alicia_mhd_reader_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }

/* MHD_SIZE_UNKNOWN is a macro with a cast: the size that makes a response chunked. */
static inline uint64_t alicia_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }

#endif
