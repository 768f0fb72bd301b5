#include "CEntityIdx.h"

#include <pthread.h>

int eidx_sqlite_bind_text(sqlite3_stmt *stmt, int index, const char *text, int length) {
    return sqlite3_bind_text(stmt, index, text ? text : "", length, SQLITE_TRANSIENT);
}

int eidx_sqlite_bind_blob(sqlite3_stmt *stmt, int index, const void *data, int length) {
    return sqlite3_bind_blob(stmt, index, data ? data : "", length, SQLITE_TRANSIENT);
}

int eidx_sqlite_db_defensive(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, on, (int *)0);
}

/* Turns SQLite's memory statistics off, once, before the first connection: they take a process-wide mutex on every
 * allocation (a few percent of an ingest), and nothing here reads them. */
static pthread_once_t configure_once = PTHREAD_ONCE_INIT;

static void configure(void) { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }

void eidx_sqlite_configure(void) { pthread_once(&configure_once, configure); }
