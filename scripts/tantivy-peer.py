#!/usr/bin/env python3
"""Tantivy beside entityidx: the same records and the same queries as entityidx-bench's real corpus, in process.

Reads the NDJSON records (--records) and builds a tantivy index of them in --index, built as tantivy's users build
one: the text entityidx searches, one positioned text field each (title; keywords; subtitle; description; the string
properties; id), indexed and not stored, and the record's JSON line as one stored bytes field, the document a search
returns; plus the section (one untokenized term) and the installed size (a fast field) for the property query. Then
runs every query of --queries (JSON lines: {"class": …, "query": …} for a search, {"class": …, "section": …} for the
property query) and prints one JSON object on stdout: the build's seconds (parsing the file included), the index's
bytes on disk (in total and by kind of file), and every query's milliseconds by class.

A search is read as entityidx reads it: whitespace-separated words, all required, each in any of the six fields; a
word of several tokens (a package name with hyphens) is a phrase of them. The last word is the one being typed: a
prefix, matched by tantivy's prefix automaton (`fuzzy_term_query(…, distance=0, prefix=True)`, every term of the
dictionary that starts with it, walked once per field), or for a phrase by its phrase prefix query (at most 50
expansions of the last token). A prefix matches at a constant score, so the last word is also added as an optional
whole word: a document that holds it whole ranks by its bm25. Each search takes the top 20 by score without counting
the matches, and fetches their 20 stored documents. When nothing matches, words of five letters or more without
digits match with typos, as entityidx's do: one edit from 5 letters, two from 9 (a swap of two letters is one edit),
by tantivy's Levenshtein automaton (`fuzzy_term_query(…, distance=1 or 2)`, the last word with `prefix=True`).
Where tantivy differs: the score is the sum of the fields' bm25; an edit of the first letter costs one, where
entityidx's costs two; a word of several tokens never matches with typos.

The text is split as FTS5's `unicode61` splits it (letters and digits; lower-cased, accents folded).

--compare-regex also runs every search with the last word matched by a regex over the term dictionary (`word.*`, one
compiled per field and query, as this script did before) and reports how many of the queries' prefix matches equal
the automaton's, and both ways' milliseconds by class.

Usage: tantivy-peer.py --records FILE --queries FILE --index DIR [--threads N] [--limit 20] [--compare-regex]
"""

import argparse
import json
import os
import re
import shutil
import sys
import time

import tantivy

# The six columns of entityidx's `search` table, best first: title, names (keywords), subtitle, description, string
# properties, id.
FIELDS = ("title", "keywords", "subtitle", "description", "props", "id")


def analyzer():
    """FTS5's `unicode61` in tantivy's terms: runs of letters and digits, lower-cased, accents folded."""
    return (tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple()).filter(tantivy.Filter.remove_long(40))
            .filter(tantivy.Filter.lowercase()).filter(tantivy.Filter.ascii_fold()).build())


