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

int eidx_sqlite_no_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

/* Turns SQLite's memory statistics off, once, before the first connection: they take a process-wide mutex on every
 * allocation (a few percent of an ingest), and nothing here reads them. */
static pthread_once_t configure_once = PTHREAD_ONCE_INIT;

static void configure(void) { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }

void eidx_sqlite_configure(void) { pthread_once(&configure_once, configure); }

/* ---- FTS5 auxiliary function eidx_rank -------------------------------------------------------------------- */

/* The attribute rank of each column of the `search` table: title, names, subtitle, description, props, ident. */
static const int eidx_column_rank[6] = {0, 1, 2, 3, 4, 0};

/* eidx_rank(search, phrases): how the current match's words matched, from where its phrases matched: bits 0-15 the
 * attribute (each term's best column rank, summed), bits 16-23 the typos (summed), bits 24-27 the best column rank of
 * any term (5 when none matched), bit 28 set when some phrase matched the title column.
 *
 * `phrases` is text: the number of query terms, then for each phrase of the MATCH expression, in order, the index
 * of its term and its typo distance, each as one character from '0' (all are under 64). Each term takes its best
 * (typos, column rank) over its phrases and the columns they matched (https://sqlite.org/fts5.html#xPhraseFirstColumn);
 * a term none of whose phrases matched counts 2 typos and rank 5, as entityidx's Ranker does. Only the columns the
 * expression's column filter lets through are seen. No row is read. */
static void eidx_rank(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    if (argc != 1) {
        sqlite3_result_error(ctx, "eidx_rank takes the phrase map", -1);
        return;
    }
    const unsigned char *map = sqlite3_value_text(argv[0]);
    int bytes = sqlite3_value_bytes(argv[0]);
    if (!map || bytes < 1 || map[0] < '0' || map[0] - '0' > 64) {
        sqlite3_result_error(ctx, "eidx_rank: bad phrase map", -1);
        return;
    }
    int terms = map[0] - '0';
    int best[64];
    int title = 0;
    for (int t = 0; t < terms; t++) best[t] = 1 << 20;
    int phrases = api->xPhraseCount(fts);
    for (int p = 0; p < phrases && 2 + 2 * p < bytes; p++) {
        int term = map[1 + 2 * p] - '0', distance = map[2 + 2 * p] - '0';
        if (term < 0 || term >= terms || distance < 0) continue;
        Fts5PhraseIter it;
        int column = -1;
        for (api->xPhraseFirstColumn(fts, p, &it, &column); column >= 0; api->xPhraseNextColumn(fts, &it, &column)) {
            if (column > 5) continue;
            if (column == 0) title = 1;
            int value = distance * 8 + eidx_column_rank[column];
            if (value < best[term]) best[term] = value;
        }
    }
    int typos = 0, attribute = 0, rank = 5;
    for (int t = 0; t < terms; t++) {
        if (best[t] == 1 << 20) {
            typos += 2;
            attribute += 5;
        } else {
            typos += best[t] / 8;
            attribute += best[t] % 8;
            if (best[t] % 8 < rank) rank = best[t] % 8;
        }
    }
    if (typos > 255) typos = 255;
    sqlite3_result_int64(ctx, (sqlite3_int64)title << 28 | (sqlite3_int64)rank << 24 | (sqlite3_int64)typos << 16 | attribute);
}

int eidx_sqlite_register_rank(sqlite3 *db) {
    fts5_api *api = 0;
    sqlite3_stmt *stmt = 0;
    int rc = sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &stmt, 0);
    if (rc == SQLITE_OK) {
        sqlite3_bind_pointer(stmt, 1, (void *)&api, "fts5_api_ptr", 0);
        sqlite3_step(stmt);
    }
    sqlite3_finalize(stmt);
    if (!api) return rc == SQLITE_OK ? SQLITE_ERROR : rc;
    return api->xCreateFunction(api, "eidx_rank", 0, eidx_rank, 0);
}
