#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include "alicia_curl.h"

/* Written once, in load(), under pthread_once; read only after it. */
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_pause)(CURL *, int);
    const char *(*easy_strerror)(CURLcode);
    CURLHcode (*easy_header)(CURL *, const char *, size_t, unsigned int, int, struct curl_header **);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
} api;
static const char *load_failure;
static char why[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Why: dlopen/dlsym of a fixed set of functions, which Swift cannot cast to function types itself. */
/* Why: RTLD_DEEPBIND has libcurl's thirty-odd libraries look their symbols up among themselves first
 * instead of through every library the player itself maps: the load takes about half as long (on the
 * first request's path). The sanitizers' runtimes interpose symbols and refuse RTLD_DEEPBIND, so a
 * sanitized build loads it plainly. The executable is position-independent with no copy relocations,
 * so no library sees two copies of a variable either way. */
static int deep_bind(void) {
    return dlsym(RTLD_DEFAULT, "__tsan_init") || dlsym(RTLD_DEFAULT, "__asan_init") ? 0 : RTLD_DEEPBIND;
}

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL | deep_bind());
    if (!library) {
        snprintf(why, sizeof why, "%s", dlerror());
        load_failure = why;
        return;
    }
#define ALICIA_LOOK(field, name) *(void **)(&api.field) = dlsym(library, name); if (!api.field) { snprintf(why, sizeof why, "libcurl.so.4 has no %s", name); load_failure = why; return; }
    ALICIA_LOOK(global_init, "curl_global_init")
    ALICIA_LOOK(easy_init, "curl_easy_init")
    ALICIA_LOOK(easy_cleanup, "curl_easy_cleanup")
    ALICIA_LOOK(easy_perform, "curl_easy_perform")
    ALICIA_LOOK(easy_pause, "curl_easy_pause")
    ALICIA_LOOK(easy_strerror, "curl_easy_strerror")
    ALICIA_LOOK(easy_header, "curl_easy_header")
    ALICIA_LOOK(easy_setopt, "curl_easy_setopt")
    ALICIA_LOOK(easy_getinfo, "curl_easy_getinfo")
    ALICIA_LOOK(slist_append, "curl_slist_append")
    ALICIA_LOOK(slist_free_all, "curl_slist_free_all")
    ALICIA_LOOK(multi_init, "curl_multi_init")
    ALICIA_LOOK(multi_cleanup, "curl_multi_cleanup")
    ALICIA_LOOK(multi_add_handle, "curl_multi_add_handle")
    ALICIA_LOOK(multi_remove_handle, "curl_multi_remove_handle")
    ALICIA_LOOK(multi_perform, "curl_multi_perform")
    ALICIA_LOOK(multi_info_read, "curl_multi_info_read")
    ALICIA_LOOK(multi_poll, "curl_multi_poll")
    ALICIA_LOOK(multi_wakeup, "curl_multi_wakeup")
#undef ALICIA_LOOK
    /* Once, before any handle: libcurl's global state (and OpenSSL's) set up here. */
    CURLcode code = api.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(why, sizeof why, "curl_global_init failed (%d)", (int)code);
        load_failure = why;
        return;
    }
    /* libcurl runs with CURLOPT_NOSIGNAL: a write to a closed socket must fail with EPIPE, not
     * kill the process. */
    signal(SIGPIPE, SIG_IGN);
}

const char *alicia_curl_load(void) {
    pthread_once(&once, load);
    return load_failure;
}

CURL *alicia_curl_easy_init(void) { return alicia_curl_load() ? NULL : api.easy_init(); }
void alicia_curl_easy_cleanup(CURL *e) { api.easy_cleanup(e); }
CURLcode alicia_curl_easy_perform(CURL *e) { return api.easy_perform(e); }
CURLcode alicia_curl_easy_pause(CURL *e, int mask) { return api.easy_pause(e, mask); }
const char *alicia_curl_easy_strerror(CURLcode code) {
    return alicia_curl_load() ? "libcurl could not be loaded" : api.easy_strerror(code);
}
CURLHcode alicia_curl_easy_header(CURL *e, const char *name, size_t index, unsigned int origin, int request,
                                  struct curl_header **header) {
    return api.easy_header(e, name, index, origin, request, header);
}
struct curl_slist *alicia_curl_slist_append(struct curl_slist *list, const char *text) { return api.slist_append(list, text); }
void alicia_curl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }
CURLM *alicia_curl_multi_init(void) { return alicia_curl_load() ? NULL : api.multi_init(); }
CURLMcode alicia_curl_multi_cleanup(CURLM *m) { return api.multi_cleanup(m); }
CURLMcode alicia_curl_multi_add_handle(CURLM *m, CURL *e) { return api.multi_add_handle(m, e); }
CURLMcode alicia_curl_multi_remove_handle(CURLM *m, CURL *e) { return api.multi_remove_handle(m, e); }
CURLMcode alicia_curl_multi_perform(CURLM *m, int *running) { return api.multi_perform(m, running); }
CURLMsg *alicia_curl_multi_info_read(CURLM *m, int *left) { return api.multi_info_read(m, left); }
CURLMcode alicia_curl_multi_poll(CURLM *m, struct curl_waitfd *fds, unsigned int count, int timeout, int *events) {
    return api.multi_poll(m, fds, count, timeout, events);
}
CURLMcode alicia_curl_multi_wakeup(CURLM *m) { return api.multi_wakeup(m); }

CURLcode alicia_easy_setopt_long(CURL *e, CURLoption o, long v) { return api.easy_setopt(e, o, v); }
CURLcode alicia_easy_setopt_off(CURL *e, CURLoption o, curl_off_t v) { return api.easy_setopt(e, o, v); }
CURLcode alicia_easy_setopt_str(CURL *e, CURLoption o, const char *v) { return api.easy_setopt(e, o, v); }
CURLcode alicia_easy_setopt_ptr(CURL *e, CURLoption o, void *v) { return api.easy_setopt(e, o, v); }
CURLcode alicia_easy_setopt_slist(CURL *e, CURLoption o, struct curl_slist *v) { return api.easy_setopt(e, o, v); }
CURLcode alicia_easy_setopt_write(CURL *e, curl_write_callback cb) { return api.easy_setopt(e, CURLOPT_WRITEFUNCTION, cb); }
CURLcode alicia_easy_setopt_xferinfo(CURL *e, curl_xferinfo_callback cb) { return api.easy_setopt(e, CURLOPT_XFERINFOFUNCTION, cb); }
CURLcode alicia_easy_setopt_header(CURL *e, curl_write_callback cb) { return api.easy_setopt(e, CURLOPT_HEADERFUNCTION, cb); }
CURLcode alicia_easy_getinfo_long(CURL *e, CURLINFO i, long *v) { return api.easy_getinfo(e, i, v); }
CURLcode alicia_easy_getinfo_off(CURL *e, CURLINFO i, curl_off_t *v) { return api.easy_getinfo(e, i, v); }
CURLcode alicia_easy_getinfo_str(CURL *e, CURLINFO i, char **v) { return api.easy_getinfo(e, i, v); }

