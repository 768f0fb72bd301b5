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
