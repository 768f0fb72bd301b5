-- entityidx schema 3: look titles up by their normalized tokens, so that an entity whose title equals or starts with
-- the query is a candidate however many newer entities also match.
CREATE INDEX search_doc_title_plain ON search_doc(title_plain);
