-- entityidx schema 14: relations kept once, by the entity listed. `relation` held every `related` entry keyed by
-- (entity, ord), and `relation_target` a second copy keyed by (type, id): 21.2 MB for Debian's package list. The
-- entities a record lists, in its order, are read from the stored record; only the other direction (who lists this
-- entity) needs an index: one row per listed entity and entity that lists it, keyed by the listed type (interned in
-- `entity_type`, 7 bytes less a row for Debian's `package`) and id (10.1 MB with the type as text, 7.8 MB interned).
-- A repeated entry is one row. Rows are written from a record's `related` and deleted by their key, re-derived from
-- the stored record they were written from (no foreign key: its cascade would need an index on `entity`).
CREATE TABLE entity_type(
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);
ALTER TABLE relation RENAME TO relation_013;
CREATE TABLE relation(
    type   INTEGER NOT NULL,               -- the listed entity's type (entity_type.id)
    id     TEXT NOT NULL,                  -- the listed entity's id
    entity INTEGER NOT NULL,               -- the entity whose record lists it (entity.rowid)
    PRIMARY KEY(type, id, entity)
) WITHOUT ROWID;
INSERT INTO entity_type(name) SELECT DISTINCT type FROM relation_013 ORDER BY type;
INSERT OR IGNORE INTO relation(type, id, entity)
    SELECT t.id, r.id, r.entity FROM relation_013 r JOIN entity_type t ON t.name = r.type ORDER BY 1, 2, 3;
DROP TABLE relation_013;
