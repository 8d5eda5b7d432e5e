#ifndef ALICIA_CFLAC_SHIM_H
#define ALICIA_CFLAC_SHIM_H

#include <FLAC/metadata.h>

#endif
