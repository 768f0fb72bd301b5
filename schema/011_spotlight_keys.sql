-- entityidx schema 11: Core Spotlight queries without a second copy of the text. `spotlight_text` kept every text
-- value again, as given and folded (the largest table of an index); the values are read from the stored records
-- instead, and `spotlight_key` holds one compact row per value: its attribute (`spotlight_attr`: title, subtitle,
-- description, keywords, synonyms, or @name for a string property), `head`, the first 8 bytes of the value folded
-- for case and marks as a big-endian integer (so the order of heads is the order of the folded values, and a prefix
-- is a range of heads), and `hash`, a 64-bit hash of the whole folded value (0 when it is 8 bytes or shorter, as
-- the head then holds it). Equality is a lookup of (attr, head, hash), a prefix a range of heads; every candidate
-- is then checked on the stored record. Filled from the records when the database is next opened.
DROP TABLE spotlight_text;
CREATE TABLE spotlight_attr(
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);
CREATE TABLE spotlight_key(
    attr   INTEGER NOT NULL,
    head   INTEGER NOT NULL,
    hash   INTEGER NOT NULL,
    entity INTEGER NOT NULL REFERENCES entity(rowid) ON DELETE CASCADE,
    PRIMARY KEY(attr, head, hash, entity)
) WITHOUT ROWID;
CREATE INDEX spotlight_key_entity ON spotlight_key(entity);
DELETE FROM meta WHERE key = 'spotlight_text_version';
