/* Case and diacritic folding of whole strings with ICU, for the `c` and `d` modifiers of Core Spotlight queries.
 *
 * Unlike eidx_analyze this keeps the text whole (no segmentation) and changes nothing but case and marks, so that
 * a wildcard pattern folded the same way still lines up with the folded value.
 * https://unicode-org.github.io/icu/userguide/transforms/casemappings.html and .../normalization/ */

#include "CEntityIdx.h"

#include <stdlib.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>

int32_t eidx_fold(const char *utf8, int32_t length, int32_t flags, char *out, int32_t outCapacity, int32_t *outLength) {
    UErrorCode e = U_ZERO_ERROR;
    int32_t n = 0;
    u_strFromUTF8Lenient(NULL, 0, &n, utf8, length, &e);
    if (e != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(e)) return -1;
    e = U_ZERO_ERROR;
    /* Room for NFD expansion and full case folding (at most three code units per unit in practice). */
    int32_t cap = n * 4 + 16;
    UChar *a = malloc((size_t)cap * sizeof(UChar));
    UChar *b = malloc((size_t)cap * sizeof(UChar));
    int32_t rc = -1;
    if (!a || !b) goto done;
    u_strFromUTF8Lenient(a, cap, &n, utf8, length, &e);
    if (U_FAILURE(e)) goto done;
    const UNormalizer2 *nfd = unorm2_getNFDInstance(&e);
    const UNormalizer2 *nfc = unorm2_getNFCInstance(&e);
    if (U_FAILURE(e)) goto done;
    if (flags & EIDX_FOLD_MARKS) {
        int32_t d = unorm2_normalize(nfd, a, n, b, cap, &e);
        if (U_FAILURE(e)) goto done;
        int32_t w = 0;
        for (int32_t i = 0; i < d;) {
            UChar32 c;
            int32_t at = i;
            U16_NEXT(b, i, d, c);
            if (u_charType(c) == U_NON_SPACING_MARK) continue;
            while (at < i) a[w++] = b[at++];
        }
        n = w;
    }
    if (flags & EIDX_FOLD_CASE) {
        int32_t f = u_strFoldCase(b, cap, a, n, U_FOLD_CASE_DEFAULT, &e);
        if (U_FAILURE(e)) goto done;
        for (int32_t i = 0; i < f; i++) a[i] = b[i];
        n = f;
    }
    int32_t c = unorm2_normalize(nfc, a, n, b, cap, &e);
    if (U_FAILURE(e)) goto done;
    int32_t written = 0;
    u_strToUTF8(out, outCapacity, &written, b, c, &e);
    *outLength = written;
    if (e == U_BUFFER_OVERFLOW_ERROR || e == U_STRING_NOT_TERMINATED_WARNING) {
        rc = written > outCapacity ? -2 : 0;
    } else {
        rc = U_FAILURE(e) ? -1 : 0;
    }
done:
    free(a);
    free(b);
    return rc;
}
