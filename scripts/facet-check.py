#!/usr/bin/env python3
"""Checks facet counts against a brute-force count over the records, on a whole corpus (Debian's package list).

The binary ingests the records (NDJSON) into a database of its own (or reads --db, which holds them); real queries
are drawn as scripts/answer-diff.py draws them (one to three words, title prefixes of 1 to 5 letters, whole
titles, words with a letter dropped; seeded). Each query is asked through one long-lived `entityidx pipe`: a page
of 20 with facets, then every match (pages of 10,000 ids; a search beyond 10,000 matches is enumerated again per
`section`, each value its own filtered search, since a search returns its first 10,000 results only). Each facet is
counted in Python from the records of every match: values grouped as the property table groups them (kind,
number, compared text: read from the database, the one thing taken from it besides rowids), each counted once per
entity, shown as the earliest ingested entity wrote it, most held first, ties numbers ascending then compared text
by bytes, at most 20, `otherValues`, `missing`. Then property queries with filters and `all`, enumerated through
their cursors.

The rule checked (README, Facets): up to 10,000 matches `facetsCounted` is their number and every facet equals the
brute force; beyond, `facetsAreLowerBounds` is true, `facetsCounted` is 10,000 and every count (and `missing`) is at
most the true one. Also reported, not required: whether the bounded counts equal a brute force over the first
10,000 matches read: a search's in document-id order (`search_doc`), a query's and all's in id order (the order
they list; the README says by rowid).

Usage: facet-check.py --records FILE --bin BINARY [--work DIR | --db FILE] [--queries N] [--seed S] [--verbose]
Python 3 standard library only. Exit status 1 when a facet differs.
"""

import argparse
import collections
import importlib.util
import json
import os
import sqlite3
import subprocess
import sys
import time

FACETS = ["section", "priority", "architecture", "tags", "installedSize", "maintainer", "type", "domain"]
BOUND, SHOWN, PAGE = 10000, 20, 20


