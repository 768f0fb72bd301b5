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
