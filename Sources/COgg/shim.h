#ifndef ALICIA_COGG_SHIM_H
#define ALICIA_COGG_SHIM_H

#include <ogg/ogg.h>

#endif
