#ifndef ALICIA_CSOXR_SHIM_H
#define ALICIA_CSOXR_SHIM_H

#include <dlfcn.h>
#include <stddef.h>
#include <soxr.h>

/* libsoxr (and the libgomp it pulls in) is loaded on first use rather than at start: most sessions
 * never join items of different formats, and the two libraries cost about 0.4 MiB of resident
 * memory that the player's 20 MiB budget cannot spare. The functions are libsoxr's own, looked up
 * by name once; alicia_soxr() returns NULL (with the loader's reason) when the library is missing. */
typedef struct {
    soxr_t (*create)(double, double, unsigned, soxr_error_t *, soxr_io_spec_t const *,
                     soxr_quality_spec_t const *, soxr_runtime_spec_t const *);
    soxr_error_t (*process)(soxr_t, soxr_in_t, size_t, size_t *, soxr_out_t, size_t, size_t *);
    soxr_error_t (*clear)(soxr_t);
    void (*destroy)(soxr_t);
    soxr_io_spec_t (*io_spec)(soxr_datatype_t, soxr_datatype_t);
    soxr_quality_spec_t (*quality_spec)(unsigned long, unsigned long);
} alicia_soxr_api;

/* Why: dlopen/dlsym of a fixed set of functions, which Swift cannot cast to function types itself. */
static inline const alicia_soxr_api *alicia_soxr(const char **reason) {
    static alicia_soxr_api api;
    static int state; /* 0 not tried, 1 loaded, -1 failed; the feeder thread is its only caller. */
    if (state == 1) return &api;
    if (state == -1) { if (reason) *reason = "libsoxr.so.0 could not be loaded"; return NULL; }
    void *library = dlopen("libsoxr.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) { state = -1; if (reason) *reason = dlerror(); return NULL; }
    api.create = (soxr_t (*)(double, double, unsigned, soxr_error_t *, soxr_io_spec_t const *,
                             soxr_quality_spec_t const *, soxr_runtime_spec_t const *))dlsym(library, "soxr_create");
    api.process = (soxr_error_t (*)(soxr_t, soxr_in_t, size_t, size_t *, soxr_out_t, size_t, size_t *))dlsym(library, "soxr_process");
    api.clear = (soxr_error_t (*)(soxr_t))dlsym(library, "soxr_clear");
    api.destroy = (void (*)(soxr_t))dlsym(library, "soxr_delete");
    api.io_spec = (soxr_io_spec_t (*)(soxr_datatype_t, soxr_datatype_t))dlsym(library, "soxr_io_spec");
    api.quality_spec = (soxr_quality_spec_t (*)(unsigned long, unsigned long))dlsym(library, "soxr_quality_spec");
    if (!api.create || !api.process || !api.clear || !api.destroy || !api.io_spec || !api.quality_spec) {
        state = -1;
        if (reason) *reason = "libsoxr.so.0 lacks a function it should have";
        return NULL;
    }
    state = 1;
    return &api;
}

#endif
