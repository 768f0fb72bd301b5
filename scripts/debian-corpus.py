#!/usr/bin/env python3
"""Debian's package list as entityidx records (NDJSON), built on this machine from Debian's package indexes.

Every available package becomes one record of type "package": the name as id and title, the short description as
subtitle, the long description (from the Translation-en index) as description, Provides, Tags, Section and Source as
keywords, Section, Source, Tags and a few more fields as properties, Homepage as url, and every package named in
Depends (alternatives included) as a related id.

The indexes are fetched into a folder of this script's own (--cache), never into the system's lists:
  apt-get update -o Acquire::Languages=en -o Dir::State::Lists=CACHE/lists -o Dir::Cache=CACHE/cache
then read with `apt-cache dumpavail` and `apt-helper cat-file` against the same folder. Python 3 standard library only.

A record whose keywords, array property or related ids would exceed --max-items is cut to that many and named on
stderr with its full count; --max-items 0 (the default) keeps every item. --no-long-descriptions leaves the
description out (the short description stays the subtitle), without reading the Translation-en indexes.

Usage: debian-corpus.py [--out FILE] [--cache DIR] [--max-items N] [--no-update] [--no-long-descriptions]
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys


def apt_options(cache):
    return ["-o", "Dir::State::Lists=" + os.path.join(cache, "lists"), "-o", "Dir::Cache=" + os.path.join(cache, "cache")]


def update(cache):
    """Fetches Packages and Translation-en into the cache folder (apt needs root for its download sandbox)."""
    for d in ("lists/partial", "cache/archives/partial"):
        os.makedirs(os.path.join(cache, d), exist_ok=True)
    command = ["apt-get", "update", "-qq", "-o", "Acquire::Languages=en"] + apt_options(cache)
    if os.geteuid() != 0:
        command = ["sudo"] + command
    subprocess.run(command, check=True, stdout=sys.stderr)


def stanzas(text):
    """Yields each deb822 paragraph as a dict of field name to value (continuation lines kept with their newline)."""
    for block in text.split("\n\n"):
        fields = {}
        name = None
        for line in block.split("\n"):
            if not line:
                continue
            if line[0] in " \t" and name is not None:
                fields[name] += "\n" + line
            else:
                name, _, value = line.partition(":")
                fields[name] = value.strip()
        if fields:
            yield fields


def long_description(value):
    """The extended description of a Description field, as plain text: one paragraph per " ." line."""
    lines = value.split("\n")[1:]
    paragraphs, current = [], []
    for line in lines:
        line = line[1:] if line.startswith(" ") else line
        if line.strip() == ".":
            if current:
                paragraphs.append(" ".join(current))
            current = []
        else:
            current.append(line.strip())
    if current:
        paragraphs.append(" ".join(current))
    return "\n\n".join(p for p in paragraphs if p)


def translations(cache):
    """Description-md5 -> long description, from every Translation-en index in the cache folder."""
    out = {}
    files = sorted(glob.glob(os.path.join(cache, "lists", "*_i18n_Translation-en*")))
    if not files:
        sys.exit("debian-corpus: no Translation-en index in %s/lists (run without --no-update)" % cache)
    for path in files:
        text = subprocess.run(["/usr/lib/apt/apt-helper", "cat-file", path], check=True, capture_output=True).stdout
        for s in stanzas(text.decode("utf-8", "replace")):
            md5, desc = s.get("Description-md5"), s.get("Description-en")
            if md5 and desc:
                out[md5] = long_description(desc)
    return out


NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9+.\-]*)")


def names(field):
    """Package names in a relationship field (Depends, Provides): versions, architectures and `|` dropped."""
    result = []
    for part in re.split(r"[,|]", field or ""):
        m = NAME.match(part)
        if m and m.group(1) not in result:
            result.append(m.group(1))
    return result


def unique(items):
    seen, out = set(), []
    for item in items:
        if item and item not in seen:
            seen.add(item)
            out.append(item)
    return out


def record(p, descriptions, cap, capped):
    name = p["Package"]
    source = NAME.match(p.get("Source", name)).group(1)
    tags = [t.strip() for t in p.get("Tag", "").replace("\n", " ").split(",") if t.strip()]
    section = p.get("Section", "")

    def limited(field, items):
        if cap and len(items) > cap:
            capped.append((name, field, len(items)))
            return items[:cap]
        return items

    r = {"type": "package", "id": name, "title": name}
    short = p.get("Description", "").split("\n")[0].strip()
    if short:
        r["subtitle"] = short
    keywords = limited("keywords", unique(names(p.get("Provides")) + tags + [section, source]))
    if keywords:
        r["keywords"] = keywords
    long = descriptions.get(p.get("Description-md5", ""))
    if long:
        r["description"] = long
    props = {"section": section, "source": source, "priority": p.get("Priority", ""),
             "architecture": p.get("Architecture", ""), "version": p.get("Version", ""),
             "maintainer": p.get("Maintainer", "")}
    for field, prop in (("Installed-Size", "installedSize"), ("Size", "size")):
        if p.get(field, "").isdigit():
            props[prop] = int(p[field])
    if tags:
        props["tags"] = limited("properties.tags", tags)
    r["properties"] = {k: v for k, v in props.items() if v != ""}
    related = limited("related", [n for n in names(p.get("Depends")) if n != name])
    if related:
        r["related"] = [{"type": "package", "id": n} for n in related]
    if p.get("Homepage"):
        r["url"] = p["Homepage"]
    return r


def main():
    parser = argparse.ArgumentParser(description="Debian's package list as entityidx records (NDJSON).")
    parser.add_argument("--out", default="-", help="output file (default: stdout)")
    parser.add_argument("--cache", default=".build/debian-corpus", help="folder for the fetched indexes")
    parser.add_argument("--max-items", type=int, default=0,
                        help="cut keywords, array properties and related ids to N items, naming each cut record on "
                             "stderr (0: keep all)")
    parser.add_argument("--no-update", action="store_true", help="use the indexes already in --cache")
    parser.add_argument("--no-long-descriptions", action="store_true",
                        help="leave each package's long description out (no description field)")
    args = parser.parse_args()
    cache = os.path.abspath(args.cache)
    if not args.no_update:
        update(cache)
    descriptions = {} if args.no_long_descriptions else translations(cache)
    dump = subprocess.run(["apt-cache"] + apt_options(cache) + ["dumpavail"], check=True, capture_output=True).stdout
    capped, count, described = [], 0, 0
    out = sys.stdout if args.out == "-" else open(args.out + ".part", "w", encoding="utf-8")
    for p in stanzas(dump.decode("utf-8", "replace")):
        if "Package" not in p:
            continue
        r = record(p, descriptions, args.max_items, capped)
        out.write(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n")
        count += 1
        described += "description" in r
    if out is not sys.stdout:
        out.close()
        os.replace(args.out + ".part", args.out)
    for name, field, n in capped:
        print("debian-corpus: package/%s: %s cut from %d to %d items (--max-items)" % (name, field, n, args.max_items),
              file=sys.stderr)
    print("debian-corpus: %d packages, %d with a long description, %d cut" % (count, described, len(capped)),
          file=sys.stderr)


if __name__ == "__main__":
    main()
