#ifndef CENTITYIDX_H
#define CENTITYIDX_H

/* The C side of entityidx: what Swift cannot call directly.
 * Only plain C types cross this header: ICU headers stay inside icu_shim.c, because importing them beside
 * Foundation breaks the build and ICU's entry points are renaming macros Swift cannot see. */

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

/* ---- SQLite ---------------------------------------------------------------------------------------------- */

/* Binds a text value that SQLite copies (SQLITE_TRANSIENT is not importable into Swift). */
int eidx_sqlite_bind_text(sqlite3_stmt *stmt, int index, const char *text, int length);
/* Binds a blob value that SQLite copies. */
int eidx_sqlite_bind_blob(sqlite3_stmt *stmt, int index, const void *data, int length);
/* Configures the SQLite library once, before the first connection (sqlite3_config is variadic). */
void eidx_sqlite_configure(void);
/* Registers the FTS5 auxiliary function eidx_rank (sqlite_shim.c) on a connection. */
int eidx_sqlite_register_rank(sqlite3 *db);
/* Turns defensive mode on (sqlite3_db_config is variadic). */
int eidx_sqlite_db_defensive(sqlite3 *db, int on);
/* Makes closing the connection leave the -wal and -shm files as they are: no checkpoint, no deletion
 * (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE; sqlite3_db_config is variadic). */
int eidx_sqlite_no_checkpoint_on_close(sqlite3 *db);

/* ---- Stored records (zlib raw deflate, level 1) ------------------------------------------------------- */

/* Compresses `length` bytes into `output`; returns the compressed length, or -1 when `capacity` is too small. */
long eidx_deflate(const uint8_t *input, size_t length, uint8_t *output, size_t capacity);
/* The output capacity that always suffices for `length` input bytes. */
size_t eidx_deflate_bound(size_t length);
/* Decompresses into `output`; returns the length written, or -1 when the input is not one whole deflate stream
 * that fits in `capacity`. */
long eidx_inflate(const uint8_t *input, size_t length, uint8_t *output, size_t capacity);

/* ---- Stored records (zstd with a dictionary trained on the database's records) ----------------------- */

/* Trains a dictionary of at most `capacity` bytes on `count` samples laid end to end in `samples` (`sizes` their
 * lengths), with `dict_id` as its id (written in every frame compressed with it); returns its size, or 0 when the
 * samples are too few or too small to train on. */
size_t eidx_zstd_train(const uint8_t *samples, const size_t *sizes, unsigned count, uint32_t dict_id,
                       uint8_t *dictionary, size_t capacity);
/* A dictionary prepared for compression (level 3) and decompression; NULL when the bytes are not a dictionary. */
void *eidx_zstd_dictionary(const uint8_t *bytes, size_t length);
void eidx_zstd_dictionary_free(void *dictionary);
/* The id a dictionary's bytes declare (0 when they are not a zstd dictionary). */
uint32_t eidx_zstd_dictionary_id(const uint8_t *bytes, size_t length);
/* The output capacity that always suffices for `length` input bytes. */
size_t eidx_zstd_bound(size_t length);
/* Compresses with a dictionary into `output` (one frame, holding its content size and the dictionary's id);
 * returns the compressed length, or -1. Thread-safe: each thread has its own context. */
long eidx_zstd_compress(const void *dictionary, const uint8_t *input, size_t length, uint8_t *output,
                        size_t capacity);
/* The content size and the dictionary id a frame declares; returns 0, or -1 when the bytes are not one frame
 * with a known content size. */
int eidx_zstd_frame(const uint8_t *input, size_t length, uint64_t *content_size, uint32_t *dict_id);
/* Decompresses one frame with a dictionary; returns the length written, or -1 when the input is not one whole
 * frame of that dictionary that fits in `capacity`. */
long eidx_zstd_decompress(const void *dictionary, const uint8_t *input, size_t length, uint8_t *output,
                          size_t capacity);

/* Frees the calling thread's record compression and decompression contexts (zstd and zlib), when it ends. */
void eidx_record_codec_thread_end(void);

