// SQLite's C interface. SQLITE_TRANSIENT is a cast macro Swift cannot import, so it is
// re-exported here as a function.
#include <sqlite3.h>

static inline sqlite3_destructor_type sift_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
