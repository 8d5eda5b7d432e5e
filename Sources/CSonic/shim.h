#ifndef ALICIA_CSONIC_SHIM_H
#define ALICIA_CSONIC_SHIM_H

#include <sonic.h>

#endif
