/* Text analysis with ICU: word segmentation and per-word normalization.
 *
 * The pipeline follows Tracker's parser (ICU word break, case fold, NFKD, strip marks, ASCII fast path) with the
 * changes our acceptance cases need: NFKC case folding (width, ß, ligatures), marks stripped only where they are
 * accents (Latin, Greek, Arabic, Hebrew) and never on Thai, Indic or CJK, Latin-ASCII for letters such as æ, ø, ł,
 * and Han/kana/Hangul emitted one character per token so that callers can index overlapping bigrams.
 * https://unicode-org.github.io/icu/userguide/boundaryanalysis/ and .../transforms/normalization/ */

#include "CEntityIdx.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uscript.h>
#include <unicode/ustring.h>
#include <unicode/utrans.h>
#include <unicode/uversion.h>

/* ICU objects are not thread-safe (break iterators and transliterators keep state), so each thread owns its own. */
typedef struct {
    UBreakIterator *brk;
    UTransliterator *latin;
    int latinFailed;
    UTransliterator *simplified;
    int simplifiedFailed;
    UChar *text; int32_t *map; int32_t textCap; int32_t mapCap;   /* input as UTF-16, and UTF-16 index -> UTF-8 offset */
    UChar *a; UChar *b; int32_t scratchCap;        /* normalization scratch */
} analyzer;

static _Thread_local analyzer tl;

/* A thread's ICU objects and buffers are released when it exits (the ingest's reading thread, say). */
static pthread_key_t release_key;
static pthread_once_t release_once = PTHREAD_ONCE_INIT;

static void release_analyzer(void *p) {
    analyzer *a = p;
    if (a->brk) ubrk_close(a->brk);
    if (a->latin) utrans_close(a->latin);
    if (a->simplified) utrans_close(a->simplified);
    free(a->text); free(a->map); free(a->a); free(a->b);
    memset(a, 0, sizeof *a);
}

static void make_release_key(void) { pthread_key_create(&release_key, release_analyzer); }

typedef struct {
    eidx_token *tokens; int32_t tokenCap; int32_t count;
    char *out; int32_t outCap; int32_t outLen;
    int overflow;
    int32_t extraFlags; /* added to every token emitted (EIDX_TOKEN_VARIANT while emitting a spelled-out form) */
} sink;

static int grow(void **p, int32_t *cap, int32_t need, size_t elem) {
    if (*cap >= need) return 1;
    int32_t n = need < 256 ? 256 : need + need / 2;
    void *q = realloc(*p, (size_t)n * elem);
    if (!q) return 0;
    *p = q; *cap = n;
    return 1;
}

static int ensure_scratch(int32_t need) {
    if (tl.scratchCap >= need) return 1;
    int32_t n = need < 256 ? 256 : need * 2;
    UChar *a = realloc(tl.a, (size_t)n * sizeof(UChar));
    if (!a) return 0;
    tl.a = a;
    UChar *b = realloc(tl.b, (size_t)n * sizeof(UChar));
    if (!b) return 0;
    tl.b = b;
    tl.scratchCap = n;
    return 1;
}

static int is_cjk(UChar32 c) {
    if (c == 0x30FC || c == 0xFF70 || c == 0x3005 || c == 0x3006 || c == 0x309D || c == 0x309E || c == 0x30FD ||
        c == 0x30FE) return 1; /* prolonged sound marks and iteration marks */
    UErrorCode e = U_ZERO_ERROR;
    UScriptCode s = uscript_getScript(c, &e);
    if (U_FAILURE(e)) return 0;
    return s == USCRIPT_HAN || s == USCRIPT_HIRAGANA || s == USCRIPT_KATAKANA || s == USCRIPT_HANGUL ||
           s == USCRIPT_BOPOMOFO;
}

static int is_word_char(UChar32 c) {
    return (U_GET_GC_MASK(c) & (U_GC_L_MASK | U_GC_N_MASK | U_GC_M_MASK)) != 0;
}

