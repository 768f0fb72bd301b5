// swift-format-ignore-file
// Generated from schema/*.sql by scripts/gen-schema.sh. Do not edit.
import SQLite

extension Schema {
    static let migrations: [Migrator.Migration] = [
        .init(version: 1, name: "core", sql: #"""
-- entityidx schema 1: entities, their properties, relations and the full-text index.
-- Times are milliseconds since 1970-01-01 UTC. Text columns of search_doc hold normalized text (see README,
-- "Search pipeline"), indexed by FTS5's built-in unicode61 tokenizer so that the stock sqlite3 shell can query it.

CREATE TABLE meta(
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE entity(
    rowid        INTEGER PRIMARY KEY,
    type         TEXT NOT NULL,
    id           TEXT NOT NULL,
    id_key       TEXT NOT NULL,            -- the id normalized for exact-id matching ("#1042-A" -> "1042a")
    title        TEXT NOT NULL,
    record       TEXT NOT NULL,            -- the record as ingested, JSON
    domain       TEXT,
    hidden       INTEGER NOT NULL DEFAULT 0,
    ranking_hint REAL,
    priority     INTEGER,
    last_used_at INTEGER,
    ingested_at  INTEGER NOT NULL,         -- last ingest, changed or not
    expires_at   INTEGER NOT NULL,
    UNIQUE(type, id)
);
CREATE INDEX entity_id_key ON entity(id_key);
CREATE INDEX entity_domain ON entity(domain) WHERE domain IS NOT NULL;
CREATE INDEX entity_expires ON entity(expires_at);

-- One row per property value (array properties have one row per element, ord = element index).
CREATE TABLE property(
    entity INTEGER NOT NULL REFERENCES entity(rowid) ON DELETE CASCADE,
    name   TEXT NOT NULL,
    ord    INTEGER NOT NULL,
    multi  INTEGER NOT NULL,               -- 1 when the value is an array
    kind   TEXT NOT NULL,                  -- string, number, boolean, date, null
    num    REAL,                           -- numbers, booleans (0/1) and dates (ms)
    text   TEXT,                           -- strings, normalized like search text
    PRIMARY KEY(entity, name, ord)
) WITHOUT ROWID;
CREATE INDEX property_num ON property(name, num) WHERE num IS NOT NULL;
CREATE INDEX property_text ON property(name, text) WHERE text IS NOT NULL;

-- Which kinds of values each property of each type has held (kept by ingest; read by property queries).
CREATE TABLE property_kind(
    type  TEXT NOT NULL,
    name  TEXT NOT NULL,
    kind  TEXT NOT NULL,
    multi INTEGER NOT NULL,
    PRIMARY KEY(type, name, kind, multi)
) WITHOUT ROWID;

-- Declared property types per entity type (undeclared properties take the type of their JSON values).
CREATE TABLE property_decl(
    type         TEXT NOT NULL,
    name         TEXT NOT NULL,
    kind         TEXT NOT NULL,            -- string, number, integer, boolean, date, strings
    sortable     INTEGER NOT NULL DEFAULT 1,
    indexing_key TEXT,
    PRIMARY KEY(type, name)
) WITHOUT ROWID;

CREATE TABLE relation(
    entity INTEGER NOT NULL REFERENCES entity(rowid) ON DELETE CASCADE,
    ord    INTEGER NOT NULL,
    type   TEXT NOT NULL,
    id     TEXT NOT NULL,
    PRIMARY KEY(entity, ord)
) WITHOUT ROWID;
CREATE INDEX relation_target ON relation(type, id);

CREATE TABLE search_doc(
    rowid       INTEGER PRIMARY KEY REFERENCES entity(rowid) ON DELETE CASCADE,
    title       TEXT NOT NULL,
    names       TEXT NOT NULL,             -- synonyms and keywords
    subtitle    TEXT NOT NULL,
    description TEXT NOT NULL,
    props       TEXT NOT NULL,             -- string property values
    ident       TEXT NOT NULL,             -- the id
    title_plain TEXT NOT NULL              -- the title's tokens alone, for ranking (not indexed)
);

CREATE VIRTUAL TABLE search USING fts5(
    title, names, subtitle, description, props, ident,
    content = 'search_doc', content_rowid = 'rowid',
    tokenize = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'",
    prefix = '1 2 3'
);
INSERT INTO search(search, rank) VALUES ('rank', 'bm25(10.0, 6.0, 4.0, 2.0, 1.0, 10.0)');

CREATE TRIGGER search_doc_ai AFTER INSERT ON search_doc BEGIN
    INSERT INTO search(rowid, title, names, subtitle, description, props, ident)
    VALUES (new.rowid, new.title, new.names, new.subtitle, new.description, new.props, new.ident);
END;
CREATE TRIGGER search_doc_ad AFTER DELETE ON search_doc BEGIN
    INSERT INTO search(search, rowid, title, names, subtitle, description, props, ident)
    VALUES ('delete', old.rowid, old.title, old.names, old.subtitle, old.description, old.props, old.ident);
END;
CREATE TRIGGER search_doc_au AFTER UPDATE ON search_doc BEGIN
    INSERT INTO search(search, rowid, title, names, subtitle, description, props, ident)
    VALUES ('delete', old.rowid, old.title, old.names, old.subtitle, old.description, old.props, old.ident);
    INSERT INTO search(rowid, title, names, subtitle, description, props, ident)
    VALUES (new.rowid, new.title, new.names, new.subtitle, new.description, new.props, new.ident);
END;
"""#),
        .init(version: 2, name: "system", sql: #"""
-- entityidx schema 2: what the system side keeps: donations, batch client state, reindex requests.

-- Interactions (intent donations) per entity; repeats inside the dedup window count once.
CREATE TABLE donation(
    type    TEXT NOT NULL,
    id      TEXT NOT NULL,
    count   INTEGER NOT NULL,
    last_at INTEGER NOT NULL,
    PRIMARY KEY(type, id)
) WITHOUT ROWID;

-- The client state committed with the last batch (Core Spotlight keeps one per index name).
CREATE TABLE client_state(
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE reindex_request(
    id         INTEGER PRIMARY KEY,
    type       TEXT,
    ids        TEXT,                       -- JSON array of the ids asked for, NULL for "all"
    created_at INTEGER NOT NULL
);

-- What a request still waits for: removed when the entity is ingested again or deleted.
CREATE TABLE reindex_outstanding(
    request INTEGER NOT NULL REFERENCES reindex_request(id) ON DELETE CASCADE,
    type    TEXT NOT NULL,
    id      TEXT NOT NULL,
    PRIMARY KEY(request, type, id)
) WITHOUT ROWID;
CREATE INDEX reindex_outstanding_entity ON reindex_outstanding(type, id);
"""#),
        .init(version: 3, name: "title_index", sql: #"""
-- entityidx schema 3: look titles up by their normalized tokens, so that an entity whose title equals or starts with
-- the query is a candidate however many newer entities also match.
CREATE INDEX search_doc_title_plain ON search_doc(title_plain);
"""#),
        .init(version: 4, name: "explicit_fts_writes", sql: #"""
-- entityidx schema 4: the engine writes the FTS index itself when it inserts or updates a search document.
-- A statement that fires a trigger runs in a statement transaction, and FTS5 (3.40) flushes its pending terms to a new
-- segment at every statement savepoint: one segment per record, merged again and again. Plain single-row INSERTs
-- into the index keep the terms in memory until they fill a segment. Deletions (cascading from entity) still use the
-- trigger search_doc_ad.
DROP TRIGGER search_doc_ai;
DROP TRIGGER search_doc_au;
"""#),
        .init(version: 5, name: "vocabulary", sql: #"""
-- entityidx schema 5: the words of the full-text index (terms without digits), kept by the engine as it writes search
-- documents. A search expands a typed prefix longer than the FTS5 prefix indexes into the words it completes, which
-- FTS5 reads lazily in rowid order (a bare long prefix makes it merge every matching doclist first), and the typo
-- fallback finds its candidates here with a range scan. Words are added, never removed: one that no entity holds any
-- more simply matches nothing.
CREATE TABLE vocabulary(
    term TEXT PRIMARY KEY
) WITHOUT ROWID;

CREATE VIRTUAL TABLE temp.search_vocab_005 USING fts5vocab(main, search, 'row');
INSERT INTO vocabulary(term) SELECT term FROM temp.search_vocab_005 WHERE term NOT GLOB '*[0-9]*';
DROP TABLE temp.search_vocab_005;
"""#),
        .init(version: 6, name: "codes", sql: #"""
-- entityidx schema 6: codes (ids, and words with digits such as `K83913.39F29.59444AT` or `ORD-1042`) indexed by
-- trigrams, so that a fragment inside one (`9444`, `39f29`) is found. `codes` holds them normalized and joined,
-- separated by spaces; every search document has an entry (an empty one when it has no codes), so that deletes
-- always match an insert. Filled when the text is re-derived (text version 6).
ALTER TABLE search_doc ADD COLUMN codes TEXT NOT NULL DEFAULT '';
CREATE VIRTUAL TABLE search_code USING fts5(
    codes,
    content = 'search_doc', content_rowid = 'rowid',
    tokenize = 'trigram',
    columnsize = 0
);
DROP TRIGGER search_doc_ad;
CREATE TRIGGER search_doc_ad AFTER DELETE ON search_doc BEGIN
    INSERT INTO search(search, rowid, title, names, subtitle, description, props, ident)
    VALUES ('delete', old.rowid, old.title, old.names, old.subtitle, old.description, old.props, old.ident);
    INSERT INTO search_code(search_code, rowid, codes) VALUES ('delete', old.rowid, old.codes);
END;
"""#),
        .init(version: 7, name: "spotlight", sql: #"""
-- entityidx schema 7: Core Spotlight query strings (`spotlight`). The text fields of each entity as given (NFC) and
-- folded (case and marks), one row per value (array elements each have their own): `attr` is title, subtitle,
-- description, keywords, synonyms, or @name for a string property. Equality and prefixes on the folded text are
-- index range scans; a query's exact semantics (case, accents, words) are checked on `value`. Dates and numbers of
-- the entity itself get indexes for ranges. Filled when the database is opened by a version that has it.
CREATE TABLE spotlight_text(
    entity INTEGER NOT NULL REFERENCES entity(rowid) ON DELETE CASCADE,
    attr   TEXT NOT NULL,
    ord    INTEGER NOT NULL,
    value  TEXT NOT NULL,
    fold   TEXT NOT NULL,
    PRIMARY KEY(entity, attr, ord)
) WITHOUT ROWID;
CREATE INDEX spotlight_text_fold ON spotlight_text(attr, fold);
CREATE INDEX entity_last_used ON entity(last_used_at) WHERE last_used_at IS NOT NULL;
CREATE INDEX entity_ranking_hint ON entity(ranking_hint) WHERE ranking_hint IS NOT NULL;
"""#),
        .init(version: 8, name: "ranked_docids", sql: #"""
-- entityidx schema 8: the full-text indexes are keyed by a ranked document id, so that exact top-k needs no window.
--
-- `search_doc.doc` orders the documents the way search breaks ties inside a tier: a higher id ranks first. From the
-- high bits down it holds the rankingHint (in tenths), the priority (clamped to -31…31), the day of lastUsedAt
-- (days since 2001-01-01), fewer title words, then the entity's rowid (newer first). FTS5 returns matches in rowid
-- order and stops early under LIMIT, so each tier's best entities are read first (`EntityStore+Search.swift`). The
-- id changes when one of those changes; the entity keeps its rowid. Existing rows get a provisional id here; the
-- text rebuild that follows (text version 9) writes the ranked ones and rebuilds both indexes.
--
-- `name_key` holds a 64-bit hash of each synonym's and keyword's normalized words, so that a query equal to one of
-- them is found without reading every entity that merely contains its words.
ALTER TABLE search_doc ADD COLUMN doc INTEGER NOT NULL DEFAULT 0;
UPDATE search_doc SET doc = rowid;
CREATE UNIQUE INDEX search_doc_doc ON search_doc(doc);
DROP INDEX search_doc_title_plain;
CREATE INDEX search_doc_title_plain ON search_doc(title_plain, doc);

CREATE TABLE name_key(
    hash INTEGER NOT NULL,
    doc  INTEGER NOT NULL,
    PRIMARY KEY(hash, doc)
) WITHOUT ROWID;
CREATE INDEX name_key_doc ON name_key(doc);

DROP TRIGGER search_doc_ad;
DROP TABLE search;
DROP TABLE search_code;
CREATE VIRTUAL TABLE search USING fts5(
    title, names, subtitle, description, props, ident,
    content = 'search_doc', content_rowid = 'doc',
    tokenize = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'",
    prefix = '1 2 3'
);
INSERT INTO search(search, rank) VALUES ('rank', 'bm25(10.0, 6.0, 4.0, 2.0, 1.0, 10.0)');
CREATE VIRTUAL TABLE search_code USING fts5(
    codes,
    content = 'search_doc', content_rowid = 'doc',
    tokenize = 'trigram',
    columnsize = 0
);
CREATE TRIGGER search_doc_ad AFTER DELETE ON search_doc BEGIN
    INSERT INTO search(search, rowid, title, names, subtitle, description, props, ident)
    VALUES ('delete', old.doc, old.title, old.names, old.subtitle, old.description, old.props, old.ident);
    INSERT INTO search_code(search_code, rowid, codes) VALUES ('delete', old.doc, old.codes);
    DELETE FROM name_key WHERE doc = old.doc;
END;
INSERT INTO search(search) VALUES ('rebuild');
INSERT INTO search_code(search_code) VALUES ('rebuild');
-- The ranked ids and the name keys are computed from the records: the text rebuild on open writes them.
UPDATE meta SET value = '0' WHERE key = 'text_version';
"""#),
        .init(version: 9, name: "spotlight_by_attribute", sql: #"""
-- entityidx schema 9: spotlight_text ordered by attribute, then entity. A query that must read every value of one
-- attribute (a leading wildcard, w, t) then reads that attribute's rows alone, in order, instead of seeking into
-- rows ordered by entity, where each entity's long descriptions sit between its titles. Deletes and the `!=` check
-- find an entity's rows by the index on entity. Refilled when the database is next opened.
DROP TABLE spotlight_text;
CREATE TABLE spotlight_text(
    entity INTEGER NOT NULL REFERENCES entity(rowid) ON DELETE CASCADE,
    attr   TEXT NOT NULL,
    ord    INTEGER NOT NULL,
    value  TEXT NOT NULL,
    fold   TEXT NOT NULL,
    PRIMARY KEY(attr, entity, ord)
) WITHOUT ROWID;
CREATE INDEX spotlight_text_fold ON spotlight_text(attr, fold);
CREATE INDEX spotlight_text_entity ON spotlight_text(entity);
DELETE FROM meta WHERE key = 'spotlight_text_version';
"""#),
        .init(version: 10, name: "title_index", sql: #"""
-- entityidx schema 10: the titles and ids in a full-text index of their own. The title tier's buckets (`{title} :
-- ^"w"`, `{title ident} : …`) read only title and id postings here, instead of reading every position of a word in
-- `search`, where its long description postings sit between the few title ones (a one-word title bucket on Debian's
-- package list: 0.5 to 0.9 ms there, 0.03 to 0.1 ms here). Same tokenizer and prefixes as `search`, no column sizes
-- (nothing ranks by BM25), external content from `search_doc`; about 8 MB for 64k packages.
CREATE VIRTUAL TABLE search_title USING fts5(
    title, ident,
    content = 'search_doc', content_rowid = 'doc',
    tokenize = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'",
    prefix = '1 2 3',
    columnsize = 0
);
DROP TRIGGER search_doc_ad;
CREATE TRIGGER search_doc_ad AFTER DELETE ON search_doc BEGIN
    INSERT INTO search(search, rowid, title, names, subtitle, description, props, ident)
    VALUES ('delete', old.doc, old.title, old.names, old.subtitle, old.description, old.props, old.ident);
    INSERT INTO search_title(search_title, rowid, title, ident) VALUES ('delete', old.doc, old.title, old.ident);
    INSERT INTO search_code(search_code, rowid, codes) VALUES ('delete', old.doc, old.codes);
    DELETE FROM name_key WHERE doc = old.doc;
END;
INSERT INTO search_title(search_title) VALUES ('rebuild');
"""#),
        .init(version: 11, name: "spotlight_keys", sql: #"""
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
"""#),
        .init(version: 12, name: "contentless_search", sql: #"""
-- entityidx schema 12: one copy of the text. The full-text indexes are contentless (`content = ''`): they keep
-- their postings and nothing else, and the text they index is re-derived from the stored record whenever an entry
-- must be deleted (FTS5 needs a delete given with the text it indexed). `search_doc` keeps only what ranking reads
-- per candidate: the document id, the title's normalized text and tokens, the id's normalized text, and
-- `text_hash`, a 64-bit hash of every column as indexed, against which a re-derived delete is checked (a mismatch,
-- after a change of ICU or of the text pipeline that was not rebuilt, makes the engine rebuild the indexes from the
-- records instead of deleting wrong postings). The descriptions, subtitles, names, properties and codes that
-- `search_doc` held (the largest table after `search` on Debian's package list) are gone. `search` keeps its column
-- sizes, so that `ORDER BY rank` (BM25) still works from the sqlite3 shell. Filled from the records when the
-- database is next opened.
DROP TRIGGER search_doc_ad;
DROP TABLE search;
DROP TABLE search_title;
DROP TABLE search_code;
DROP TABLE search_doc;
CREATE TABLE search_doc(
    rowid       INTEGER PRIMARY KEY REFERENCES entity(rowid) ON DELETE CASCADE,
    doc         INTEGER NOT NULL,          -- the document id in the full-text indexes (DocumentRank)
    title       TEXT NOT NULL,             -- the title's index terms, as in the title column
    ident       TEXT NOT NULL,             -- the id's index terms, as in the ident column
    title_plain TEXT NOT NULL,             -- the title's tokens alone, for the exactness tier
    text_hash   INTEGER NOT NULL           -- a hash of every column as indexed (`SearchDocument.textHash`)
);
CREATE UNIQUE INDEX search_doc_doc ON search_doc(doc);
CREATE INDEX search_doc_title_plain ON search_doc(title_plain, doc);
CREATE VIRTUAL TABLE search USING fts5(
    title, names, subtitle, description, props, ident,
    content = '',
    tokenize = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'",
    prefix = '1 2 3'
);
INSERT INTO search(search, rank) VALUES ('rank', 'bm25(10.0, 6.0, 4.0, 2.0, 1.0, 10.0)');
CREATE VIRTUAL TABLE search_title USING fts5(
    title, ident,
    content = '',
    tokenize = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'",
    prefix = '1 2 3',
    columnsize = 0
);
CREATE VIRTUAL TABLE search_code USING fts5(
    codes,
    content = '',
    tokenize = 'trigram',
    columnsize = 0
);
-- The engine deletes the full-text entries and the name keys of a document (it re-derives them from the record), so
-- nothing needs to find a document's name keys by document: `name_key_doc` goes.
DROP INDEX name_key_doc;
DELETE FROM name_key;
DELETE FROM vocabulary;
UPDATE meta SET value = '0' WHERE key = 'text_version';
"""#),
        .init(version: 13, name: "hidden_index", sql: #"""
-- entityidx schema 13: a partial index of hidden entities (empty in most databases), so that a search can tell in
-- one lookup that every document of the full-text index is visible, and count its matches from the index alone.
CREATE INDEX entity_hidden ON entity(rowid) WHERE hidden != 0;
"""#),
        .init(version: 14, name: "relation_by_target", sql: #"""
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
"""#),
        .init(version: 15, name: "spotlight_key_by_key", sql: #"""
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
"""#),
        .init(version: 16, name: "property_interned", sql: #"""
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
"""#),
        .init(version: 17, name: "record_dictionary", sql: #"""
-- entityidx schema 17: stored records compressed with a dictionary. Records of one application share most of their
-- bytes (member names, types, enumerations), which one record of a kilobyte cannot exploit alone; a zstd dictionary
-- trained on the first records of a large ingest halves what deflate leaves and decompresses several times faster.
-- Each row is one dictionary, under the id that every frame compressed with it names (`entity.record`'s form 2, see
-- `StoredRecord`); rows are never changed nor deleted, so a record can always be read back. New records are
-- compressed with the newest dictionary; records written before keep their form (text or deflate) until written
-- again.
CREATE TABLE record_dictionary(
    id         INTEGER PRIMARY KEY,        -- the dictionary's id, as its bytes and every frame name it
    dict       BLOB NOT NULL,              -- the dictionary (zstd's format)
    created_at INTEGER NOT NULL
);
"""#),
        .init(version: 18, name: "title_prefixes", sql: #"""
-- entityidx schema 18: prefix indexes of 4 and 5 characters for the titles and ids (`search_title`). A word being
-- typed of 4 or 5 letters that completes more words than the engine lists (`PrefixExpansion`: `pyth` completes
-- 2,356 on Debian's package list) made FTS5 merge every completion's postings before the first row, at each of the
-- title tier's bucket queries and at the count of the total (2 to 3 ms each there); with the prefix indexes it
-- streams one list. They are kept for the titles alone, a small index (7 -> 9.5 MB for the package list), not for
-- every field. The table is made again and filled from the records when the database is next opened.
DROP TABLE search_title;
CREATE VIRTUAL TABLE search_title USING fts5(
    title, ident,
    content = '',
    tokenize = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'",
    prefix = '1 2 3 4 5',
    columnsize = 0
);
UPDATE meta SET value = '0' WHERE key = 'text_version';
"""#),
        .init(version: 19, name: "type_settings", sql: #"""
-- entityidx schema 19: settings of an entity type's text (`declare --stemming`). `stemming` names the stemmer the
-- type's text is also indexed with (`english`: Porter2, see `Stemming`); a type without a row is not stemmed. Nothing
-- indexed changes: a type's entities are indexed again when its setting changes.
CREATE TABLE type_setting (
    type TEXT PRIMARY KEY,
    stemming TEXT NOT NULL
) WITHOUT ROWID;
"""#),
        .init(version: 20, name: "index_version", sql: #"""
-- entityidx schema 20: one row per derived index (`Indexes.all`): the stamp of what made it (its own version, and for
-- the indexes made from analyzed text the text pipeline's version and ICU's). An index whose stamp is not the one
-- this entityidx writes is rebuilt from the stored records, alone (`IndexVersions`). The stamps move here from the
-- three `meta` keys that held them, written as the indexes they stood for would write them.
CREATE TABLE index_version(
    name TEXT PRIMARY KEY,
    version TEXT NOT NULL
) WITHOUT ROWID;
INSERT INTO index_version(name, version)
SELECT n.name, '1 text ' || t.value || ' icu ' || i.value
FROM (SELECT 'search_text' AS name UNION ALL SELECT 'vocabulary' UNION ALL SELECT 'properties') n
JOIN meta t ON t.key = 'text_version'
JOIN meta i ON i.key = 'icu_version';
INSERT INTO index_version(name, version) SELECT 'spotlight_keys', value FROM meta WHERE key = 'spotlight_key_version';
INSERT INTO index_version(name, version) SELECT 'relations', '1' FROM meta WHERE key = 'text_version';
DELETE FROM meta WHERE key IN ('text_version', 'icu_version', 'spotlight_key_version');
"""#),
        .init(version: 21, name: "empty_arrays", sql: #"""
-- entityidx schema 21: an empty array property (`"tags": []`) is a row of its own: kind 5, ord 0, no value. Without
-- it an entity holding [] had no row and read as one without the property, so that `tags notContains x` left it out,
-- although none of its elements (there are none) is x: the contract's rule for arrays (`ne`/`notContains` hold when
-- no element matches) keeps it. The row has neither num nor text, so that no comparison and no sort reads it as a
-- value; the partial index finds an empty property's rows by name for the negated filters. The rows of entities
-- ingested before are re-derived from their records: the property index's version is 2 from this schema on, so its
-- stamp in `index_version` is stale and that index alone is rebuilt.
CREATE INDEX property_empty ON property(name) WHERE kind = 5;
"""#),
        .init(version: 22, name: "transliteration", sql: #"""
-- entityidx schema 22: a type's text may also be indexed by its words' Latin transliteration (`declare --transliterate
-- latin`, see `Transliteration`): `transliterate` names the target script (`latin`), or `none`. A row is kept while
-- either setting is not `none`, so `stemming` may now be `none` too. Nothing indexed changes: a type's entities are
-- indexed again when its setting changes.
ALTER TABLE type_setting ADD COLUMN transliterate TEXT NOT NULL DEFAULT 'none';
"""#),
        .init(version: 23, name: "readings", sql: #"""
-- entityidx schema 23: a transliterated type's Japanese words are also indexed by their readings (`Readings`: 抹茶 by
-- まっちゃ and matcha). A database that has such a type gets its search text marked stale, to be indexed again at
-- its next write or by `entityidx rebuild`; any other database's indexes stay as they are.
UPDATE index_version SET version = 'stale: readings'
WHERE name = 'search_text' AND EXISTS (SELECT 1 FROM type_setting WHERE transliterate <> 'none');
"""#),
    ]
}
