-- Clarify store, PostgreSQL dialect, version 1. Tables are created in the
-- first schema of the connection's search_path.

-- One row per conversation. version: optimistic concurrency, +1 per update.
-- last_seq: the seq of its newest event; the UPDATE that bumps it also
-- row-locks the conversation, so concurrent appends get distinct seqs.
-- rounds: how many times it entered awaiting_clarification (for Stats).
CREATE TABLE conversations (
    id          text        PRIMARY KEY,
    user_id     text        NOT NULL,
    source      text        NOT NULL,
    question    text        NOT NULL,
    status      text        NOT NULL,
    interactive boolean     NOT NULL,
    state       bytea       NOT NULL,
    messages    integer     NOT NULL,
    rounds      integer     NOT NULL DEFAULT 0,
    last_seq    bigint      NOT NULL DEFAULT 0,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL,
    expires_at  timestamptz,
    version     bigint      NOT NULL
);
-- ExpireConversations.
CREATE INDEX conversations_awaiting ON conversations (expires_at)
    WHERE status = 'awaiting_clarification';
-- Stats.
CREATE INDEX conversations_created ON conversations (created_at);

-- The append-only event log, the SSE stream of a conversation.
CREATE TABLE events (
    conversation_id text        NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    seq             bigint      NOT NULL,
    type            text        NOT NULL,
    data            bytea       NOT NULL,
    at              timestamptz NOT NULL,
    PRIMARY KEY (conversation_id, seq)
);

-- Leases: who works on a conversation until when (the server's clock). No
-- foreign key: a lease may be taken before or after its conversation exists.
CREATE TABLE locks (
    conversation_id text        PRIMARY KEY,
    owner           text        NOT NULL,
    expires_at      timestamptz NOT NULL
);

-- Every reply a user gave about a slot.
CREATE TABLE answers (
    id       bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id  text        NOT NULL,
    source   text        NOT NULL,
    slot     text        NOT NULL,
    value    text        NOT NULL,
    remember boolean     NOT NULL,
    at       timestamptz NOT NULL
);
CREATE INDEX answers_user_slot ON answers (user_id, source, slot);

-- Values a user asked to remember, one per (user, source, slot).
CREATE TABLE remembered (
    user_id text        NOT NULL,
    source  text        NOT NULL,
    slot    text        NOT NULL,
    value   text        NOT NULL,
    at      timestamptz NOT NULL,
    PRIMARY KEY (user_id, source, slot)
);

-- Per-user switches such as "never ask me".
CREATE TABLE user_settings (
    user_id    text        PRIMARY KEY,
    never_ask  boolean     NOT NULL,
    updated_at timestamptz NOT NULL
);

-- One row per finished turn. No foreign key: the log outlives deletions.
CREATE TABLE query_log (
    id              bigint           GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    conversation_id text             NOT NULL,
    user_id         text             NOT NULL,
    source          text             NOT NULL,
    question        text             NOT NULL,
    sql             text             NOT NULL,
    status          text             NOT NULL,
    error_code      text             NOT NULL,
    duration_ms     double precision NOT NULL,
    rows            integer          NOT NULL,
    turns           integer          NOT NULL,
    clarifications  integer          NOT NULL,
    assumptions     integer          NOT NULL,
    at              timestamptz      NOT NULL
);
CREATE INDEX query_log_at ON query_log (at);