def strings(value):
    """The searchable strings of a property value: a string, or the strings of an array."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


def build(records, path, threads):
    """The index of every record in --records; returns it with the seconds the build took."""
    builder = tantivy.SchemaBuilder()
    for name in FIELDS:
        builder.add_text_field(name, tokenizer_name="fts5")
    builder.add_bytes_field("record", stored=True)
    builder.add_text_field("section", tokenizer_name="raw", index_option="basic")
    builder.add_integer_field("installed_size", fast=True)
    schema = builder.build()
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    start = time.perf_counter()
    index = tantivy.Index(schema, path=path)
    index.register_tokenizer("fts5", analyzer())
    writer = index.writer(num_threads=threads)
    with open(records, "rb") as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            props = r.get("properties") or {}
            doc = tantivy.Document()
            doc.add_text("title", r.get("title", ""))
            doc.add_text("keywords", " ".join(k for k in r.get("keywords", []) if isinstance(k, str)))
            doc.add_text("subtitle", r.get("subtitle", ""))
            doc.add_text("description", r.get("description", ""))
            doc.add_text("props", " ".join(s for v in props.values() for s in strings(v)))
            doc.add_text("id", r.get("id", ""))
            doc.add_bytes("record", line.rstrip(b"\n"))
            doc.add_text("section", props.get("section", ""))
            doc.add_integer("installed_size", int(props.get("installedSize", 0)))
            writer.add_document(doc)
    writer.commit()
    writer.wait_merging_threads()
    seconds = time.perf_counter() - start
    index.reload()
    return index, schema, seconds


def sizes(path):
    """Bytes of the index folder, in total and by file extension (postings, positions, store, terms, …)."""
    total, kinds, segments = 0, {}, set()
    for name in os.listdir(path):
        size = os.path.getsize(os.path.join(path, name))
        total += size
        stem, _, ext = name.partition(".")
        kind = ext if ext and len(stem) == 32 else "meta"
        kinds[kind] = kinds.get(kind, 0) + size
        if kind != "meta":
            segments.add(stem)
    return total, kinds, len(segments)


def typo_budget(token):
    """Edits a word may have when nothing matches it as typed: entityidx's rule (none for words with digits)."""
    if any(c.isdigit() for c in token):
        return 0
    return 2 if len(token) >= 9 else (1 if len(token) >= 5 else 0)


class Searcher:
    def __init__(self, index, schema, limit):
        self.schema, self.limit, self.analyzer = schema, limit, analyzer()
        self.searcher = index.searcher()
        self.regex = False

    def any_field(self, make):
        """One query a field, any of them matching."""
        return tantivy.Query.boolean_query([(tantivy.Occur.Should, make(f)) for f in FIELDS])

    def whole(self, tokens):
        """A word in any field: a term, or a phrase of its tokens."""
        s = self.schema
        if len(tokens) == 1:
            return self.any_field(lambda f: tantivy.Query.term_query(s, f, tokens[0]))
        return self.any_field(lambda f: tantivy.Query.phrase_query(s, f, tokens))

    def prefix(self, tokens):
        """A word in any field, its last token a prefix: the prefix automaton, or a phrase prefix."""
        s = self.schema
        if len(tokens) > 1:
            return self.any_field(lambda f: tantivy.Query.phrase_prefix_query(s, f, tokens))
        if self.regex:
            pattern = re.escape(tokens[0]) + ".*"
            return self.any_field(lambda f: tantivy.Query.regex_query(s, f, pattern))
        return self.any_field(lambda f: tantivy.Query.fuzzy_term_query(s, f, tokens[0], distance=0, prefix=True))

    def typo(self, tokens, prefix):
        """A word with the edits its length allows, or None when it allows none."""
        budget = typo_budget(tokens[0]) if len(tokens) == 1 else 0
        if budget == 0:
            return None
        return self.any_field(
            lambda f: tantivy.Query.fuzzy_term_query(self.schema, f, tokens[0], distance=budget, prefix=prefix))

    def words(self, text):
        return [t for t in (self.analyzer.analyze(w) for w in text.split()) if t]

    def query(self, words, typos=False):
        """Every word required, the last a prefix with its whole form optional; with `typos`, a word may also match
        with edits (None when no word allows any)."""
        clauses, typoed = [], False
        for i, w in enumerate(words):
            last = i == len(words) - 1
            exact = self.prefix(w) if last else self.whole(w)
            fuzzy = self.typo(w, prefix=last) if typos else None
            if fuzzy is not None:
                typoed = True
                exact = tantivy.Query.boolean_query([(tantivy.Occur.Should, exact), (tantivy.Occur.Should, fuzzy)])
            clauses.append((tantivy.Occur.Must, exact))
        if typos and not typoed:
            return None
        clauses.append((tantivy.Occur.Should, self.whole(words[-1])))
        return tantivy.Query.boolean_query(clauses)

    def fetch(self, hits):
        """The stored record of each hit, as the search's answer."""
        return [self.searcher.doc(address).get_first("record") for _, address in hits]

    def search(self, text):
        words = self.words(text)
        if not words:
            return []
        hits = self.searcher.search(self.query(words), self.limit, count=False).hits
        if not hits:
            fuzzy = self.query(words, typos=True)
            if fuzzy is not None:
                hits = self.searcher.search(fuzzy, self.limit, count=False).hits
        return self.fetch(hits)

    def section(self, value):
        """Packages of a section, largest installed size first (the property query), with their records."""
        query = tantivy.Query.term_query(self.schema, "section", value, index_option="basic")
        return self.fetch(self.searcher.search(query, self.limit, count=False, order_by_field="installed_size").hits)

    def prefix_matches(self, text):
        """Every document the last word matches as a prefix of one token (None for a phrase or an empty query)."""
        words = self.words(text)
        if not words or len(words[-1]) != 1:
            return None
        query = self.prefix(words[-1])
        count = self.searcher.search(query, 1, count=True).count
        if count == 0:
            return frozenset()
        hits = self.searcher.search(query, count, count=False).hits
        return frozenset((a.segment_ord, a.doc) for _, a in hits)


