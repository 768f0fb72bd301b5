#!/usr/bin/env python3
"""Times the same searches on two or more entityidx binaries, interleaved, to cost a change of the ranking.

Each binary ingests the records (NDJSON) into a database of its own, then answers through one long-lived `entityidx
pipe` each. The queries are scripts/answer-diff.py's real mix (seeded: one to three words, title prefixes of 1 to 5
letters, whole titles, words with a letter dropped) plus words made to reach the split and joined tier: two adjacent
words of a description typed as one (`strategygame`), and a long word typed in two (`multi player`). The last binary
classifies each query with --explain: `typed` when it finds something and no result matched by a typo, a split, a
join or inside a code; `split`/`joined` when a result says so; `typo`, `code` or `none` otherwise.

Timing: every request is timed from its line written to its answer read (limit 20, no explain). A round asks each
query of the selected classes of every binary in turn, the binaries' order rotating from query to query and round
to round (A B, B A, ...), so that the machine's noise falls on all of them alike; a first round warms up and is not
counted. Printed per class and binary: p50 and p99 over every timed request, the change of each against the first
binary, the median of the per-query ratios, how many queries answered other ids, and the load average.

Usage: tier-cost.py --records FILE --bin NAME=BINARY [--bin NAME=BINARY ...] [--work DIR] [--per-class N]
                    [--joined N] [--rounds R] [--seed S]
Python 3 standard library only.
"""

import argparse
import importlib.util
import json
import os
import random
import re
import statistics
import subprocess
import time

LIMIT = 20


class Pipe:
    def __init__(self, binary, db):
        self.p = subprocess.Popen([binary, "--db", db, "pipe"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.n = 0

    def search(self, query, explain=False):
        """The answer and the seconds from the request written to its answer read."""
        self.n += 1
        line = (json.dumps({"jsonrpc": "2.0", "id": self.n, "method": "search",
                            "params": {"query": query, "limit": LIMIT, "explain": explain}}) + "\n").encode()
        started = time.perf_counter()
        self.p.stdin.write(line)
        self.p.stdin.flush()
        answer = self.p.stdout.readline()
        return answer, time.perf_counter() - started

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def rewrites(records, n, seed):
    """Queries for the split and joined tier: adjacent words typed as one, and a long word typed in two."""
    rng = random.Random(seed)
    texts = []
    with open(records, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            texts.append((r.get("subtitle") or "") + " " + (r.get("description") or "")[:400])
    words = lambda t: [w for w in re.findall(r"[^\W\d_]+", t.lower()) if len(w) > 2]
    joined, split = [], []
    while len(joined) < n or len(split) < n:
        ws = words(rng.choice(texts))
        if len(ws) >= 2 and len(joined) < n:
            i = rng.randrange(len(ws) - 1)
            joined.append(ws[i] + ws[i + 1])
        long = [w for w in ws if len(w) >= 8]
        if long and len(split) < n:
            w = rng.choice(long)
            i = rng.randrange(3, len(w) - 2)
            split.append(w[:i] + " " + w[i:])
    return joined + split


def classify(answer):
    r = json.loads(answer).get("result") or {}
    entities = r.get("entities") or []
    if not entities:
        return "none"
    marks = set()
    for e in entities:
        marks |= set(e.get("matchedBy") or [])
        if (e.get("explain") or {}).get("insideCode"):
            marks.add("code")
    for tier in ("split", "joined", "typo", "code"):
        if tier in marks:
            return tier
    return "typed"


def ids(answer):
    return [e["id"] for e in (json.loads(answer).get("result") or {}).get("entities") or []]


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--records", required=True)
    a.add_argument("--bin", action="append", required=True, help="NAME=BINARY; the first is the baseline, "
                   "the last classifies the queries")
    a.add_argument("--work", default=".")
    a.add_argument("--per-class", type=int, default=100, help="queries of each class of answer-diff's mix")
    a.add_argument("--joined", type=int, default=100, help="queries of each kind made for the split/joined tier")
    a.add_argument("--rounds", type=int, default=5)
    a.add_argument("--seed", type=int, default=7)
    a.add_argument("--classes", default="typed,split,joined", help="the classes to time")
    a.add_argument("--no-ingest", action="store_true", help="reuse the databases of an earlier run in --work")
    args = a.parse_args()
    bins = [b.split("=", 1) for b in args.bin]
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("answer_diff", os.path.join(here, "answer-diff.py"))
    answer_diff = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(answer_diff)
    qs = list(dict.fromkeys(answer_diff.queries(args.records, args.per_class, seed=args.seed)
                            + rewrites(args.records, args.joined, args.seed)))
    pipes = {}
    for name, binary in bins:
        db = os.path.join(args.work, "tier-cost-%s.sqlite" % name)
        if not args.no_ingest:
            if os.path.exists(db):
                os.remove(db)
            started = time.time()
            subprocess.run([binary, "--db", db, "ingest", args.records], check=True, stdout=subprocess.DEVNULL)
            print("%s: ingested in %.1f s" % (name, time.time() - started), flush=True)
        pipes[name] = Pipe(binary, db)
    last = bins[-1][0]
    cls = {q: classify(pipes[last].search(q, explain=True)[0]) for q in qs}
    counts = {}
    for c in cls.values():
        counts[c] = counts.get(c, 0) + 1
    print("%d queries: %s" % (len(qs), ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    timed = [q for q in qs if cls[q] in args.classes.split(",")]
    names = [n for n, _ in bins]
    times = {(n, q): [] for n in names for q in timed}
    answers = {}
    load = [os.getloadavg()]
    started = time.time()
    for rnd in range(args.rounds + 1):
        for k, q in enumerate(timed):
            shift = (k + rnd) % len(names)
            for n in names[shift:] + names[:shift]:
                answer, dt = pipes[n].search(q)
                if rnd:
                    times[(n, q)].append(dt)
                else:
                    answers[(n, q)] = ids(answer)
        load.append(os.getloadavg())
    for p in pipes.values():
        p.close()
    print("%d rounds (and one to warm up) in %.0f s; load average (1 min) %s" % (
        args.rounds, time.time() - started, " ".join("%.2f" % l[0] for l in load)))
    base = names[0]
    print("%-8s %-10s %6s %9s %9s %9s %9s %11s %8s" % ("class", "binary", "queries", "p50 ms", "p99 ms",
                                                         "p50 chg", "p99 chg", "query ratio", "ids diff"))
    for c in args.classes.split(","):
        cq = [q for q in timed if cls[q] == c]
        if not cq:
            continue
        for n in names:
            xs = [t for q in cq for t in times[(n, q)]]
            b = [t for q in cq for t in times[(base, q)]]
            ratio = statistics.median(statistics.median(times[(n, q)]) / statistics.median(times[(base, q)])
                                      for q in cq)
            differ = sum(answers[(n, q)] != answers[(base, q)] for q in cq)
            print("%-8s %-10s %6d %9.3f %9.3f %+8.1f%% %+8.1f%% %11.3f %8d" % (
                c, n, len(cq), pct(xs, 50) * 1e3, pct(xs, 99) * 1e3, (pct(xs, 50) / pct(b, 50) - 1) * 100,
                (pct(xs, 99) / pct(b, 99) - 1) * 100, ratio, differ))


if __name__ == "__main__":
    main()
