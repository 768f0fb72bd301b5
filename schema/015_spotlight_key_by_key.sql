-- entityidx schema 15: `spotlight_key` without its index by entity (25 to 27 MB for Debian's package list, as much as
-- the table) and without the foreign key whose cascade needed it. An entity's rows are deleted by their whole key
-- (attribute, head, hash, entity), re-derived from the stored record they were written from, as the full-text
-- entries are; the queries that asked whether an entity has a value of an attribute, or one with a key in a range,
-- ask its stored record (or title) instead (`spotlight_has`), and an equality per entity is a lookup of the whole
-- key. The keys are refilled from the records when the database is next opened (`spotlight_key_version` now also
-- names the ICU that folded the values, so that a delete re-derives the keys that were written).
DROP TABLE spotlight_key;
CREATE TABLE spotlight_key(
    attr   INTEGER NOT NULL,               -- spotlight_attr.id
    head   INTEGER NOT NULL,               -- the folded value's first 8 bytes, big-endian, sign bit flipped
    hash   INTEGER NOT NULL,               -- a 64-bit hash of the whole folded value (0 when it is 8 bytes or fewer)
    entity INTEGER NOT NULL,               -- entity.rowid
    PRIMARY KEY(attr, head, hash, entity)
) WITHOUT ROWID;
DELETE FROM meta WHERE key = 'spotlight_key_version';
