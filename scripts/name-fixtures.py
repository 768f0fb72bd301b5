#!/usr/bin/env python3
"""Builds the fixtures of names in other scripts from Debian's packages, so that transliteration and readings are
tested on names and words no one here wrote.

- Tests/Fixtures/iso-country-names.ndjson: the country names of iso-codes (ISO 3166-1) in Russian, Greek, Arabic and
  Hebrew, from its translations, one record each with ids `ru-DE`, `el-DE`, `ar-DE`, `he-DE`…
- Tests/Fixtures/japanese-prefectures.ndjson: Japan's 47 prefectures from iso-codes (ISO 3166-2:JP), titled by their
  Japanese names (iso-codes' ja translation, 東京) and carrying the ISO name in Latin letters (Tokyo) as `latin`.
- Tests/Fixtures/japanese-words.tsv: `reading<TAB>word` pairs from SKK-JISYO.L (skkdic), a kana-to-kanji dictionary:
  every Nth entry whose first candidate is two to four kanji and whose reading is three to eight hiragana.

Usage: scripts/name-fixtures.py [--every 260] (needs iso-codes and skkdic: apt-get install iso-codes skkdic)
"""

import argparse
import gettext
import json
import re
import sys

ISO = "/usr/share/iso-codes/json/iso_3166-2.json"
COUNTRIES = "/usr/share/iso-codes/json/iso_3166-1.json"
SKK = "/usr/share/skk/SKK-JISYO.L"
KANJI = re.compile(r"^[\u4e00-\u9fff\u3005]{2,4}$")
HIRAGANA = re.compile(r"^[\u3041-\u3096\u30fc]{3,8}$")


def countries(out):
    with open(COUNTRIES, encoding="utf-8") as f:
        entries = json.load(f)["3166-1"]
    lines = []
    for lang in ["ru", "el", "ar", "he"]:
        translation = gettext.translation("iso_3166-1", localedir="/usr/share/locale", languages=[lang])
        for e in entries:
            name = translation.gettext(e["name"])
            if name != e["name"]:
                record = {"type": "country", "id": f"{lang}-{e['alpha_2']}", "title": name}
                lines.append(json.dumps(record, ensure_ascii=False))
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return len(lines)


def prefectures(out):
    ja = gettext.translation("iso_3166-2", localedir="/usr/share/locale", languages=["ja"])
    with open(ISO, encoding="utf-8") as f:
        entries = [e for e in json.load(f)["3166-2"] if e["code"].startswith("JP-")]
    with open(out, "w", encoding="utf-8") as f:
        for e in entries:
            title = ja.gettext(e["name"])
            if title == e["name"]:
                sys.exit(f"no Japanese name for {e['code']}")
            record = {"type": "prefecture", "id": e["code"], "title": title, "properties": {"latin": e["name"]}}
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
    return len(entries)


def words(out, every):
    pairs = []
    in_okuri_nasi = False
    with open(SKK, encoding="euc-jp", errors="replace") as f:
        for line in f:
            if line.startswith(";; okuri-nasi"):
                in_okuri_nasi = True
            if not in_okuri_nasi or line.startswith(";"):
                continue
            reading, _, rest = line.rstrip("\n").partition(" /")
            first = rest.split("/")[0].split(";")[0]
            if HIRAGANA.match(reading) and KANJI.match(first):
                pairs.append((reading, first))
    chosen = pairs[::every]
    with open(out, "w", encoding="utf-8") as f:
        for reading, word in chosen:
            f.write(f"{reading}\t{word}\n")
    return len(pairs), len(chosen)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=260)
    parser.add_argument("--out", default="Tests/Fixtures")
    args = parser.parse_args()
    c = countries(f"{args.out}/iso-country-names.ndjson")
    n = prefectures(f"{args.out}/japanese-prefectures.ndjson")
    total, chosen = words(f"{args.out}/japanese-words.tsv", args.every)
    print(f"{c} country names; {n} prefectures; {chosen} of {total} dictionary words")


if __name__ == "__main__":
    main()
