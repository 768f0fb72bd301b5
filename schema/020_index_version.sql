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
