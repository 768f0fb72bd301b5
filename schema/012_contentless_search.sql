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