/* Appends one token: its normalized UTF-16 text, converted to UTF-8, with its source span. */
static void emit(sink *k, const UChar *s, int32_t n, int32_t start, int32_t end, int32_t flags) {
    if (n <= 0) return;
    if (k->count >= k->tokenCap) { k->overflow = 1; return; }
    int32_t len = 0;
    UErrorCode e = U_ZERO_ERROR;
    u_strToUTF8(NULL, 0, &len, s, n, &e);
    if (k->outLen + len > k->outCap) { k->overflow = 1; return; }
    e = U_ZERO_ERROR;
    u_strToUTF8(k->out + k->outLen, k->outCap - k->outLen, &len, s, n, &e);
    eidx_token *t = &k->tokens[k->count++];
    t->start = start; t->end = end; t->norm = k->outLen; t->normLength = len; t->flags = flags | k->extraFlags;
    k->outLen += len;
}

/* Splits normalized text on anything that is not a letter, digit or mark, and emits the parts. */
static void emit_words(sink *k, const UChar *s, int32_t n, int32_t start, int32_t end) {
    int32_t i = 0;
    while (i < n) {
        int32_t from = i, flags = 0;
        while (i < n) {
            int32_t at = i;
            UChar32 c;
            U16_NEXT(s, i, n, c);
            if (!is_word_char(c)) { if (at == from) { from = i; continue; } i = at; break; }
            if (u_isdigit(c) || (U_GET_GC_MASK(c) & U_GC_N_MASK)) flags |= EIDX_TOKEN_DIGIT;
            if (U_GET_GC_MASK(c) & U_GC_L_MASK) flags |= EIDX_TOKEN_LETTER;
        }
        if (i > from) emit(k, s + from, i - from, start, end, flags);
        if (i == from) i++;
    }
}

static int strips_marks(UScriptCode s) {
    return s == USCRIPT_LATIN || s == USCRIPT_GREEK || s == USCRIPT_ARABIC || s == USCRIPT_HEBREW ||
           s == USCRIPT_COMMON || s == USCRIPT_INHERITED;
}

/* Folds letter variants that searchers treat as one letter: Cyrillic yo, Arabic alef wasla, alef maksura,
 * taa marbuta, the Persian and Urdu forms of yeh, kaf and heh, and the tatweel (removed). Works in place on
 * case-folded text; returns the new length. */
static int32_t fold_letters(UChar *a, int32_t len) {
    int32_t w = 0;
    for (int32_t i = 0; i < len; i++) {
        UChar c = a[i];
        switch (c) {
        case 0x0451: c = 0x0435; break; /* ё -> е */
        case 0x0671: c = 0x0627; break; /* ٱ -> ا */
        case 0x0649: c = 0x064A; break; /* ى -> ي */
        case 0x0629: c = 0x0647; break; /* ة -> ه */
        case 0x06CC: c = 0x064A; break; /* Persian ی -> ي */
        case 0x06D2: c = 0x064A; break; /* Urdu ے -> ي */
        case 0x06A9: c = 0x0643; break; /* Persian ک -> ك */
        case 0x06C1: c = 0x0647; break; /* Urdu ہ -> ه */
        case 0x06C0: c = 0x0647; break; /* ۀ -> ه */
        case 0x0640: continue;          /* tatweel */
        default: break;
        }
        a[w++] = c;
    }
    return w;
}

/* Takes case-folded text in tl.a (length len), strips accents where they are accents, folds Latin to ASCII, and
 * emits its words with the given source span. */
