#!/usr/bin/env python3
"""Real-data typo check: misspelt names of real things, searched in an index of those things.

The corpus is Debian's package list (`apt-cache pkgnames`) and the ISO names shipped by Debian's `iso-codes`
package (countries, subdivisions' countries, currencies, languages), one entity each, titled by its name. The
misspellings are generated, not hand-picked: for a seeded random sample of names, one word of five letters or more
without digits (inside a compound too: `python3-requests`, `Baden-Württemberg`) gets one edit (a swap of two
adjacent letters, a deletion, an insertion or a substitution, at a random position from the second letter on, or at
the second letter on purpose), or two edits when it has nine letters or more. A misspelling that is itself a word of
the corpus is not used (it would be found exactly). Each query is the whole name with the misspelt word.

Usage: scripts/typo-check.py BINARY [--per-kind N] [--seed S] [--keep DB]
Prints how many are found at rank 1 and in the top 5, per kind of edit, and lists the misses.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import unicodedata

ISO = "/usr/share/iso-codes/json"


def corpus():
    """(type, id, title) for every package and ISO name."""
    out = subprocess.run(["apt-cache", "pkgnames"], capture_output=True, text=True, check=True).stdout
    records = [("pkg", name, name) for name in sorted(set(out.split()))]

    def load(file, key):
        with open(os.path.join(ISO, file), encoding="utf-8") as f:
            return json.load(f)[key]

    for c in load("iso_3166-1.json", "3166-1"):
        records.append(("country", c["alpha_3"], c.get("common_name") or c["name"]))
    for c in load("iso_4217.json", "4217"):
        records.append(("currency", c["alpha_3"], c["name"]))
    for lang in load("iso_639-3.json", "639-3"):
        records.append(("language", lang["alpha_3"], lang["name"]))
    for s in load("iso_3166-2.json", "3166-2"):
        records.append(("region", s["code"], s["name"]))
    return records


def fold(word):
    """Roughly what the index does to a word (lowercase, no accents), to tell whether a misspelling is a real word."""
    d = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in d if not unicodedata.combining(ch))


WORD = re.compile(r"[^\W\d_]+|\d+|\w+", re.UNICODE)
TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
KEYBOARD = "qwertyuiopasdfghjklzxcvbnm"


def edit(word, kind, rng, at=None):
    """One edit of `word` of the given kind, never on the first letter."""
    chars = list(word)
    n = len(chars)
    if kind == "swap":
        i = at if at is not None else rng.randrange(1, n - 1)
        if chars[i] == chars[i + 1]:
            return None
        chars[i], chars[i + 1] = chars[i + 1], chars[i]
    elif kind == "delete":
        i = at if at is not None else rng.randrange(1, n)
        del chars[i]
    elif kind == "insert":
        i = at if at is not None else rng.randrange(1, n + 1)
        chars.insert(i, rng.choice(KEYBOARD))
    elif kind == "substitute":
        i = at if at is not None else rng.randrange(1, n)
        choices = [c for c in KEYBOARD if c != chars[i].lower()]
        chars[i] = rng.choice(choices)
    return "".join(chars)


def misspell(title, rng, kind, vocabulary):
    """(query, description) or None: `title` with one of its long words misspelt."""
    # A word as the index sees it: a run of letters and digits (the rules give typos only to words of five letters or
    # more without digits; `python3` has none).
    spans = [m for m in TOKEN.finditer(title) if len(m.group()) >= 5 and m.group().isalpha()]
    if not spans:
        return None
    m = rng.choice(spans)
    word = m.group()
    if kind == "second letter":
        op = rng.choice(["swap", "delete", "insert", "substitute"])
        bad = edit(word, op, rng, at=1)
        what = f"{op} at the second letter"
    elif kind == "two edits":
        if len(word) < 9:
            return None
        ops = rng.sample(["swap", "delete", "insert", "substitute"], 2)
        bad = edit(word, ops[0], rng)
        bad = bad and edit(bad, ops[1], rng)
        what = " + ".join(ops)
    else:
        bad = edit(word, kind, rng)
        what = kind
    if not bad or fold(bad) == fold(word) or fold(bad) in vocabulary:
        return None
    compound = len(WORD.findall(title)) > 1 and re.search(r"\w[-_./:']\w", title) is not None
    return title[: m.start()] + bad + title[m.end():], what + (" in a compound" if compound else "")


class Pipe:
    def __init__(self, binary, db):
        self.p = subprocess.Popen([binary, "--db", db, "pipe"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, encoding="utf-8")
        self.n = 0

    def call(self, method, params):
        self.n += 1
        self.p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.n, "method": method, "params": params}) + "\n")
        self.p.stdin.flush()
        answer = json.loads(self.p.stdout.readline())
        if "error" in answer:
            raise RuntimeError(answer["error"]["message"][:500])
        return answer["result"]

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--per-kind", type=int, default=40)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--keep", help="index file to reuse (created when missing)")
    args = ap.parse_args()

    records = corpus()
    vocabulary = {fold(w) for _, _, t in records for w in WORD.findall(t)}
    work = tempfile.mkdtemp(prefix="typo-check-")
    db = args.keep or os.path.join(work, "index.sqlite")
    if not (args.keep and os.path.exists(db)):
        data = os.path.join(work, "records.ndjson")
        with open(data, "w", encoding="utf-8") as f:
            for t, i, title in records:
                f.write(json.dumps({"type": t, "id": i, "title": title}, ensure_ascii=False) + "\n")
        r = subprocess.run([args.binary, "--db", db, "ingest", "--skip-invalid", data], capture_output=True, text=True)
        if r.returncode not in (0, 2):
            sys.exit(f"ingest failed: {r.stderr[:2000]}")

    rng = random.Random(args.seed)
    by_title = {}
    for t, i, title in records:
        by_title.setdefault(fold(title), set()).add((t, i))
    kinds = ["swap", "delete", "insert", "substitute", "second letter", "two edits"]
    pools = {"pkg": [r for r in records if r[0] == "pkg"], "names": [r for r in records if r[0] != "pkg"]}
    cases = []
    for kind in kinds:
        for pool in pools.values():
            made = 0
            while made < args.per_kind // 2:
                t, i, title = rng.choice(pool)
                found = misspell(title, rng, kind, vocabulary)
                if found:
                    cases.append((found[0], found[1], title, by_title[fold(title)]))
                    made += 1

    pipe = Pipe(args.binary, db)
    stats = {}
    misses = []
    for query, what, title, wanted in cases:
        result = pipe.call("search", {"query": query, "limit": 5})["entities"]
        keys = [(e["type"], e["id"]) for e in result]
        rank = next((k for k, key in enumerate(keys) if key in wanted), None)
        group = what.replace(" in a compound", "")
        s = stats.setdefault(group, [0, 0, 0])
        s[0] += 1
        s[1] += rank == 0
        s[2] += rank is not None
        if " in a compound" in what:
            c = stats.setdefault("(of which in compounds)", [0, 0, 0])
            c[0] += 1
            c[1] += rank == 0
            c[2] += rank is not None
        if rank is None:
            misses.append(f"  {query!r} ({what}) for {title!r}: got {[e['title'] for e in result[:3]]}")
    pipe.close()

    total = [sum(s[k] for g, s in stats.items() if not g.startswith("(")) for k in range(3)]
    print(f"{len(records)} records; {total[0]} misspelt queries: {total[1]} found at rank 1, {total[2]} in the top 5")
    print("| edit | queries | rank 1 | top 5 |\n|---|---|---|---|")
    for group, (n, r1, r5) in sorted(stats.items(), key=lambda kv: (kv[0].startswith("("), kv[0])):
        print(f"| {group} | {n} | {r1} | {r5} |")
    print("misses:" if misses else "no misses")
    print("\n".join(misses[:60]))


if __name__ == "__main__":
    main()