/* ---- ICU text analysis ----------------------------------------------------------------------------------- */

/* A token found in a text: where it was in the input (UTF-8 byte offsets) and where its normalized form is in the
 * output buffer. */
typedef struct {
    int32_t start;      /* first byte of the source span in the input */
    int32_t end;        /* one past the last byte of the source span */
    int32_t norm;       /* offset of the normalized UTF-8 text in the output buffer */
    int32_t normLength; /* its length in bytes */
    int32_t flags;      /* EIDX_TOKEN_* */
} eidx_token;

enum {
    EIDX_TOKEN_CJK = 1,    /* one Han, kana or Hangul character: callers build bigrams from runs */
    EIDX_TOKEN_DIGIT = 2,  /* contains a digit */
    EIDX_TOKEN_LETTER = 4, /* contains a letter */
    EIDX_TOKEN_VARIANT = 8, /* another spelling of the token(s) just before it, with the same span (Müller -> mueller) */
};

enum {
    EIDX_ANALYZE_DOCUMENT = 1, /* text to index: also emit variants (Müller -> mueller, الكتاب -> كتاب) */
};

/* Segments UTF-8 text into words with ICU and normalizes each one: NFKC case folding, diacritics removed on
 * Latin, Greek, Arabic and Hebrew words, Latin folded to ASCII, Cyrillic yo folded to ye, Arabic letter variants
 * folded (alef forms, alef maksura, taa marbuta, tatweel); Han, kana and Hangul come out one character per token,
 * Traditional Han folded to Simplified, Katakana to Hiragana.
 *
 * Returns 0 on success with *tokenCount and *outLength set; -2 when `tokens` or `out` is too small (call again
 * with more room); -1 on an ICU error. Uses per-thread ICU objects, so it is safe to call from any thread. */
int32_t eidx_analyze(const char *utf8, int32_t length, int32_t flags, eidx_token *tokens, int32_t tokenCapacity,
                     char *out, int32_t outCapacity, int32_t *tokenCount, int32_t *outLength);

/* Writes the ICU version ("72.1") into buffer; returns its length. */
int32_t eidx_icu_version(char *buffer, int32_t capacity);

/* ---- Transliteration ------------------------------------------------------------------------------------ */

enum {
    EIDX_LATIN_ANY = 0,     /* ICU's "Any-Latin; Latin-ASCII", for every script it reads */
    EIDX_LATIN_RUSSIAN = 1, /* "Russian-Latin/BGN; Latin-ASCII", for Cyrillic (Германия -> Germaniya) */
};

/* Transliterates UTF-8 text to Latin ASCII letters with ICU (Смирнов -> Smirnov), in the `form` above, for text
 * holding a letter of a script other than Latin, Han, kana, Hangul and Bopomofo (EIDX_LATIN_RUSSIAN: a Cyrillic
 * letter). Returns 0 with *outLength set; 1 when the text has no such letter, or ICU lacks the Russian transform
 * (nothing written); -2 when `out` is too small (*outLength is the size needed); -3 when this ICU cannot build
 * "Any-Latin; Latin-ASCII"; -1 on another ICU error. Each thread builds a transform once and keeps it, so it is
 * safe to call from any thread. */
int32_t eidx_transliterate(const char *utf8, int32_t length, int32_t form, char *out, int32_t outCapacity,
                           int32_t *outLength);

/* 1 when this ICU can build the transform eidx_transliterate uses (building it for the calling thread), else 0. */
int32_t eidx_transliterate_available(void);

/* ---- Japanese readings (MeCab) ------------------------------------------------------------------------- */

/* One morpheme of a text MeCab read: where it is in the input (UTF-8 byte offsets) and where its reading and
 * pronunciation (katakana, as the dictionary spells them: 東京 トウキョウ, トーキョー) are in the text buffer; a
 * morpheme the dictionary does not know has no reading (length 0). */