class Pipe:
    def __init__(self, binary, db):
        self.p = subprocess.Popen([binary, "--db", db, "pipe"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.n = 0

    def call(self, method, **params):
        self.n += 1
        self.p.stdin.write((json.dumps({"jsonrpc": "2.0", "id": self.n, "method": method, "params": params}) + "\n")
                           .encode())
        self.p.stdin.flush()
        answer = json.loads(self.p.stdout.readline())
        if "error" in answer:
            raise RuntimeError("%s %s: %s" % (method, json.dumps(params), answer["error"]))
        return answer["result"]

    def every(self, method, **params):
        """Every entity id of a paged method, following nextCursor; and whether the pages stopped at the bound."""
        ids, cursor = [], None
        while True:
            # A query given a limit has no nextCursor: left out, it returns 10,000 and says how to go on.
            size = {} if method == "query" else {"limit": BOUND}
            r = self.call(method, **params, fields=["id"], **size, **({"cursor": cursor} if cursor else {}))
            ids += [e["id"] for e in r["entities"]]
            cursor = r.get("nextCursor")
            if not cursor:
                return ids, method == "search" and len(r["entities"]) == BOUND

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def load(records, db):
    recs = {}
    with open(records, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            recs[r["id"]] = r
    c = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    rowid = dict(c.execute("SELECT id, rowid FROM entity"))
    # A search counts its first 10,000 matches in document-id order: each entity's document in the full-text index.
    doc = dict(c.execute("SELECT e.id, d.doc FROM entity e JOIN search_doc d ON d.rowid = e.rowid"))
    # (rowid, name, ord) -> the key the property table groups a value by: kind, number, compared text.
    keys = {}
    for ent, name, ord_, kind, num, text in c.execute(
            "SELECT p.entity, n.name, p.ord, p.kind, p.num, p.text FROM property p JOIN property_name n "
            "ON n.id = p.name WHERE n.name IN (%s)" % ",".join("?" * len(FACETS)), FACETS):
        keys[(ent, name, ord_)] = (kind, num, text)
    return recs, rowid, doc, keys


def brute(name, ids, recs, rowid, keys):
    """The facet `name` of the entities `ids`, counted from their records."""
    counts, shown, missing, key_of = collections.Counter(), {}, 0, {}
    for i in ids:
        r, row = recs[i], rowid[i]
        held = []
        if name in ("type", "domain"):
            if isinstance(r.get(name), str):
                held.append(((0, None, r[name]), r[name]))
        elif name in (r.get("properties") or {}):
            v = r["properties"][name]
            for k, element in enumerate(v if isinstance(v, list) else [v]):
                key = keys.get((row, name, k))
                if key is None or key[0] >= 4:  # null, or not a value
                    continue
                held.append((key, element))
        seen = set()
        for key, written in held:
            key_of[json.dumps(written)] = key
            if key in seen:
                continue
            seen.add(key)
            counts[key] += 1
            if key not in shown or row < shown[key][0]:
                shown[key] = (row, written)
        if not seen:
            missing += 1

    def order(item):
        (kind, num, text), count = item
        return (-count, num is None, num if num is not None else 0, text is not None, (text or "").encode())
    ordered = sorted(counts.items(), key=order)
    return {"values": [{"value": shown[k][1], "count": c} for k, c in ordered[:SHOWN]],
            "otherValues": max(0, len(ordered) - SHOWN), "missing": missing}, counts, key_of


class Tally:
    def __init__(self):
        self.facets = self.values = self.differ = self.bounded = self.bounded_exact = self.bounded_facets = 0
        self.report = []

    def check(self, label, result, ids, recs, rowid, keys, verbose, order=None):
        """Checks a result's facets against the brute force over every match `ids` (the true set)."""
        lower = result.get("facetsAreLowerBounds", False)
        counted = result.get("facetsCounted")
        problems = []
        if (len(ids) > BOUND) != lower:
            problems.append("facetsAreLowerBounds %s with %d matches" % (lower, len(ids)))
        if counted != min(len(ids), BOUND):
            problems.append("facetsCounted %s, matches %d" % (counted, len(ids)))
        first = sorted(ids, key=order.get if order else lambda i: i.encode())[:BOUND]
        exact_first = True
        for name in FACETS:
            got = result["facets"][name]
            want, counts, key_of = brute(name, ids, recs, rowid, keys)
            self.facets += 1
            self.values += len(got["values"])
            if not lower:
                if got != want:
                    problems.append("facet %s: got %s, brute force %s" % (
                        name, json.dumps(got)[:400], json.dumps(want)[:400]))
                continue
            # A lower bound: each value shown at most as often as it is held among every match (grouped as the
            # property table groups it: the value shown may be another writing of it), missing too.
            for v in got["values"]:
                true = counts.get(key_of.get(json.dumps(v["value"])), 0)
                if v["count"] > true:
                    problems.append("facet %s: %r counted %d, held by %d" % (name, v["value"], v["count"], true))
            if got["missing"] > want["missing"]:
                problems.append("facet %s: missing %d > %d" % (name, got["missing"], want["missing"]))
            self.bounded_facets += 1
            if got == brute(name, first, recs, rowid, keys)[0]:
                self.bounded_exact += 1
            else:
                exact_first = False
        if lower:
            self.bounded += 1
        if problems:
            self.differ += 1
            self.report.append((label, problems))
        if verbose:
            print("%-40s %6d matches%s%s%s" % (label[:40], len(ids), " (lower bounds)" if lower else "",
                                             "" if not lower or exact_first else " (not the first 10,000 read)",
                                             " DIFFERS" if problems else ""), flush=True)


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--records", required=True)
    a.add_argument("--bin", required=True)
    a.add_argument("--work", default=".")
    a.add_argument("--db", help="a database that holds the records (no ingest)")
    a.add_argument("--queries", type=int, default=200)
    a.add_argument("--seed", type=int, default=7)
    a.add_argument("--verbose", action="store_true")
    args = a.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("answer_diff", os.path.join(here, "answer-diff.py"))
    answer_diff = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(answer_diff)
    db = args.db or os.path.join(args.work, "facet-check.sqlite")
    if not args.db:
        if os.path.exists(db):
            os.remove(db)
        started = time.time()
        subprocess.run([args.bin, "--db", db, "ingest", args.records], check=True, stdout=subprocess.DEVNULL)
        print("ingested in %.1f s" % (time.time() - started))
    recs, rowid, doc, keys = load(args.records, db)
    sections = sorted({r["properties"]["section"] for r in recs.values()})
    qs = answer_diff.queries(args.records, max(1, args.queries // 10), seed=args.seed)[:args.queries]
    pipe, t, started = Pipe(args.bin, db), Tally(), time.time()
    beyond_page = beyond_bound = empty = totals_wrong = 0
    every = {}
    for q in qs:
        page = pipe.call("search", query=q, limit=PAGE, fields=["id"], facets=FACETS)
        if q not in every:  # the mix draws some queries (one letter) more than once
            ids, cut = pipe.every("search", query=q)
            if cut:  # more than one search returns: every match, section by section
                parts = [pipe.every("search", query=q, filters=[{"property": "section", "op": "eq", "value": s}])
                         for s in sections]
                if any(c for _, c in parts):
                    sys.exit("%r: a section holds more than %d matches; cannot enumerate them" % (q, BOUND))
                ids = list(dict.fromkeys(i for part, _ in parts for i in part))
            every[q] = ids
        ids = every[q]
        beyond_bound += len(ids) > BOUND
        beyond_page += len(ids) > PAGE
        empty += not ids
        total, lb = page["total"], page.get("totalIsLowerBound", False)
        if not (total == len(ids) and not lb or lb and 100 < total <= len(ids)):
            totals_wrong += 1
            t.report.append(("search %r" % q, ["total %d%s, matches %d" % (total, " (lower bound)" if lb else "",
                                                                          len(ids))]))
        t.check("search %r" % q, page, ids, recs, rowid, keys, args.verbose, order=doc)
    cases = [
        ("query section eq libdevel", dict(filters=[{"property": "section", "op": "eq", "value": "libdevel"}])),
        ("query section eq Python or tags eq role::program", dict(mode="or", filters=[
            {"property": "section", "op": "eq", "value": "Python"},
            {"property": "tags", "op": "eq", "value": "role::program"}])),
        ("query tags notContains role::program", dict(filters=[
            {"property": "tags", "op": "notContains", "value": "role::program"}])),
        ("query installedSize gt 1000 and architecture eq all", dict(filters=[
            {"property": "installedSize", "op": "gt", "value": 1000},
            {"property": "architecture", "op": "eq", "value": "all"}])),
        ("query priority eq optional", dict(filters=[{"property": "priority", "op": "eq", "value": "optional"}])),
        ("query maintainer contains debian and section eq games", dict(filters=[
            {"property": "maintainer", "op": "contains", "value": "debian"},
            {"property": "section", "op": "eq", "value": "games"}])),
    ]
    for label, params in cases:
        page = pipe.call("query", type="package", limit=5, fields=["id"], facets=FACETS, **params)
        ids, _ = pipe.every("query", type="package", **params)
        t.check(label, page, ids, recs, rowid, keys, args.verbose)
    page = pipe.call("all", type="package", limit=5, fields=["id"], facets=FACETS)
    ids, _ = pipe.every("all", type="package")
    if len(ids) != len(recs):
        t.report.append(("all", ["%d ids listed of %d records" % (len(ids), len(recs))]))
    t.check("all package", page, ids, recs, rowid, keys, args.verbose)
    pipe.close()
    for label, problems in t.report:
        print(label)
        for p in problems:
            print("  " + p)
    print("%d searches (%d match more than a page of %d, %d more than %d, %d nothing; %d totals wrong), "
          "%d property queries and all; %d facets compared (%d values shown), %d requests differ; "
          "%d requests beyond the bound: %d of their %d facets equal the brute force over the first %d matches "
          "(search: by document id, query and all: by id); %.0f s" % (
              len(qs), beyond_page, PAGE, beyond_bound, BOUND, empty, totals_wrong, len(cases) + 1, t.facets,
              t.values, t.differ, t.bounded, t.bounded_exact, t.bounded_facets, BOUND, time.time() - started))
    sys.exit(1 if t.report else 0)


if __name__ == "__main__":
    main()
