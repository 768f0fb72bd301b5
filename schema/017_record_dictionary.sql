-- entityidx schema 17: stored records compressed with a dictionary. Records of one application share most of their
-- bytes (member names, types, enumerations), which one record of a kilobyte cannot exploit alone; a zstd dictionary
-- trained on the first records of a large ingest halves what deflate leaves and decompresses several times faster.
-- Each row is one dictionary, under the id that every frame compressed with it names (`entity.record`'s form 2, see
-- `StoredRecord`); rows are never changed nor deleted, so a record can always be read back. New records are
-- compressed with the newest dictionary; records written before keep their form (text or deflate) until written
-- again.
CREATE TABLE record_dictionary(
    id         INTEGER PRIMARY KEY,        -- the dictionary's id, as its bytes and every frame name it
    dict       BLOB NOT NULL,              -- the dictionary (zstd's format)
    created_at INTEGER NOT NULL
);
