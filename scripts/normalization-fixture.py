#!/usr/bin/env python3
"""Makes Tests/Fixtures/normalization-forms.tsv from Debian's unicode-data (NormalizationTest.txt, UnicodeData.txt).

Each output line is `script<TAB>form1<TAB>…<TAB>form5` (code points as hex, space-separated, like the source): the
five forms of one NormalizationTest.txt line (source, NFC, NFD, NFKC, NFKD), which NFKC makes equal; and, for each
UnicodeData.txt character with a <wide> or <narrow> decomposition, the character and its decomposition. Only Latin,
Greek, Cyrillic, kana, Hangul and Han are kept, at most PER_SCRIPT lines each (spread over the file), so that the
fixture stays small. Usage: scripts/normalization-fixture.py [UNICODE_DIR] > Tests/Fixtures/normalization-forms.tsv
"""
import bz2
import os
import sys
import unicodedata

DIR = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/unicode"
PER_SCRIPT = 60
SCRIPTS = [("latin", ("LATIN",)), ("greek", ("GREEK",)), ("cyrillic", ("CYRILLIC",)),
           ("kana", ("HIRAGANA", "KATAKANA", "HALFWIDTH KATAKANA")), ("hangul", ("HANGUL", "HALFWIDTH HANGUL")),
           ("han", ("CJK",))]


def script(cps):
    """The script of a sequence, when every letter in it is of one of SCRIPTS (marks follow their base)."""
    found = None
    for cp in cps:
        ch = chr(cp)
        if unicodedata.category(ch).startswith("M"):
            continue
        name = unicodedata.name(ch, "")
        name = name.replace("FULLWIDTH ", "").replace("SQUARED ", "").replace("PARENTHESIZED ", "")
        s = next((k for k, prefixes in SCRIPTS if name.startswith(prefixes)), None)
        if s is None or (found and s != found):
            return None
        found = s
    return found


def hexes(cps):
    return " ".join(f"{cp:04X}" for cp in cps)


rows = {k: [] for k, _ in SCRIPTS}
test = f"{DIR}/NormalizationTest.txt"
with (open(test, encoding="utf-8") if os.path.exists(test) else bz2.open(test + ".bz2", "rt", encoding="utf-8")) as f:
    for line in f:
        line = line.split("#")[0].strip()
        if not line or line.startswith("@"):
            continue
        forms = [[int(x, 16) for x in field.split()] for field in line.split(";")[:5]]
        s = script(forms[0])
        if s and len(set(map(tuple, forms))) > 1:
            rows[s].append(forms)
with open(f"{DIR}/UnicodeData.txt", encoding="utf-8") as f:
    for line in f:
        fields = line.split(";")
        if fields[5].startswith(("<wide>", "<narrow>")):
            cp = int(fields[0], 16)
            decomposition = [int(x, 16) for x in fields[5].split()[1:]]
            s = script([cp])
            if s:
                rows[s].append([[cp], decomposition])

for k, _ in SCRIPTS:
    found = rows[k]
    step = max(1, len(found) // PER_SCRIPT)
    for forms in found[::step][:PER_SCRIPT]:
        print(k + "\t" + "\t".join(hexes(f) for f in forms))
