-- entityidx schema 16: `property` with its names and kinds as small integers. Each of its rows, and each row of
-- its two value indexes, held the property's name as text (and the table its kind: `string`, `number`, …); Debian's
-- package list has 9 property names over 619,000 values. Names are interned in `property_name` (never removed, like
-- `vocabulary`), and a query looks its name up there once (`name = (SELECT id FROM property_name WHERE name = ?)`);
-- kinds are codes, the commonest in no bytes at all: 0 string, 1 number, 2 boolean, 3 date, 4 null
-- (`PropertyKind`). Both value indexes stay: `property_num` serves numeric filters, sorts and Core Spotlight
-- ranges, `property_text` text filters and sorts. `property_kind` (a few rows a type) keeps its text.
CREATE TABLE property_name(
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);
INSERT INTO property_name(name) SELECT DISTINCT name FROM property ORDER BY name;
DROP INDEX property_num;
DROP INDEX property_text;
ALTER TABLE property RENAME TO property_015;
CREATE TABLE property(
    entity INTEGER NOT NULL REFERENCES entity(rowid) ON DELETE CASCADE,
    name   INTEGER NOT NULL,               -- property_name.id
    ord    INTEGER NOT NULL,               -- the element's index in an array, else 0
    multi  INTEGER NOT NULL,               -- 1 when the value is an array
    kind   INTEGER NOT NULL,               -- 0 string, 1 number, 2 boolean, 3 date, 4 null
    num    REAL,                           -- numbers, booleans (0/1) and dates (ms)
    text   TEXT,                           -- strings, normalized like search text
    PRIMARY KEY(entity, name, ord)
) WITHOUT ROWID;
INSERT INTO property(entity, name, ord, multi, kind, num, text)
    SELECT p.entity, n.id, p.ord, p.multi,
        CASE p.kind WHEN 'string' THEN 0 WHEN 'number' THEN 1 WHEN 'boolean' THEN 2 WHEN 'date' THEN 3 ELSE 4 END,
        p.num, p.text
    FROM property_015 p JOIN property_name n ON n.name = p.name ORDER BY p.entity, n.id, p.ord;
DROP TABLE property_015;
CREATE INDEX property_num ON property(name, num) WHERE num IS NOT NULL;
CREATE INDEX property_text ON property(name, text) WHERE text IS NOT NULL;