static int normalize_emit(sink *k, int32_t len, int32_t start, int32_t end) {
    UErrorCode e = U_ZERO_ERROR;
    len = fold_letters(tl.a, len);
    int ascii = 1, stripping = 0, latin = 0;
    for (int32_t i = 0; i < len; i++) if (tl.a[i] >= 0x80) { ascii = 0; break; }
    if (ascii) { emit_words(k, tl.a, len, start, end); return 0; }

    /* Decompose, drop combining marks that follow a base of a script where marks are accents, recompose. */
    const UNormalizer2 *nfd = unorm2_getNFDInstance(&e);
    const UNormalizer2 *nfc = unorm2_getNFCInstance(&e);
    int32_t dlen = unorm2_normalize(nfd, tl.a, len, tl.b, tl.scratchCap, &e);
    if (U_FAILURE(e)) return -1;
    int32_t w = 0;
    UScriptCode base = USCRIPT_COMMON;
    for (int32_t i = 0; i < dlen;) {
        int32_t at = i;
        UChar32 c;
        U16_NEXT(tl.b, i, dlen, c);
        if (u_charType(c) == U_NON_SPACING_MARK) {
            if (strips_marks(base)) { stripping = 1; continue; }
        } else {
            UErrorCode se = U_ZERO_ERROR;
            base = uscript_getScript(c, &se);
            if (base == USCRIPT_LATIN && c >= 0x80) latin = 1;
        }
        while (at < i) tl.b[w++] = tl.b[at++];
    }
    if (stripping) {
        len = unorm2_normalize(nfc, tl.b, w, tl.a, tl.scratchCap, &e);
        if (U_FAILURE(e)) return -1;
    }
    if (latin && !tl.latinFailed) {
        /* Letters that do not decompose (æ, ø, ł, đ, þ…) still need folding to ASCII. */
        if (!tl.latin) {
            UErrorCode te = U_ZERO_ERROR;
            static const UChar id[] = {'L', 'a', 't', 'i', 'n', '-', 'A', 'S', 'C', 'I', 'I', 0};
            tl.latin = utrans_openU(id, -1, UTRANS_FORWARD, NULL, 0, NULL, &te);
            if (U_FAILURE(te)) { tl.latin = NULL; tl.latinFailed = 1; }
        }
        int any = 0;
        for (int32_t i = 0; i < len; i++) if (tl.a[i] >= 0x80) { any = 1; break; }
        if (tl.latin && any) {
            int32_t limit = len, textLen = len;
            UErrorCode te = U_ZERO_ERROR;
            utrans_transUChars(tl.latin, tl.a, &textLen, tl.scratchCap, 0, &limit, &te);
            if (U_SUCCESS(te)) {
                len = textLen;
                for (int32_t i = 0; i < len; i++) if (tl.a[i] >= 'A' && tl.a[i] <= 'Z') tl.a[i] += 32;
            }
        }
    }
    emit_words(k, tl.a, len, start, end);
    return 0;
}

/* The length of an Arabic definite article at the start of a word (ال, and وال بال فال كال, and لل), or 0; only
 * when at least three letters follow, so that short words are never cut. */
static int32_t arabic_article(const UChar *a, int32_t len) {
    /* The first three letters, skipping marks (وَالْكِتَاب), and where each ends. */
    UChar first[3];
    int32_t after[3], found = 0;
    for (int32_t i = 0; i < len && found < 3; i++) {
        if (u_charType(a[i]) == U_NON_SPACING_MARK) continue;
        first[found] = a[i];
        int32_t j = i + 1;
        while (j < len && u_charType(a[j]) == U_NON_SPACING_MARK) j++;
        after[found++] = j;
    }
#define ALEF(c) ((c) == 0x0627 || (c) == 0x0671)
    int32_t n = 0;
    if (found == 3 && (first[0] == 0x0648 || first[0] == 0x0628 || first[0] == 0x0641 || first[0] == 0x0643) &&
        ALEF(first[1]) && first[2] == 0x0644)
        n = after[2];
    else if (found >= 2 && ((ALEF(first[0]) && first[1] == 0x0644) || (first[0] == 0x0644 && first[1] == 0x0644)))
        n = after[1];
#undef ALEF
    if (n == 0) return 0;
    int32_t letters = 0;
    for (int32_t i = n; i < len; i++) if (u_charType(a[i]) != U_NON_SPACING_MARK) letters++;
    return letters >= 3 ? n : 0;
}

/* Normalizes one run of letters/digits/marks (never CJK) and emits its words; for documents, a word with German
 * umlauts is also emitted spelled out (ä -> ae), so that both "muller" and "mueller" find "Müller", and an Arabic
 * word is also emitted without its definite article (الكتاب -> كتاب), so that "كتاب" finds "الكتاب". */
