#ifndef ALICIA_CSNDFILE_SHIM_H
#define ALICIA_CSNDFILE_SHIM_H

#include <sndfile.h>

#endif
