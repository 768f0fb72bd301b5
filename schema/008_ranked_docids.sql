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
