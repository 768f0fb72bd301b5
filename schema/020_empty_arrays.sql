-- entityidx schema 20: an empty array property (`"tags": []`) is a row of its own: kind 5, ord 0, no value. Without
-- it an entity holding [] had no row and read as one without the property, so that `tags notContains x` left it out,
-- although none of its elements (there are none) is x: the contract's rule for arrays (`ne`/`notContains` hold when
-- no element matches) keeps it. The row has neither num nor text, so that no comparison and no sort reads it as a
-- value; the partial index finds an empty property's rows by name for the negated filters. The rows of entities
-- ingested before are re-derived from their records at once: the text version is marked stale, which rebuilds them.
CREATE INDEX property_empty ON property(name) WHERE kind = 5;
UPDATE meta SET value = 'stale (schema 20: empty arrays)' WHERE key = 'text_version';