typedef struct {
    int32_t start;
    int32_t end;
    int32_t reading;
    int32_t readingLength;
    int32_t pronunciation;
    int32_t pronunciationLength;
} eidx_morpheme;

/* Reads UTF-8 text with MeCab and its system dictionary (Debian's mecab-ipadic-utf8): writes at most `capacity`
 * morphemes to `out` and their readings to `text`. Returns the number of morphemes; -2 when `out` or `text` is too
 * small (*needed and *textNeeded say the sizes); -3 when no UTF-8 dictionary can be loaded; -1 on another error.
 * The dictionary is loaded once per process; each thread has its own tagger, so it is safe from any thread. */
int32_t eidx_readings(const char *utf8, int32_t length, eidx_morpheme *out, int32_t capacity, char *text,
                      int32_t textCapacity, int32_t *needed, int32_t *textNeeded);

/* Writes what identifies the dictionary ("UTF-8 102 392126": its charset, version and number of entries) into
 * buffer and returns its length; 0 when none can be loaded. */
int32_t eidx_reading_dictionary(char *buffer, int32_t capacity);

/* ---- Folding for query modifiers ------------------------------------------------------------------------- */

enum {
    EIDX_FOLD_CASE = 1,  /* full case folding (Straße -> strasse) */
    EIDX_FOLD_MARKS = 2, /* nonspacing marks removed after NFD (Frédéric -> Frederic) */
};

/* Folds UTF-8 text as `flags` say and writes it in NFC to `out`. Returns 0 with *outLength set, -2 when `out` is
 * too small (*outLength is the size needed), -1 on an ICU error. Thread-safe. */
int32_t eidx_fold(const char *utf8, int32_t length, int32_t flags, char *out, int32_t outCapacity, int32_t *outLength);

/* ---- Process --------------------------------------------------------------------------------------------- */

/* Ignores SIGPIPE (a closed reader becomes EPIPE) and makes SIGINT/SIGTERM set a flag instead of killing the
 * process (unblocking them if the parent left them blocked); reads interrupted by them return EINTR. Async-signal-safe: the handler only stores to a sig_atomic_t. */
void eidx_install_stop_signals(void);
/* The signal that asked to stop (SIGINT or SIGTERM), or 0. */
int eidx_stop_signal(void);

/* A request's budget: a deadline on the monotonic clock and a cancel flag that any thread may set (its client went
 * away). A thread runs a request under a budget (`eidx_budget_enter`); SQLite's progress handler, statement steps
 * and lock waits ask `eidx_should_stop`, which also answers for the stop signals. */
typedef struct eidx_budget eidx_budget;
/* A budget with a deadline `seconds` from now (0 or less: none); NULL when out of memory. */
eidx_budget *eidx_budget_new(double seconds);
void eidx_budget_free(eidx_budget *budget);
/* Marks the budget cancelled; safe from any thread. */
void eidx_budget_cancel(eidx_budget *budget);
/* Makes `budget` the calling thread's (NULL: none); returns the one it replaces. */
eidx_budget *eidx_budget_enter(eidx_budget *budget);
enum {
    EIDX_STOP_NONE = 0,
    EIDX_STOP_SIGNAL = 1,    /* SIGINT or SIGTERM */
    EIDX_STOP_DEADLINE = 2,  /* the thread's budget ran out of time */
    EIDX_STOP_CANCELLED = 3, /* the thread's budget was cancelled */
};
/* Why the calling thread's work should stop now, or EIDX_STOP_NONE. */
int eidx_should_stop(void);
/* The reason `budget` stops (none, deadline or cancelled), whatever thread asks. */
int eidx_budget_state(const eidx_budget *budget);

/* How many more bytes this process may allocate before an allocation fails (the address-space limit, `ulimit -v`)
 * or the kernel steps in (its cgroup's memory limit, less the page cache it can reclaim; the system's available
 * memory): the smallest of these, 0 when one is already passed, -1 when none can be read. Reads a few /proc and
 * /sys files: call it for large requests, not for every small one. */
long long eidx_memory_room(void);

#endif
