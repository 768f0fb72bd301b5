-- entityidx schema 2: what the system side keeps: donations, batch client state, reindex requests.

-- Interactions (intent donations) per entity; repeats inside the dedup window count once.
CREATE TABLE donation(
    type    TEXT NOT NULL,
    id      TEXT NOT NULL,
    count   INTEGER NOT NULL,
    last_at INTEGER NOT NULL,
    PRIMARY KEY(type, id)
) WITHOUT ROWID;

-- The client state committed with the last batch (Core Spotlight keeps one per index name).
CREATE TABLE client_state(
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE reindex_request(
    id         INTEGER PRIMARY KEY,
    type       TEXT,
    ids        TEXT,                       -- JSON array of the ids asked for, NULL for "all"
    created_at INTEGER NOT NULL
);

-- What a request still waits for: removed when the entity is ingested again or deleted.
CREATE TABLE reindex_outstanding(
    request INTEGER NOT NULL REFERENCES reindex_request(id) ON DELETE CASCADE,
    type    TEXT NOT NULL,
    id      TEXT NOT NULL,
    PRIMARY KEY(request, type, id)
) WITHOUT ROWID;
CREATE INDEX reindex_outstanding_entity ON reindex_outstanding(type, id);
