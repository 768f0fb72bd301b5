#!/usr/bin/env python3
"""Compares the search answers of two entityidx binaries on the same records and queries, byte for byte.

Each binary ingests the records (NDJSON) into a database of its own (or both read --db, a database that holds
them), then answers the same queries through its pipe (`search`, with --explain's tiers when --explain is given;
or, with --method userQuery, `userQuery`'s suggestions); the answers are compared line by line and every
difference is printed with its query, then the time each binary took for the queries. The queries are drawn, with
a fixed seed, from the records' titles and subtitles as a person would type them: one word, two and three words,
prefixes of 1 to 5 letters of a title, whole titles, and words with one letter dropped (typos); for userQuery also
longer prefixes of titles, later words of titles and keywords (`utils` of `foo-utils`, `strategy` of
`game::strategy`) and titles with a letter dropped.

Usage: answer-diff.py --records FILE --old BINARY --new BINARY [--work DIR | --db FILE] [--now TIME] [--per-class N]
                      [--method search|userQuery] [--explain] [--limit K]
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


def queries(path, per_class, suggestions=False, seed=7):
    titles, texts, names = [], [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            titles.append(r.get("title", ""))
            texts.append((r.get("subtitle") or "") + " " + (r.get("description") or "")[:400])
            names += [n for n in (r.get("keywords") or []) + (r.get("synonyms") or []) if isinstance(n, str)]
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
    if suggestions:
        for k in (6, 8, 10, 14):
            out += [rng.choice(titles).lower()[:k] for _ in range(per_class)]
        for source in (titles, names):
            for _ in range(per_class):
                parts = []
                while not parts:
                    parts = [p for p in re.split(r"[^\w]+", rng.choice(source).lower()) if p][1:]
                w = rng.choice(parts)
                out.append(w[:rng.randrange(2, len(w) + 1)] if len(w) > 2 else w)
        for _ in range(per_class):
            t = rng.choice(titles).lower()
            i = rng.randrange(1, len(t)) if len(t) > 2 else 0
            out.append(t[:i] + t[i + 1:])
    return [q for q in out if q.strip()]


def answers(binary, db, records, qs, explain, limit, method="search", ingest=True, now=None):
    clock = ["--now", now] if now else []
    started = time.time()
    if ingest:
        if os.path.exists(db):
            os.remove(db)
        subprocess.run([binary, "--db", db, *clock, "ingest", records], check=True, stdout=subprocess.DEVNULL)
    ingested = time.time() - started
    p = subprocess.Popen([binary, "--db", db, *clock, "pipe"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    out = []
    started = time.time()
    for i, q in enumerate(qs):
        if method == "userQuery":
            params = {"query": q, "maxItems": 0, "maxSuggestions": limit}
        else:
            params = {"query": q, "limit": limit, "explain": explain}
        p.stdin.write((json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}) + "\n").encode())
        p.stdin.flush()
        out.append(p.stdout.readline())
    answering = time.time() - started
    p.stdin.close()
    p.wait()
    return out, ingested, os.path.getsize(db), answering


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--records", required=True)
    a.add_argument("--old", required=True)
    a.add_argument("--new", required=True)
    a.add_argument("--work", default=".")
    a.add_argument("--db", help="a database that holds the records, read by both binaries (no ingest)")
    a.add_argument("--now", help="the clock of both binaries (--now), for a --db ingested at another time")
    a.add_argument("--per-class", type=int, default=100)
    a.add_argument("--method", choices=["search", "userQuery"], default="search")
    a.add_argument("--explain", action="store_true")
    a.add_argument("--limit", type=int, help="results (search, default 20) or suggestions (userQuery, default 5)")
    args = a.parse_args()
    limit = args.limit or (5 if args.method == "userQuery" else 20)
    qs = queries(args.records, args.per_class, suggestions=args.method == "userQuery")
    run = lambda binary, name: answers(binary, args.db or os.path.join(args.work, name), args.records, qs,
                                       args.explain, limit, args.method, ingest=args.db is None, now=args.now)
    old, old_ingest, old_size, old_time = run(args.old, "old.sqlite")
    new, new_ingest, new_size, new_time = run(args.new, "new.sqlite")
    diffs = [(q, o, n) for q, o, n in zip(qs, old, new) if o != n]
    for q, o, n in diffs[:20]:
        print("query %r\n  old %s\n  new %s" % (q, o[:600], n[:600]))
    empty = sum(1 for line in old if b'"suggestions":[]' in line) if args.method == "userQuery" else 0
    print("%d queries%s, %d answers differ; answered in %.1f s / %.1f s" % (
        len(qs), " (%d without suggestions)" % empty if args.method == "userQuery" else "", len(diffs),
        old_time, new_time), end="")
    if args.db:
        print(" (old / new)")
    else:
        print("; ingest %.1f s / %.1f s; database %.1f MB / %.1f MB (old / new)" % (
            old_ingest, new_ingest, old_size / 1e6, new_size / 1e6))
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