static int flush_word(sink *k, int32_t from, int32_t to, int32_t flags) {
    const UChar *src = tl.text + from;
    int32_t n = to - from;
    int32_t start = tl.map[from], end = tl.map[to];
    if (!ensure_scratch(n * 18 + 16)) return -1;
    UErrorCode e = U_ZERO_ERROR;
    const UNormalizer2 *fold = unorm2_getNFKCCasefoldInstance(&e);
    int32_t len = unorm2_normalize(fold, src, n, tl.a, tl.scratchCap, &e);
    if (U_FAILURE(e)) return -1;
    int umlauts = 0;
    if (flags & EIDX_ANALYZE_DOCUMENT)
        for (int32_t i = 0; i < len; i++) if (tl.a[i] == 0xE4 || tl.a[i] == 0xF6 || tl.a[i] == 0xFC) umlauts++;
    UChar *expanded = NULL;
    int32_t expandedLen = 0;
    if (umlauts) {
        expanded = malloc((size_t)(len + umlauts) * sizeof(UChar));
        if (!expanded) return -1;
        for (int32_t i = 0; i < len; i++) {
            UChar c = tl.a[i];
            if (c == 0xE4 || c == 0xF6 || c == 0xFC) {
                expanded[expandedLen++] = c == 0xE4 ? 'a' : (c == 0xF6 ? 'o' : 'u');
                expanded[expandedLen++] = 'e';
            } else {
                expanded[expandedLen++] = c;
            }
        }
    } else if (flags & EIDX_ANALYZE_DOCUMENT) {
        int32_t article = arabic_article(tl.a, len);
        if (article) {
            expanded = malloc((size_t)(len - article) * sizeof(UChar));
            if (!expanded) return -1;
            expandedLen = len - article;
            memcpy(expanded, tl.a + article, (size_t)expandedLen * sizeof(UChar));
        }
    }
    int rc = normalize_emit(k, len, start, end);
    if (rc == 0 && expanded) {
        if (!ensure_scratch(expandedLen * 18 + 16)) { free(expanded); return -1; }
        memcpy(tl.a, expanded, (size_t)expandedLen * sizeof(UChar));
        k->extraFlags = EIDX_TOKEN_VARIANT;
        rc = normalize_emit(k, expandedLen, start, end);
        k->extraFlags = 0;
    }
    free(expanded);
    return rc;
}

/* Normalizes a run of CJK characters and emits one token per character. */
static int flush_cjk(sink *k, int32_t from, int32_t to) {
    int32_t n = to - from;
    if (!ensure_scratch(n * 18 + 16)) return -1;
    UErrorCode e = U_ZERO_ERROR;
    const UNormalizer2 *fold = unorm2_getNFKCCasefoldInstance(&e);
    int32_t len = unorm2_normalize(fold, tl.text + from, n, tl.a, tl.scratchCap, &e);
    if (U_FAILURE(e)) return -1;
    /* Traditional Han folds to Simplified (東京 and 东京 are one word to a searcher). */
    int han = 0;
    for (int32_t i = 0; i < len; i++) if (tl.a[i] >= 0x3400 && tl.a[i] < 0xA000) { han = 1; break; }
    if (han && !tl.simplifiedFailed) {
        if (!tl.simplified) {
            UErrorCode te = U_ZERO_ERROR;
            static const UChar id[] = {'T', 'r', 'a', 'd', 'i', 't', 'i', 'o', 'n', 'a', 'l', '-',
                                       'S', 'i', 'm', 'p', 'l', 'i', 'f', 'i', 'e', 'd', 0};
            tl.simplified = utrans_openU(id, -1, UTRANS_FORWARD, NULL, 0, NULL, &te);
            if (U_FAILURE(te)) { tl.simplified = NULL; tl.simplifiedFailed = 1; }
        }
        if (tl.simplified) {
            int32_t limit = len, textLen = len;
            UErrorCode te = U_ZERO_ERROR;
            utrans_transUChars(tl.simplified, tl.a, &textLen, tl.scratchCap, 0, &limit, &te);
            if (U_SUCCESS(te)) len = textLen;
        }
    }
    /* Katakana folds to Hiragana (ラーメン and らーめん are one word); the prolonged sound mark stays. */
    for (int32_t i = 0; i < len; i++) {
        UChar c = tl.a[i];
        if ((c >= 0x30A1 && c <= 0x30F6) || c == 0x30FD || c == 0x30FE) tl.a[i] = (UChar)(c - 0x60);
    }
    int32_t srcCount = u_countChar32(tl.text + from, n), outCount = u_countChar32(tl.a, len);
    int32_t si = from;
    for (int32_t i = 0; i < len;) {
        int32_t at = i;
        UChar32 c;
        U16_NEXT(tl.a, i, len, c);
        int32_t start = tl.map[from], end = tl.map[to];
        if (srcCount == outCount) {
            int32_t sat = si;
            UChar32 sc;
            U16_NEXT(tl.text, si, to, sc);
            (void)sc;
            start = tl.map[sat]; end = tl.map[si];
        }
        if (u_charType(c) == U_NON_SPACING_MARK || u_charType(c) == U_MODIFIER_LETTER) {
            if (!is_cjk(c)) continue; /* a stray voicing mark */
        }
        emit(k, tl.a + at, i - at, start, end, EIDX_TOKEN_CJK | EIDX_TOKEN_LETTER);
    }
    return 0;
}

