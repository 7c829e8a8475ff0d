-- Clarify store, PostgreSQL dialect, version 2: what `clarify model review`
-- reads. Rows written before this version keep the defaults ('').

-- The content words of a turn's question that linked to nothing, as a JSON
-- array of strings ('' when there were none).
ALTER TABLE query_log ADD COLUMN unknown text NOT NULL DEFAULT '';

-- The kind of clarification a reply answered (vague_qualifier,
-- unknown_term…) and the id of the option it offered as its best guess
-- ('' when it offered none).
ALTER TABLE answers ADD COLUMN kind text NOT NULL DEFAULT '';
ALTER TABLE answers ADD COLUMN best_guess text NOT NULL DEFAULT '';

-- QueryLog and Answers: one source's rows since a time.
CREATE INDEX query_log_source_at ON query_log (source, at);
CREATE INDEX answers_source_at ON answers (source, at);
