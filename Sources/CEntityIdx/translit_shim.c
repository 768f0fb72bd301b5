/* Transliteration of words in other scripts to Latin letters with ICU, for the types declared with
 * `--transliterate latin`: `Смирнов` -> `Smirnov`, `Αλέξανδρος` -> `Alexandros`.
 *
 * The transform is ICU's compound "Any-Latin; Latin-ASCII"; for Cyrillic, whose Any-Latin is the scholarly ISO 9
 * (`Германия` -> `Germania`, `Щукин` -> `Sukin`), also "Russian-Latin/BGN; Latin-ASCII", the spelling English text
 * uses (`Germaniya`, `Shchukin`). Building a transform parses rule sets, which takes milliseconds, so each thread
 * builds each one once, on its first word, and keeps it (transliterators keep state and are not thread-safe); the
 * thread's copies are closed when it exits.
 * https://unicode-org.github.io/icu/userguide/transforms/general/ */

#include "CEntityIdx.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/ustring.h>
#include <unicode/utrans.h>

typedef struct {
    UTransliterator *toLatin;
    int failed;     /* the transform could not be built: ICU lacks its rules */
    UTransliterator *russian;
    int russianFailed;
    UChar *text;
    int32_t cap;
} transliterator;

static _Thread_local transliterator tt;

static pthread_key_t release_key;
static pthread_once_t release_once = PTHREAD_ONCE_INIT;

static void release_transliterator(void *p) {
    transliterator *t = p;
    if (t->toLatin) utrans_close(t->toLatin);
    if (t->russian) utrans_close(t->russian);
    free(t->text);
    memset(t, 0, sizeof *t);
}

static void make_release_key(void) { pthread_key_create(&release_key, release_transliterator); }

/* Whether a character is a letter of a script the transform reads: neither Latin (already written so), nor the
 * scripts the index keeps one character per token (Han, kana, Hangul, Bopomofo). */
static int transliterated_script(UChar32 c) {
    if (!u_isalpha(c)) return 0;
    UErrorCode e = U_ZERO_ERROR;
    UScriptCode s = uscript_getScript(c, &e);
    if (U_FAILURE(e)) return 0;
    switch (s) {
    case USCRIPT_COMMON: case USCRIPT_INHERITED: case USCRIPT_UNKNOWN: case USCRIPT_LATIN: case USCRIPT_HAN:
    case USCRIPT_HIRAGANA: case USCRIPT_KATAKANA: case USCRIPT_HANGUL: case USCRIPT_BOPOMOFO:
        return 0;
    default:
        return 1;
    }
}

static int grow_text(int32_t need) {
    if (tt.cap >= need) return 1;
    int32_t n = need < 256 ? 256 : need * 2;
    UChar *q = realloc(tt.text, (size_t)n * sizeof(UChar));
    if (!q) return 0;
    tt.text = q;
    tt.cap = n;
    return 1;
}

int32_t eidx_transliterate_available(void) {
    if (!tt.toLatin && !tt.failed) {
        UErrorCode e = U_ZERO_ERROR;
        static const UChar id[] = {'A', 'n', 'y', '-', 'L', 'a', 't', 'i', 'n', ';', ' ', 'L', 'a', 't', 'i', 'n',
                                   '-', 'A', 'S', 'C', 'I', 'I', 0};
        tt.toLatin = utrans_openU(id, -1, UTRANS_FORWARD, NULL, 0, NULL, &e);
        if (U_FAILURE(e)) {
            tt.toLatin = NULL;
            tt.failed = 1;
        } else {
            pthread_once(&release_once, make_release_key);
            pthread_setspecific(release_key, &tt);
        }
    }
    return tt.toLatin != NULL;
}

/* The thread's Russian-Latin/BGN transform, built on first use; NULL when ICU lacks it. */
static UTransliterator *russian(void) {
    if (!tt.russian && !tt.russianFailed && eidx_transliterate_available()) {
        UErrorCode e = U_ZERO_ERROR;
        static const UChar id[] = {'R', 'u', 's', 's', 'i', 'a', 'n', '-', 'L', 'a', 't', 'i', 'n', '/', 'B', 'G',
                                   'N', ';', ' ', 'L', 'a', 't', 'i', 'n', '-', 'A', 'S', 'C', 'I', 'I', 0};
        tt.russian = utrans_openU(id, -1, UTRANS_FORWARD, NULL, 0, NULL, &e);
        if (U_FAILURE(e)) {
            tt.russian = NULL;
            tt.russianFailed = 1;
        }
    }
    return tt.russian;
}

int32_t eidx_transliterate(const char *utf8, int32_t length, int32_t form, char *out, int32_t outCapacity,
                           int32_t *outLength) {
    UErrorCode e = U_ZERO_ERROR;
    int32_t n = 0;
    u_strFromUTF8Lenient(NULL, 0, &n, utf8, length, &e);
    if (e != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(e)) return -1;
    /* Transliteration lengthens text (one Cyrillic letter can become four Latin ones). */
    if (!grow_text(n * 4 + 16)) return -1;
    e = U_ZERO_ERROR;
    u_strFromUTF8Lenient(tt.text, tt.cap, &n, utf8, length, &e);
    if (U_FAILURE(e)) return -1;
    int any = 0;
    for (int32_t i = 0; i < n && !any;) {
        UChar32 c;
        U16_NEXT(tt.text, i, n, c);
        if (form == EIDX_LATIN_RUSSIAN) {
            UErrorCode se = U_ZERO_ERROR;
            any = c >= 0x80 && u_isalpha(c) && uscript_getScript(c, &se) == USCRIPT_CYRILLIC;
        } else {
            any = c >= 0x80 && transliterated_script(c);
        }
    }
    if (!any) return 1;
    if (!eidx_transliterate_available()) return -3;
    UTransliterator *t = form == EIDX_LATIN_RUSSIAN ? russian() : tt.toLatin;
    if (!t) return 1;
    int32_t limit = n, textLength = n;
    utrans_transUChars(t, tt.text, &textLength, tt.cap, 0, &limit, &e);
    if (e == U_BUFFER_OVERFLOW_ERROR) {
        e = U_ZERO_ERROR;
        if (!grow_text(textLength + 16)) return -1;
        u_strFromUTF8Lenient(tt.text, tt.cap, &n, utf8, length, &e);
        if (U_FAILURE(e)) return -1;
        limit = n;
        textLength = n;
        utrans_transUChars(t, tt.text, &textLength, tt.cap, 0, &limit, &e);
    }
    if (U_FAILURE(e)) return -1;
    int32_t written = 0;
    u_strToUTF8(out, outCapacity, &written, tt.text, textLength, &e);
    *outLength = written;
    if (e == U_BUFFER_OVERFLOW_ERROR || e == U_STRING_NOT_TERMINATED_WARNING) return written > outCapacity ? -2 : 0;
    return U_FAILURE(e) ? -1 : 0;
}
