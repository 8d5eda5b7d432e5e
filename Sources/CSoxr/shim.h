#ifndef ALICIA_CSOXR_SHIM_H
#define ALICIA_CSOXR_SHIM_H

#include <soxr.h>

#endif