/* Normalizes the whole input to NFKC before it is segmented, so that the words ICU finds do not depend on the
 * Unicode form the text arrived in: halfwidth katakana (ﾎﾞﾂﾜﾅ) become one katakana word, conjoining jamo (NFD
 * Hangul) become syllables, combining marks compose. tl.text/tl.map are replaced by the normalized text and a map
 * from each of its code units to the UTF-8 offset of the source characters it came from (every unit of an
 * expansion such as ㍿ -> 株式会社 maps to the start of its source). Thai and Lao SARA AM are left as they are
 * (NFKC splits them in two, which the Thai dictionary does not know); per-word folding still treats them as
 * before. Returns the new length, or -1. */
static int32_t normalize_input(int32_t n) {
    UErrorCode e = U_ZERO_ERROR;
    const UNormalizer2 *nfkc = unorm2_getNFKCInstance(&e);
    if (U_FAILURE(e)) return -1;
    int32_t span = unorm2_spanQuickCheckYes(nfkc, tl.text, n, &e);
    if (U_FAILURE(e)) return -1;
    if (span >= n) return n;
    int32_t cap = n * 4 + 16;
    UChar *out = malloc((size_t)cap * sizeof(UChar));
    int32_t *omap = malloc((size_t)(cap + 1) * sizeof(int32_t));
    if (!out || !omap) { free(out); free(omap); return -1; }
    memcpy(out, tl.text, (size_t)span * sizeof(UChar));
    memcpy(omap, tl.map, (size_t)span * sizeof(int32_t));
    int32_t w = span;
    for (int32_t i = span; i < n;) {
        /* One chunk: a character and what follows it up to the next normalization boundary. */
        int32_t j = i;
        UChar32 c;
        U16_NEXT(tl.text, j, n, c);
        int keep = (c == 0x0E33 || c == 0x0EB3);
        while (!keep && j < n) {
            int32_t k = j;
            UChar32 d;
            U16_NEXT(tl.text, k, n, d);
            if (d == 0x0E33 || d == 0x0EB3 || unorm2_hasBoundaryBefore(nfkc, d)) break;
            j = k;
        }
        int32_t need = (j - i) * 18 + 4;
        if (w + need > cap) {
            int32_t ncap = (w + need) * 2;
            UChar *o2 = realloc(out, (size_t)ncap * sizeof(UChar));
            if (!o2) { free(out); free(omap); return -1; }
            out = o2;
            int32_t *m2 = realloc(omap, (size_t)(ncap + 1) * sizeof(int32_t));
            if (!m2) { free(out); free(omap); return -1; }
            omap = m2;
            cap = ncap;
        }
        int32_t len;
        if (keep) {
            len = j - i;
            memcpy(out + w, tl.text + i, (size_t)len * sizeof(UChar));
        } else {
            e = U_ZERO_ERROR;
            len = unorm2_normalize(nfkc, tl.text + i, j - i, out + w, cap - w, &e);
            if (U_FAILURE(e)) { free(out); free(omap); return -1; }
        }
        for (int32_t k = 0; k < len; k++) omap[w + k] = tl.map[i];
        w += len;
        i = j;
    }
    omap[w] = tl.map[n];
    if (!grow((void **)&tl.text, &tl.textCap, w + 1, sizeof(UChar)) ||
        !grow((void **)&tl.map, &tl.mapCap, w + 1, sizeof(int32_t))) { free(out); free(omap); return -1; }
    memcpy(tl.text, out, (size_t)w * sizeof(UChar));
    memcpy(tl.map, omap, (size_t)(w + 1) * sizeof(int32_t));
    free(out);
    free(omap);
    return w;
}

