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
