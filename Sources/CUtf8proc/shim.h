#ifndef ALICIA_CUTF8PROC_SHIM_H
#define ALICIA_CUTF8PROC_SHIM_H

#include <utf8proc.h>

#endif