static int32_t to_utf16(const char *utf8, int32_t length) {
    if (!grow((void **)&tl.text, &tl.textCap, length + 1, sizeof(UChar))) return -1;
    if (!grow((void **)&tl.map, &tl.mapCap, length + 1, sizeof(int32_t))) return -1;
    const uint8_t *s = (const uint8_t *)utf8;
    int32_t i = 0, n = 0;
    while (i < length) {
        UChar32 c;
        int32_t at = i;
        U8_NEXT(s, i, length, c);
        if (c < 0) c = 0xFFFD;
        if (c <= 0xFFFF) { tl.map[n] = at; tl.text[n++] = (UChar)c; }
        else { tl.map[n] = at; tl.text[n++] = U16_LEAD(c); tl.map[n] = at; tl.text[n++] = U16_TRAIL(c); }
    }
    tl.map[n] = length;
    return n;
}

int32_t eidx_analyze(const char *utf8, int32_t length, int32_t flags, eidx_token *tokens, int32_t tokenCapacity,
                     char *out, int32_t outCapacity, int32_t *tokenCount, int32_t *outLength) {
    sink k = {tokens, tokenCapacity, 0, out, outCapacity, 0, 0, 0};
    int32_t n = to_utf16(utf8, length);
    if (n < 0) return -1;
    n = normalize_input(n);
    if (n < 0) return -1;
    UErrorCode e = U_ZERO_ERROR;
    if (!tl.brk) {
        tl.brk = ubrk_open(UBRK_WORD, "", NULL, 0, &e);
        if (U_FAILURE(e)) { tl.brk = NULL; return -1; }
        pthread_once(&release_once, make_release_key);
        pthread_setspecific(release_key, &tl);
    }
    ubrk_setText(tl.brk, tl.text, n, &e);
    if (U_FAILURE(e)) return -1;
    int32_t start = ubrk_first(tl.brk);
    for (int32_t end = ubrk_next(tl.brk); end != UBRK_DONE; start = end, end = ubrk_next(tl.brk)) {
        if (ubrk_getRuleStatus(tl.brk) < UBRK_WORD_NONE_LIMIT) {
            /* Punctuation and spaces; but a CJK character ICU calls "none" (rare) is still a word. */
            int any = 0;
            for (int32_t i = start; i < end;) { UChar32 c; U16_NEXT(tl.text, i, end, c); if (is_cjk(c) && u_isalpha(c)) any = 1; }
            if (!any) continue;
        }
        /* Split the segment into runs: word characters, CJK characters, and separators between them. */
        int32_t runStart = start, kind = 0; /* 0 none, 1 word, 2 cjk */
        for (int32_t i = start; i <= end;) {
            int32_t at = i, ck = 0;
            if (i < end) {
                UChar32 c;
                U16_NEXT(tl.text, i, end, c);
                if (is_cjk(c)) ck = 2;
                else if (is_word_char(c)) ck = (kind == 2 && (U_GET_GC_MASK(c) & (U_GC_M_MASK | U_GC_LM_MASK))) ? 2 : 1;
            } else {
                i++;
            }
            if (ck != kind) {
                if (kind == 1 && flush_word(&k, runStart, at, flags) < 0) return -1;
                if (kind == 2 && flush_cjk(&k, runStart, at) < 0) return -1;
                kind = ck; runStart = at;
            }
        }
        if (k.overflow) return -2;
    }
    if (k.overflow) return -2;
    *tokenCount = k.count;
    *outLength = k.outLen;
    return 0;
}

int32_t eidx_icu_version(char *buffer, int32_t capacity) {
    UVersionInfo v;
    char s[U_MAX_VERSION_STRING_LENGTH];
    u_getVersion(v);
    u_versionToString(v, s);
    int32_t n = (int32_t)strlen(s);
    if (n >= capacity) n = capacity - 1;
    memcpy(buffer, s, (size_t)n);
    buffer[n] = 0;
    return n;
}
