-- entityidx schema 19: settings of an entity type's text (`declare --stemming`). `stemming` names the stemmer the
-- type's text is also indexed with (`english`: Porter2, see `Stemming`); a type without a row is not stemmed. Nothing
-- indexed changes: a type's entities are indexed again when its setting changes.
CREATE TABLE type_setting (
    type TEXT PRIMARY KEY,
    stemming TEXT NOT NULL
) WITHOUT ROWID;
