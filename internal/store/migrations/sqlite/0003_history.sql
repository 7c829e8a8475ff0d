-- Clarify store, SQLite dialect, version 3: the list of a user's
-- conversations (GET /v1/conversations).

-- The statement of a conversation's last answer ('' while it has none),
-- kept beside its state so that a list need not read every state.
ALTER TABLE conversations ADD COLUMN statement TEXT NOT NULL DEFAULT '';

-- Conversations saved by older binaries: the statement from their state
-- (JSON written by package conversation; anything else is left '').
UPDATE conversations
SET statement = coalesce(json_extract(CAST(state AS TEXT), '$.last.answer.statement'), '')
WHERE json_valid(CAST(state AS TEXT))
  AND json_type(CAST(state AS TEXT), '$.last.answer.statement') = 'text';

-- Conversations: one user's, newest first.
CREATE INDEX conversations_user_created ON conversations (user_id, created_at, id);
