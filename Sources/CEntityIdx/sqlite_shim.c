#include "CEntityIdx.h"

int eidx_sqlite_bind_text(sqlite3_stmt *stmt, int index, const char *text, int length) {
    return sqlite3_bind_text(stmt, index, text ? text : "", length, SQLITE_TRANSIENT);
}

int eidx_sqlite_bind_blob(sqlite3_stmt *stmt, int index, const void *data, int length) {
    return sqlite3_bind_blob(stmt, index, data ? data : "", length, SQLITE_TRANSIENT);
}

int eidx_sqlite_db_defensive(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, on, (int *)0);
}
