-- entityidx schema 23: a transliterated type's Japanese words are also indexed by their readings (`Readings`: 抹茶 by
-- まっちゃ and matcha). A database that has such a type gets its search text marked stale, to be indexed again at
-- its next write or by `entityidx rebuild`; any other database's indexes stay as they are.
UPDATE index_version SET version = 'stale: readings'
WHERE name = 'search_text' AND EXISTS (SELECT 1 FROM type_setting WHERE transliterate <> 'none');
