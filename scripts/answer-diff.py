#!/usr/bin/env python3
"""Compares the search answers of two entityidx binaries on the same records and queries, byte for byte.

Each binary ingests the records (NDJSON) into a database of its own, then answers the same queries through its
pipe (`search`, with --explain's tiers when --explain is given); the answers are compared line by line and every
difference is printed with its query. The queries are drawn, with a fixed seed, from the records' titles and
subtitles as a person would type them: one word, two and three words, prefixes of 1 to 5 letters of a title, whole
titles, and words with one letter dropped (typos).

Usage: answer-diff.py --records FILE --old BINARY --new BINARY [--work DIR] [--per-class N] [--explain] [--limit K]
Python 3 standard library only.
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import time


def queries(path, per_class, seed=7):
    titles, texts = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            titles.append(r.get("title", ""))
            texts.append((r.get("subtitle") or "") + " " + (r.get("description") or "")[:400])
    rng = random.Random(seed)
    words = lambda t: [w for w in re.findall(r"[^\W_]+", t.lower()) if len(w) > 1]
    def pick(n):
        while True:
            ws = words(rng.choice(texts))
            if len(ws) >= n:
                i = rng.randrange(len(ws) - n + 1)
                return " ".join(ws[i:i + n])
    out = []
    for n in (1, 2, 3):
        out += [pick(n) for _ in range(per_class)]
    for k in range(1, 6):
        for _ in range(per_class):
            t = rng.choice(titles).lower()
            out.append(t[:k])
    out += [rng.choice(titles) for _ in range(per_class)]
    for _ in range(per_class):
        w = max(words(rng.choice(texts)) or ["x"], key=len)
        i = rng.randrange(1, len(w)) if len(w) > 2 else 0
        out.append(w[:i] + w[i + 1:])
    return [q for q in out if q.strip()]


def answers(binary, db, records, qs, explain, limit):
    if os.path.exists(db):
        os.remove(db)
    t = time.time()
    subprocess.run([binary, "--db", db, "ingest", records], check=True, stdout=subprocess.DEVNULL)
    ingest = time.time() - t
    p = subprocess.Popen([binary, "--db", db, "pipe"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    out = []
    for i, q in enumerate(qs):
        params = {"query": q, "limit": limit, "explain": explain}
        p.stdin.write((json.dumps({"jsonrpc": "2.0", "id": i, "method": "search", "params": params}) + "\n").encode())
        p.stdin.flush()
        out.append(p.stdout.readline())
    p.stdin.close()
    p.wait()
    return out, ingest, os.path.getsize(db)


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--records", required=True)
    a.add_argument("--old", required=True)
    a.add_argument("--new", required=True)
    a.add_argument("--work", default=".")
    a.add_argument("--per-class", type=int, default=100)
    a.add_argument("--explain", action="store_true")
    a.add_argument("--limit", type=int, default=20)
    args = a.parse_args()
    qs = queries(args.records, args.per_class)
    old, old_ingest, old_size = answers(args.old, os.path.join(args.work, "old.sqlite"), args.records, qs, args.explain, args.limit)
    new, new_ingest, new_size = answers(args.new, os.path.join(args.work, "new.sqlite"), args.records, qs, args.explain, args.limit)
    diffs = [(q, o, n) for q, o, n in zip(qs, old, new) if o != n]
    for q, o, n in diffs[:20]:
        print("query %r\n  old %s\n  new %s" % (q, o[:600], n[:600]))
    print("%d queries, %d answers differ; ingest %.1f s / %.1f s; database %.1f MB / %.1f MB (old / new)" % (
        len(qs), len(diffs), old_ingest, new_ingest, old_size / 1e6, new_size / 1e6))
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
