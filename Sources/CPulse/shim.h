#ifndef ALICIA_CPULSE_SHIM_H
#define ALICIA_CPULSE_SHIM_H

#include <pulse/pulseaudio.h>

// PA_CONTEXT_IS_GOOD / PA_STREAM_IS_GOOD are static inline in the headers and
// import; PA_INVALID_INDEX is a macro cast that does not.
static inline uint32_t alicia_pa_invalid_index(void) { return PA_INVALID_INDEX; }

#endif
