#ifndef ALICIA_CURL_H
#define ALICIA_CURL_H

#include <curl/curl.h>

/* libcurl is loaded on first use, never linked: Debian's libcurl brings about thirty libraries
 * (OpenSSL, GnuTLS through librtmp, Kerberos, LDAP, libssh2, nghttp2…) whose mapping, relocation
 * and initialisers took 11 ms of every start, local file or not (DECISIONS.md, "libcurl loaded when
 * a request is made"). Only the header is used at build time; the functions are looked up by name
 * once, from the soname this header belongs to. alicia_curl_load() says why it could not be
 * loaded (NULL: loaded); every other function here needs it to have succeeded, except
 * alicia_curl_easy_strerror, which answers without it. */
const char *alicia_curl_load(void);

CURL *alicia_curl_easy_init(void);
void alicia_curl_easy_cleanup(CURL *);
CURLcode alicia_curl_easy_perform(CURL *);
CURLcode alicia_curl_easy_pause(CURL *, int);
const char *alicia_curl_easy_strerror(CURLcode);
CURLHcode alicia_curl_easy_header(CURL *, const char *, size_t, unsigned int, int, struct curl_header **);
struct curl_slist *alicia_curl_slist_append(struct curl_slist *, const char *);
void alicia_curl_slist_free_all(struct curl_slist *);
CURLM *alicia_curl_multi_init(void);
CURLMcode alicia_curl_multi_cleanup(CURLM *);
CURLMcode alicia_curl_multi_add_handle(CURLM *, CURL *);
CURLMcode alicia_curl_multi_remove_handle(CURLM *, CURL *);
CURLMcode alicia_curl_multi_perform(CURLM *, int *);
CURLMsg *alicia_curl_multi_info_read(CURLM *, int *);
CURLMcode alicia_curl_multi_poll(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
CURLMcode alicia_curl_multi_wakeup(CURLM *);

/* Swift cannot call C variadic functions, so each curl_easy_setopt / curl_easy_getinfo use gets a
 * typed adapter: the C compiler then passes exactly the type libcurl reads for that option. */
CURLcode alicia_easy_setopt_long(CURL *e, CURLoption o, long v);
CURLcode alicia_easy_setopt_off(CURL *e, CURLoption o, curl_off_t v);
CURLcode alicia_easy_setopt_str(CURL *e, CURLoption o, const char *v);
CURLcode alicia_easy_setopt_ptr(CURL *e, CURLoption o, void *v);
CURLcode alicia_easy_setopt_slist(CURL *e, CURLoption o, struct curl_slist *v);
CURLcode alicia_easy_setopt_write(CURL *e, curl_write_callback cb);
CURLcode alicia_easy_setopt_xferinfo(CURL *e, curl_xferinfo_callback cb);
CURLcode alicia_easy_setopt_header(CURL *e, curl_write_callback cb);
CURLcode alicia_easy_getinfo_long(CURL *e, CURLINFO i, long *v);
CURLcode alicia_easy_getinfo_off(CURL *e, CURLINFO i, curl_off_t *v);
CURLcode alicia_easy_getinfo_str(CURL *e, CURLINFO i, char **v);

/* CURL_WRITEFUNC_PAUSE is a macro of a size_t expression; give Swift a value. */
static inline size_t alicia_writefunc_pause(void) { return CURL_WRITEFUNC_PAUSE; }

/* CURLAUTH_BEARER is a macro of an unsigned long shift. */
static inline unsigned long alicia_curlauth_bearer(void) { return CURLAUTH_BEARER; }
static inline unsigned long alicia_curlauth_basic(void) { return CURLAUTH_BASIC; }

#endif
