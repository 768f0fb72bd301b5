#!/usr/bin/env python3
"""Tantivy beside raw FTS5: the same records and the same queries as entityidx-bench's real corpus, in process.

Reads the NDJSON records (--records) and builds a tantivy index of them in --index: id, title, subtitle, keywords
(joined by spaces) and description as stored, positioned text fields, as the raw FTS5 baseline holds them, plus the
section (one untokenized term) and the installed size (a fast field) for the property query. Then runs every query
of --queries (JSON lines: {"class": …, "query": …} for a search, {"class": …, "section": …} for the property query)
and prints one JSON object on stdout: the build's seconds (parsing the file included, as the baseline's are), the
index's bytes on disk (in total and by kind of file), and every query's milliseconds by class.

A search is read as the baseline reads it: whitespace-separated words, all required, each one a phrase of its
tokens, in any of the five fields, the last word a prefix, the top 20 by score without counting the matches.
The text is split as FTS5's `unicode61` splits it (letters and digits; lower-cased, accents folded). Where tantivy
differs: a prefix (every term of the dictionary that starts with it) matches at a constant score, where FTS5 scores
`"word"*` by bm25 as one term, so the last word is also added as an optional whole word and a document that holds
it ranks by its bm25; a phrase whose last word is a prefix (a word of several tokens, such as a package name with
hyphens) expands that prefix to at most 50 terms (tantivy's phrase prefix query); the score is the sum of the
fields' bm25, where FTS5's `bm25` weighs one document of five columns.

Usage: tantivy-peer.py --records FILE --queries FILE --index DIR [--threads N] [--limit 20]
"""

import argparse
import json
import os
import re
import shutil
import sys
import time

import tantivy

FIELDS = ("id", "title", "subtitle", "keywords", "description")


def analyzer():
    """FTS5's `unicode61` in tantivy's terms: runs of letters and digits, lower-cased, accents folded."""
    return (tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple()).filter(tantivy.Filter.remove_long(40))
            .filter(tantivy.Filter.lowercase()).filter(tantivy.Filter.ascii_fold()).build())


def build(records, path, threads):
    """The index of every record in --records; returns it with the seconds the build took."""
    builder = tantivy.SchemaBuilder()
    for name in FIELDS:
        builder.add_text_field(name, stored=True, tokenizer_name="fts5")
    builder.add_text_field("section", tokenizer_name="raw", index_option="basic")
    builder.add_integer_field("installed_size", fast=True)
    schema = builder.build()
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    start = time.perf_counter()
    index = tantivy.Index(schema, path=path)
    index.register_tokenizer("fts5", analyzer())
    writer = index.writer(num_threads=threads)
    with open(records, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            props = r.get("properties") or {}
            doc = tantivy.Document()
            doc.add_text("id", r.get("id", ""))
            doc.add_text("title", r.get("title", ""))
            doc.add_text("subtitle", r.get("subtitle", ""))
            doc.add_text("keywords", " ".join(k for k in r.get("keywords", []) if isinstance(k, str)))
            doc.add_text("description", r.get("description", ""))
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


class Searcher:
    def __init__(self, index, schema, limit):
        self.schema, self.limit, self.analyzer = schema, limit, analyzer()
        self.searcher = index.searcher()

    def whole(self, tokens):
        """A word in any field: a term, or a phrase of its tokens."""
        s = self.schema
        if len(tokens) == 1:
            parts = [tantivy.Query.term_query(s, f, tokens[0]) for f in FIELDS]
        else:
            parts = [tantivy.Query.phrase_query(s, f, tokens) for f in FIELDS]
        return tantivy.Query.boolean_query([(tantivy.Occur.Should, q) for q in parts])

    def prefix(self, tokens):
        """A word in any field, its last token a prefix: every term that starts with it, or a phrase prefix."""
        s = self.schema
        if len(tokens) == 1:
            pattern = re.escape(tokens[0]) + ".*"
            parts = [tantivy.Query.regex_query(s, f, pattern) for f in FIELDS]
        else:
            parts = [tantivy.Query.phrase_prefix_query(s, f, tokens) for f in FIELDS]
        return tantivy.Query.boolean_query([(tantivy.Occur.Should, q) for q in parts])

    def search(self, text):
        words = [t for t in (self.analyzer.analyze(w) for w in text.split()) if t]
        if not words:
            return 0
        clauses = [(tantivy.Occur.Must, self.whole(w)) for w in words[:-1]]
        clauses.append((tantivy.Occur.Must, self.prefix(words[-1])))
        clauses.append((tantivy.Occur.Should, self.whole(words[-1])))
        return len(self.searcher.search(tantivy.Query.boolean_query(clauses), self.limit, count=False).hits)

    def section(self, value):
        """Packages of a section, largest installed size first (the baseline's property query)."""
        query = tantivy.Query.term_query(self.schema, "section", value, index_option="basic")
        return len(self.searcher.search(query, self.limit, count=False, order_by_field="installed_size").hits)


def main():
    parser = argparse.ArgumentParser(description="Tantivy on the bench's real corpus and queries.")
    parser.add_argument("--records", required=True, help="the NDJSON records")
    parser.add_argument("--queries", required=True, help="the queries, as JSON lines with their class")
    parser.add_argument("--index", required=True, help="folder for the index (emptied first)")
    parser.add_argument("--threads", type=int, default=0, help="indexing threads (0: tantivy's choice)")
    parser.add_argument("--limit", type=int, default=20)
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
        def run(q):
            return searcher.section(q["section"]) if "section" in q else searcher.search(q["query"])
        for q in queries[:5]:
            run(q)
        samples = []
        for q in queries:
            t = time.perf_counter()
            run(q)
            samples.append((time.perf_counter() - t) * 1000)
        out[name] = samples
    json.dump({"version": tantivy.__version__.split(",")[0], "ingestSeconds": seconds, "bytes": total, "files": kinds,
               "segments": segments, "classes": out}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
