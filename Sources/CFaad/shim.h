#ifndef ALICIA_CFAAD_SHIM_H
#define ALICIA_CFAAD_SHIM_H

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <neaacdec.h>

/* faad2 decodes AAC for the MP4/M4A files the player demuxes itself (Sources/AliciaAudio/Decode/MP4).
 * It is loaded on first use, like libsoxr: a session of WAVs never maps it. Its 260 KiB depend on
 * libc alone, where FFmpeg's libavcodec brings about a hundred libraries (DECISIONS.md, "AAC:
 * faad2 and a sample table of our own"). alicia_faad() returns NULL, with the loader's reason,
 * when the library is missing. */
typedef struct {
    NeAACDecHandle (*open)(void);
    NeAACDecConfigurationPtr (*configuration)(NeAACDecHandle);
    unsigned char (*set_configuration)(NeAACDecHandle, NeAACDecConfigurationPtr);
    char (*init2)(NeAACDecHandle, unsigned char *, unsigned long, unsigned long *, unsigned char *);
    void *(*decode)(NeAACDecHandle, NeAACDecFrameInfo *, unsigned char *, unsigned long);
    void (*close)(NeAACDecHandle);
    char *(*error_message)(unsigned char);
} alicia_faad_api;

/* Written once, in alicia_faad_load() under pthread_once, and read only after it. (Function-local
 * statics: Swift emits a header's inline functions into the module that calls them, not its
 * file-level statics.) */
typedef struct {
    alicia_faad_api api;
    const char *failure;
    char why[256];
} alicia_faad_state;

static inline alicia_faad_state *alicia_faad_storage(void) {
    static alicia_faad_state state;
    return &state;
}

/* Why: dlopen/dlsym of a fixed set of functions, which Swift cannot cast to function types itself. */
static inline void alicia_faad_load(void) {
    alicia_faad_state *state = alicia_faad_storage();
    void *library = dlopen("libfaad.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *error = dlerror();
        snprintf(state->why, sizeof state->why, "%s", error ? error : "libfaad.so.2 cannot be loaded");
        state->failure = state->why;
        return;
    }
    alicia_faad_api *api = &state->api;
    *(void **)(&api->open) = dlsym(library, "NeAACDecOpen");
    *(void **)(&api->configuration) = dlsym(library, "NeAACDecGetCurrentConfiguration");
    *(void **)(&api->set_configuration) = dlsym(library, "NeAACDecSetConfiguration");
    *(void **)(&api->init2) = dlsym(library, "NeAACDecInit2");
    *(void **)(&api->decode) = dlsym(library, "NeAACDecDecode");
    *(void **)(&api->close) = dlsym(library, "NeAACDecClose");
    *(void **)(&api->error_message) = dlsym(library, "NeAACDecGetErrorMessage");
    if (!api->open || !api->configuration || !api->set_configuration || !api->init2 || !api->decode ||
        !api->close || !api->error_message) {
        state->failure = "libfaad.so.2 lacks a function it should have";
    }
}

/* The library's functions, loaded once (any thread); NULL and *reason when it cannot be. */
static inline const alicia_faad_api *alicia_faad(const char **reason) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, alicia_faad_load);
    alicia_faad_state *state = alicia_faad_storage();
    if (state->failure) {
        if (reason) *reason = state->failure;
        return NULL;
    }
    return &state->api;
}

#endif
