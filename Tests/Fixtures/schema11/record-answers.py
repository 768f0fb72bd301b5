#!/usr/bin/env python3
"""Records the search answers of an entityidx binary on a database: `record-answers.py BINARY DB OUT`.

The queries are every word of the fixture's records (titles, subtitles, descriptions, ids), prefixes of 1-4
letters of 150 of them, 100 pairs of words, 100 whole titles and 100 titles cut short, and 150 words with their
third letter dropped (typos); each is searched with limit 50 at --now 2026-06-01T00:00:00Z through the pipe, and
the answer written as its entities (`type/id`) with their scores, which encode every tier. Standard library only.
"""
import json, re, subprocess, sys, random
binary, db, out = sys.argv[1], sys.argv[2], sys.argv[3]
files = ["data/customers.ndjson", "data/products.json", "data/orders.json", "Tests/Fixtures/schema6/debian-sample.ndjson", "Tests/Fixtures/schema9/spotlight-sample.ndjson"]
recs = []
for f in files:
    t = open(f, encoding="utf-8").read()
    recs += json.loads(t) if f.endswith(".json") else [json.loads(l) for l in t.splitlines() if l.strip()]
rng = random.Random(11)
texts = [" ".join(str(r.get(k) or "") for k in ("title", "subtitle", "description")) + " " + str(r["id"]) for r in recs]
words = sorted({w for t in texts for w in re.findall(r"[^\W_]+|#?\d[\w-]*", t.lower())})
qs = list(words)
qs += [w[:k] for w in rng.sample(words, min(150, len(words))) for k in (1, 2, 3, 4) if len(w) > k]
qs += [" ".join(rng.sample(words, 2)) for _ in range(100)]
qs += [str(r["title"]) for r in rng.sample(recs, 100)]
qs += [str(r["title"])[: max(1, len(str(r["title"])) - 2)] for r in rng.sample(recs, 100)]
qs += [w[:2] + w[3:] for w in words if len(w) >= 6][:150]
seen, uniq = set(), []
for q in qs:
    if q not in seen: seen.add(q); uniq.append(q)
p = subprocess.Popen([binary, "--db", db, "--now", "2026-06-01T00:00:00Z", "pipe"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
with open(out, "w", encoding="utf-8") as o:
    for i, q in enumerate(uniq):
        p.stdin.write((json.dumps({"jsonrpc": "2.0", "id": i, "method": "search", "params": {"query": q, "limit": 50}}) + "\n").encode()); p.stdin.flush()
        r = json.loads(p.stdout.readline())["result"]["entities"]
        o.write(json.dumps({"query": q, "results": [[x["type"] + "/" + x["id"], x["score"]] for x in r]}, ensure_ascii=False) + "\n")
p.stdin.close(); p.wait()
print(len(uniq), "queries")
