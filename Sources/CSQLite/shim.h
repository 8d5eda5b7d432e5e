#ifndef ALICIA_CSQLITE_SHIM_H
#define ALICIA_CSQLITE_SHIM_H

#include <sqlite3.h>

/* Why: SQLITE_TRANSIENT is a macro of a cast function pointer ((sqlite3_destructor_type)-1), which
 * Swift does not import. Bound text and blobs are copied by SQLite at once, so the Swift buffer they
 * came from may go away as soon as the bind call returns. */
static inline sqlite3_destructor_type alicia_sqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
