#ifndef ALICIA_CJSON_SHIM_H
#define ALICIA_CJSON_SHIM_H

#include <cjson/cJSON.h>

#endif
