-- entityidx schema 4: the engine writes the FTS index itself when it inserts or updates a search document.
-- A statement that fires a trigger runs in a statement transaction, and FTS5 (3.40) flushes its pending terms to a new
-- segment at every statement savepoint: one segment per record, merged again and again. Plain single-row INSERTs
-- into the index keep the terms in memory until they fill a segment. Deletions (cascading from entity) still use the
-- trigger search_doc_ad.
DROP TRIGGER search_doc_ai;
DROP TRIGGER search_doc_au;
