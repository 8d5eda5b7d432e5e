#ifndef ALICIA_CCURL_SHIM_H
#define ALICIA_CCURL_SHIM_H

#include <curl/curl.h>

// Swift cannot call C variadic functions, so each curl_easy_setopt /
// curl_easy_getinfo / curl_multi_setopt use gets a typed adapter: the C
// compiler then passes exactly the type libcurl reads for that option.

static inline CURLcode alicia_easy_setopt_long(CURL *e, CURLoption o, long v) {
    return curl_easy_setopt(e, o, v);
}
static inline CURLcode alicia_easy_setopt_off(CURL *e, CURLoption o, curl_off_t v) {
    return curl_easy_setopt(e, o, v);
}
static inline CURLcode alicia_easy_setopt_str(CURL *e, CURLoption o, const char *v) {
    return curl_easy_setopt(e, o, v);
}
static inline CURLcode alicia_easy_setopt_ptr(CURL *e, CURLoption o, void *v) {
    return curl_easy_setopt(e, o, v);
}
static inline CURLcode alicia_easy_setopt_slist(CURL *e, CURLoption o, struct curl_slist *v) {
    return curl_easy_setopt(e, o, v);
}
static inline CURLcode alicia_easy_setopt_write(CURL *e, curl_write_callback cb) {
    return curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, cb);
}
static inline CURLcode alicia_easy_setopt_xferinfo(CURL *e, curl_xferinfo_callback cb) {
    return curl_easy_setopt(e, CURLOPT_XFERINFOFUNCTION, cb);
}
static inline CURLcode alicia_easy_setopt_header(CURL *e, curl_write_callback cb) {
    return curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, cb);
}
static inline CURLcode alicia_easy_getinfo_long(CURL *e, CURLINFO i, long *v) {
    return curl_easy_getinfo(e, i, v);
}
static inline CURLcode alicia_easy_getinfo_off(CURL *e, CURLINFO i, curl_off_t *v) {
    return curl_easy_getinfo(e, i, v);
}
static inline CURLcode alicia_easy_getinfo_str(CURL *e, CURLINFO i, char **v) {
    return curl_easy_getinfo(e, i, v);
}
// CURL_WRITEFUNC_PAUSE is a macro of a size_t expression; give Swift a value.
static inline size_t alicia_writefunc_pause(void) { return CURL_WRITEFUNC_PAUSE; }

// CURLAUTH_BEARER is a macro of an unsigned long shift.
static inline unsigned long alicia_curlauth_bearer(void) { return CURLAUTH_BEARER; }

#endif
