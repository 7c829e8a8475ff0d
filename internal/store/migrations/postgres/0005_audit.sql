-- Clarify store, PostgreSQL dialect, version 5: the audit log.

-- One row per turn that ran or was refused: who, which source, which scope
-- value (patient, customer) the statement was limited to, the statement and
-- its bound values, and the outcome. No foreign key: the audit log outlives
-- the conversations it mentions (deleted by their user or by retention).
-- params is text, not jsonb, so the values are kept byte for byte.
CREATE TABLE audit_log (
    id              bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at              timestamptz NOT NULL,
    user_id         text        NOT NULL,
    source          text        NOT NULL,
    conversation_id text        NOT NULL,
    request_id      text        NOT NULL,
    question        text        NOT NULL,
    scope           text        NOT NULL,
    statement       text        NOT NULL,
    params          text        NOT NULL,
    rows            integer     NOT NULL,
    outcome         text        NOT NULL,
    error_code      text        NOT NULL
);
-- The sweep (at < before) and reads by time.
CREATE INDEX audit_log_at ON audit_log (at);
-- Reads of one user's records, newest first.
CREATE INDEX audit_log_user ON audit_log (user_id, id);

-- Append-only, enforced by the database: UPDATE and TRUNCATE are always
-- refused, DELETE unless the transaction-local setting clarify.audit_sweep
-- is 'on', which only the audit retention sweep sets (set_config(…, true):
-- it ends with the sweep's transaction and no other session sees it).
CREATE FUNCTION audit_log_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' AND coalesce(current_setting('clarify.audit_sweep', true), '') = 'on' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'audit_log is append-only: % refused (only the audit retention sweep deletes records)', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER audit_log_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
