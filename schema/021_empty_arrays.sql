-- entityidx schema 21: an empty array property (`"tags": []`) is a row of its own: kind 5, ord 0, no value. Without
-- it an entity holding [] had no row and read as one without the property, so that `tags notContains x` left it out,
-- although none of its elements (there are none) is x: the contract's rule for arrays (`ne`/`notContains` hold when
-- no element matches) keeps it. The row has neither num nor text, so that no comparison and no sort reads it as a
-- value; the partial index finds an empty property's rows by name for the negated filters. The rows of entities
-- ingested before are re-derived from their records: the property index's version is 2 from this schema on, so its
-- stamp in `index_version` is stale and that index alone is rebuilt.
CREATE INDEX property_empty ON property(name) WHERE kind = 5;