def timed(queries, run):
    """Each query's milliseconds, after five untimed ones."""
    for q in queries[:5]:
        run(q)
    samples = []
    for q in queries:
        t = time.perf_counter()
        run(q)
        samples.append((time.perf_counter() - t) * 1000)
    return samples


def compare_regex(searcher, classes):
    """The regex prefix beside the automaton: equal matches, and both ways' milliseconds by class."""
    checked = identical = matches = 0
    different = []
    for queries in classes.values():
        for q in queries:
            if "query" not in q:
                continue
            searcher.regex = False
            automaton = searcher.prefix_matches(q["query"])
            if automaton is None:
                continue
            searcher.regex = True
            regex = searcher.prefix_matches(q["query"])
            checked += 1
            matches += len(automaton)
            if regex == automaton:
                identical += 1
            else:
                different.append(q["query"])
    times = {}
    for name, queries in classes.items():
        searches = [q["query"] for q in queries if "query" in q]
        if not searches:
            continue
        searcher.regex = True
        regex = timed(searches, searcher.search)
        searcher.regex = False
        automaton = timed(searches, searcher.search)
        times[name] = {"regex": regex, "automaton": automaton}
    return {"checked": checked, "identical": identical, "matches": matches, "different": different[:20],
            "classes": times}


def main():
    parser = argparse.ArgumentParser(description="Tantivy on the bench's real corpus and queries.")
    parser.add_argument("--records", required=True, help="the NDJSON records")
    parser.add_argument("--queries", required=True, help="the queries, as JSON lines with their class")
    parser.add_argument("--index", required=True, help="folder for the index (emptied first)")
    parser.add_argument("--threads", type=int, default=0, help="indexing threads (0: tantivy's choice)")
    parser.add_argument("--limit", type=int, default=20)
    parser.add_argument("--compare-regex", action="store_true",
                        help="also run the searches with a regex prefix and compare its matches with the automaton's")
    args = parser.parse_args()

    index, schema, seconds = build(args.records, args.index, args.threads)
    total, kinds, segments = sizes(args.index)
    searcher = Searcher(index, schema, args.limit)
    classes = {}
    with open(args.queries, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                q = json.loads(line)
                classes.setdefault(q["class"], []).append(q)
    out = {}
    for name, queries in classes.items():
        out[name] = timed(queries, lambda q: searcher.section(q["section"]) if "section" in q
                          else searcher.search(q["query"]))
    report = {"version": tantivy.__version__.split(",")[0], "ingestSeconds": seconds, "bytes": total, "files": kinds,
              "segments": segments, "classes": out}
    if args.compare_regex:
        report["regex"] = compare_regex(searcher, classes)
    json.dump(report, sys.stdout)
    print()


if __name__ == "__main__":
    main()
