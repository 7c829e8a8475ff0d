-- Clarify store, SQLite dialect, version 1.
-- Times are INTEGER microseconds since the Unix epoch, UTC.

-- One row per conversation. version: optimistic concurrency, +1 per update.
-- last_seq: the seq of its newest event, so appends need no MAX(seq) scan.
-- rounds: how many times it entered awaiting_clarification (for Stats).
CREATE TABLE conversations (
    id          TEXT    PRIMARY KEY,
    user_id     TEXT    NOT NULL,
    source      TEXT    NOT NULL,
    question    TEXT    NOT NULL,
    status      TEXT    NOT NULL,
    interactive INTEGER NOT NULL,
    state       BLOB    NOT NULL,
    messages    INTEGER NOT NULL,
    rounds      INTEGER NOT NULL DEFAULT 0,
    last_seq    INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    expires_at  INTEGER,
    version     INTEGER NOT NULL
);
-- ExpireConversations.
CREATE INDEX conversations_awaiting ON conversations (expires_at)
    WHERE status = 'awaiting_clarification';
-- Stats.
CREATE INDEX conversations_created ON conversations (created_at);

-- The append-only event log, the SSE stream of a conversation.
CREATE TABLE events (
    conversation_id TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    seq             INTEGER NOT NULL,
    type            TEXT    NOT NULL,
    data            BLOB    NOT NULL,
    at              INTEGER NOT NULL,
    PRIMARY KEY (conversation_id, seq)
) WITHOUT ROWID;

-- Leases: who works on a conversation until when. No foreign key: a lease
-- may be taken before or after its conversation exists.
CREATE TABLE locks (
    conversation_id TEXT    PRIMARY KEY,
    owner           TEXT    NOT NULL,
    expires_at      INTEGER NOT NULL
) WITHOUT ROWID;

-- Every reply a user gave about a slot.
CREATE TABLE answers (
    id       INTEGER PRIMARY KEY,
    user_id  TEXT    NOT NULL,
    source   TEXT    NOT NULL,
    slot     TEXT    NOT NULL,
    value    TEXT    NOT NULL,
    remember INTEGER NOT NULL,
    at       INTEGER NOT NULL
);
CREATE INDEX answers_user_slot ON answers (user_id, source, slot);

-- Values a user asked to remember, one per (user, source, slot).
CREATE TABLE remembered (
    user_id TEXT    NOT NULL,
    source  TEXT    NOT NULL,
    slot    TEXT    NOT NULL,
    value   TEXT    NOT NULL,
    at      INTEGER NOT NULL,
    PRIMARY KEY (user_id, source, slot)
) WITHOUT ROWID;

-- Per-user switches such as "never ask me".
CREATE TABLE user_settings (
    user_id    TEXT    PRIMARY KEY,
    never_ask  INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
) WITHOUT ROWID;

-- One row per finished turn. No foreign key: the log outlives deletions.
CREATE TABLE query_log (
    id              INTEGER PRIMARY KEY,
    conversation_id TEXT    NOT NULL,
    user_id         TEXT    NOT NULL,
    source          TEXT    NOT NULL,
    question        TEXT    NOT NULL,
    sql             TEXT    NOT NULL,
    status          TEXT    NOT NULL,
    error_code      TEXT    NOT NULL,
    duration_ms     REAL    NOT NULL,
    rows            INTEGER NOT NULL,
    turns           INTEGER NOT NULL,
    clarifications  INTEGER NOT NULL,
    assumptions     INTEGER NOT NULL,
    at              INTEGER NOT NULL
);
CREATE INDEX query_log_at ON query_log (at);
