#!/usr/bin/env python3
"""Debian's tzdata time zones as entityidx records (NDJSON).

Reads the time zone tables of the tz database as Debian's `tzdata` package installs them (zone1970.tab, then the
zones of the older per-country zone.tab that it no longer lists, such as Asia/Kuala_Lumpur; iso3166.tab for the
country names) and writes one record of type "timezone" per zone: the zone's name as id and title
(`Asia/Kuala_Lumpur`), the countries it covers as subtitle (`Malaysia`), the table's comment as description, the
country codes as keywords, and the countries and coordinates as properties.

Usage: tzdata-records.py [--zoneinfo DIR] [--out FILE]
  --zoneinfo DIR  the folder holding zone1970.tab, zone.tab and iso3166.tab (default /usr/share/zoneinfo)
  --out FILE      where to write the records (default: standard output)

Python 3 standard library only.
"""

import argparse
import json
import os
import sys


def read_table(path):
    """The rows of a tab-separated tz table, comments and blank lines left out."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            rows.append((number, line.split("\t")))
    return rows


def coordinates(text):
    """ISO 6709 ±DDMM[SS]±DDDMM[SS] as two decimal degrees."""
    split = max(text.rfind("+"), text.rfind("-"))
    if split <= 0:
        raise ValueError("coordinates %r are not ISO 6709" % text)

    def degrees(part, width):
        sign = -1 if part[0] == "-" else 1
        digits = part[1:]
        d, m, s = int(digits[:width]), int(digits[width:width + 2]), int(digits[width + 2:] or 0)
        return round(sign * (d + m / 60 + s / 3600), 4)

    return degrees(text[:split], 2), degrees(text[split:], 3)


def records(zoneinfo):
    countries = {}
    for number, cols in read_table(os.path.join(zoneinfo, "iso3166.tab")):
        if len(cols) < 2:
            raise ValueError("iso3166.tab line %d: expected a code and a name" % number)
        countries[cols[0]] = cols[1]
    seen = set()
    rows = [("zone1970.tab", row) for row in read_table(os.path.join(zoneinfo, "zone1970.tab"))]
    rows += [("zone.tab", row) for row in read_table(os.path.join(zoneinfo, "zone.tab"))]
    for table, (number, cols) in rows:
        if len(cols) < 3:
            raise ValueError("%s line %d: expected codes, coordinates and a zone name" % (table, number))
        if cols[2] in seen:
            continue
        seen.add(cols[2])
        codes = cols[0].split(",")
        names = [countries.get(code, code) for code in codes]
        latitude, longitude = coordinates(cols[1])
        record = {
            "type": "timezone",
            "id": cols[2],
            "title": cols[2],
            "subtitle": ", ".join(names),
            "keywords": codes,
            "properties": {"countries": names, "latitude": latitude, "longitude": longitude},
        }
        if len(cols) > 3 and cols[3]:
            record["description"] = cols[3]
        yield record


def main():
    parser = argparse.ArgumentParser(description="Debian's tzdata time zones as entityidx records (NDJSON).")
    parser.add_argument("--zoneinfo", default="/usr/share/zoneinfo")
    parser.add_argument("--out")
    args = parser.parse_args()
    out = open(args.out, "w", encoding="utf-8") if args.out else sys.stdout
    count = 0
    for record in records(args.zoneinfo):
        out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
        count += 1
    if args.out:
        out.close()
    print("%d time zones" % count, file=sys.stderr)


if __name__ == "__main__":
    main()
