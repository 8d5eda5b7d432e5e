#ifndef ALICIA_CEBUR128_SHIM_H
#define ALICIA_CEBUR128_SHIM_H

#include <ebur128.h>

#endif
