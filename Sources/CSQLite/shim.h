#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
// Exposing it as a function lets Swift ask SQLite to copy bound text and blobs.
static inline sqlite3_destructor_type cloner_sqlite_transient(void) { return SQLITE_TRANSIENT; }
