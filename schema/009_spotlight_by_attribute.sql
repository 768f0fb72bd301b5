-- entityidx schema 9: spotlight_text ordered by attribute, then entity. A query that must read every value of one
-- attribute (a leading wildcard, w, t) then reads that attribute's rows alone, in order, instead of seeking into
-- rows ordered by entity, where each entity's long descriptions sit between its titles. Deletes and the `!=` check
-- find an entity's rows by the index on entity. Refilled when the database is next opened.
DROP TABLE spotlight_text;
CREATE TABLE spotlight_text(
    entity INTEGER NOT NULL REFERENCES entity(rowid) ON DELETE CASCADE,
    attr   TEXT NOT NULL,
    ord    INTEGER NOT NULL,
    value  TEXT NOT NULL,
    fold   TEXT NOT NULL,
    PRIMARY KEY(attr, entity, ord)
) WITHOUT ROWID;
CREATE INDEX spotlight_text_fold ON spotlight_text(attr, fold);
CREATE INDEX spotlight_text_entity ON spotlight_text(entity);
DELETE FROM meta WHERE key = 'spotlight_text_version';
