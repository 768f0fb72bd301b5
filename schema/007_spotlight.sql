-- entityidx schema 7: Core Spotlight query strings (`spotlight`). The text fields of each entity as given (NFC) and
-- folded (case and marks), one row per value (array elements each have their own): `attr` is title, subtitle,
-- description, keywords, synonyms, or @name for a string property. Equality and prefixes on the folded text are
-- index range scans; a query's exact semantics (case, accents, words) are checked on `value`. Dates and numbers of
-- the entity itself get indexes for ranges. Filled when the database is opened by a version that has it.
CREATE TABLE spotlight_text(
    entity INTEGER NOT NULL REFERENCES entity(rowid) ON DELETE CASCADE,
    attr   TEXT NOT NULL,
    ord    INTEGER NOT NULL,
    value  TEXT NOT NULL,
    fold   TEXT NOT NULL,
    PRIMARY KEY(entity, attr, ord)
) WITHOUT ROWID;
CREATE INDEX spotlight_text_fold ON spotlight_text(attr, fold);
CREATE INDEX entity_last_used ON entity(last_used_at) WHERE last_used_at IS NOT NULL;
CREATE INDEX entity_ranking_hint ON entity(ranking_hint) WHERE ranking_hint IS NOT NULL;
