-- entityidx schema 13: a partial index of hidden entities (empty in most databases), so that a search can tell in
-- one lookup that every document of the full-text index is visible, and count its matches from the index alone.
CREATE INDEX entity_hidden ON entity(rowid) WHERE hidden != 0;
