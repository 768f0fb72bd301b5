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
