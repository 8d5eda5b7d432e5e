#ifndef ALICIA_CMPG123_SHIM_H
#define ALICIA_CMPG123_SHIM_H

/* libmpg123 as a frame decoder: the player parses and feeds the frames itself (feed mode), so it
 * knows which frame every sample came from. Already mapped for libsndfile, which links it. */
#include <mpg123.h>

#endif
