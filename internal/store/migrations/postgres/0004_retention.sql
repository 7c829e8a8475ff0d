-- Clarify store, PostgreSQL dialect, version 4: retention (DeleteOlderThan).

-- Conversations last updated before a time, oldest first.
CREATE INDEX conversations_updated ON conversations (updated_at);
-- The query log rows of the conversations deleted.
CREATE INDEX query_log_conversation ON query_log (conversation_id);
