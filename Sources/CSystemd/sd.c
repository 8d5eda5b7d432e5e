#include "alicia_sd.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

struct alicia_sd_functions alicia_sd;

/* Written once, in load(), under pthread_once; read only after it. */
static char failure[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(failure, sizeof failure, "libsystemd is not installed (%s)", dlerror());
        return;
    }
#define ALICIA_SD_LOOK_UP(name)                                                 \
    if (!(alicia_sd.name = (__typeof__(name) *)dlsym(library, #name))) {        \
        snprintf(failure, sizeof failure, "libsystemd lacks %s", #name);        \
        return;                                                                 \
    }
    ALICIA_SD_FUNCTIONS(ALICIA_SD_LOOK_UP)
#undef ALICIA_SD_LOOK_UP
    alicia_sd.vtable_format = dlsym(library, "sd_bus_object_vtable_format");
}

int alicia_sd_load(char *why, size_t why_size) {
    pthread_once(&once, load);
    if (!failure[0]) return 0;
    snprintf(why, why_size, "%s", failure);
    return -ENOENT;
}
