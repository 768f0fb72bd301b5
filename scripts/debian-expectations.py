#!/usr/bin/env python3
"""Writes an expectations file for `entityidx test` from Debian's package list (the NDJSON of debian-corpus.py).

Each case is what a developer would pin for a package: its name finds it first, the words of its short description
find it within the first 20, a prefix of its name finds it within the first 20 as typed, and a property query by its
section holds it. Cases are drawn with a fixed seed, so the file is the same for the same list.

Usage: debian-expectations.py --records FILE --out FILE [--cases N]
Python 3 standard library only.
"""

import argparse
import json
import random
import re


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--records", required=True)
    a.add_argument("--out", required=True)
    a.add_argument("--cases", type=int, default=1000)
    args = a.parse_args()
    with open(args.records, encoding="utf-8") as f:
        records = [json.loads(line) for line in f]
    rng = random.Random(11)
    cases = []
    while len(cases) < args.cases:
        r = rng.choice(records)
        key = f"{r['type']}/{r['id']}"
        kind = len(cases) % 4
        if kind == 0:
            cases.append({"name": f"{r['id']} by its name", "search": {"query": r["title"], "limit": 5},
                          "expect": {"top": [key]}})
        elif kind == 1:
            words = [w for w in re.findall(r"[^\W_]+", (r.get("subtitle") or "").lower()) if len(w) > 2][:4]
            if len(words) < 2:
                continue
            cases.append({"name": f"{r['id']} by its description", "search": {"query": " ".join(words), "limit": 20},
                          "expect": {"rankAtMost": {key: 20}}})
        elif kind == 2:
            prefix = r["title"][: max(3, len(r["title"]) * 2 // 3)]
            cases.append({"name": f"{r['id']} as its name is typed", "search": {"query": prefix, "limit": 20},
                          "expect": {"rankAtMost": {key: 20}}})
        else:
            section = (r.get("properties") or {}).get("section")
            if not isinstance(section, str):
                continue
            source = (r.get("properties") or {}).get("source")
            if not isinstance(source, str):
                continue
            cases.append({"name": f"{r['id']} among the {section} packages of {source}",
                          "query": {"type": r["type"], "limit": 50, "filters": [
                              {"property": "section", "op": "eq", "value": section},
                              {"property": "source", "op": "eq", "value": source}]},
                          "expect": {"contains": [key]}})
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(cases, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
