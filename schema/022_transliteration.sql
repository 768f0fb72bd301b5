-- entityidx schema 22: a type's text may also be indexed by its words' Latin transliteration (`declare --transliterate
-- latin`, see `Transliteration`): `transliterate` names the target script (`latin`), or `none`. A row is kept while
-- either setting is not `none`, so `stemming` may now be `none` too. Nothing indexed changes: a type's entities are
-- indexed again when its setting changes.
ALTER TABLE type_setting ADD COLUMN transliterate TEXT NOT NULL DEFAULT 'none';
