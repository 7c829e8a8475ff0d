-- Clarify store, PostgreSQL dialect, version 3: the list of a user's
-- conversations (GET /v1/conversations).

-- The statement of a conversation's last answer ('' while it has none),
-- kept beside its state so that a list need not read every state.
ALTER TABLE conversations ADD COLUMN statement text NOT NULL DEFAULT '';

-- Conversations saved by older binaries: the statement from their state
-- (JSON written by package conversation; an empty state, or one that is
-- not a JSON object, is left ''). SET runs only on the rows WHERE keeps.
UPDATE conversations
SET statement = coalesce(convert_from(state, 'UTF8')::jsonb #>> '{last,answer,statement}', '')
WHERE left(convert_from(state, 'UTF8'), 1) = '{';

-- Conversations: one user's, newest first.
CREATE INDEX conversations_user_created ON conversations (user_id, created_at, id);
