#!/usr/bin/env python3
"""Makes Tests/Fixtures/porter2-english.tsv.gz from Snowball's English (Porter2) sample vocabulary.

The inputs are english/voc.txt (one word a line) and english/output.txt (its stem, line for line) of the
snowballstem/snowball-data repository. Each output line is `word<TAB>stem`, in the vocabulary's order; the file is
gzip-compressed with no name or time in its header, so that the same inputs give the same bytes.
Usage: scripts/porter2-fixture.py VOC_TXT OUTPUT_TXT [OUT] (OUT defaults to Tests/Fixtures/porter2-english.tsv.gz)
"""
import gzip
import os
import sys


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.strip().splitlines()[-1])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = sys.argv[3] if len(sys.argv) == 4 else os.path.join(root, "Tests/Fixtures/porter2-english.tsv.gz")
    with open(sys.argv[1], encoding="utf-8") as f:
        words = f.read().splitlines()
    with open(sys.argv[2], encoding="utf-8") as f:
        stems = f.read().splitlines()
    if len(words) != len(stems):
        sys.exit(f"{len(words)} words but {len(stems)} stems")
    for word, stem in zip(words, stems):
        if not word or "\t" in word or "\t" in stem:
            sys.exit(f"unexpected line: {word!r} {stem!r}")
    text = "".join(f"{word}\t{stem}\n" for word, stem in zip(words, stems)).encode("utf-8")
    with open(out, "wb") as f, gzip.GzipFile(filename="", mode="wb", fileobj=f, compresslevel=9, mtime=0) as z:
        z.write(text)
    print(f"{out}: {len(words)} pairs", file=sys.stderr)


if __name__ == "__main__":
    main()
