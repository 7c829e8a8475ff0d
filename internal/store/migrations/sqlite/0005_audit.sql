-- Clarify store, SQLite dialect, version 5: the audit log.

-- One row per turn that ran or was refused: who, which source, which scope
-- value (patient, customer) the statement was limited to, the statement and
-- its bound values, and the outcome. No foreign key: the audit log outlives
-- the conversations it mentions (deleted by their user or by retention).
-- AUTOINCREMENT: ids are never reused, even after the audit sweep.
CREATE TABLE audit_log (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    at              INTEGER NOT NULL,
    user_id         TEXT    NOT NULL,
    source          TEXT    NOT NULL,
    conversation_id TEXT    NOT NULL,
    request_id      TEXT    NOT NULL,
    question        TEXT    NOT NULL,
    scope           TEXT    NOT NULL,
    statement       TEXT    NOT NULL,
    params          TEXT    NOT NULL,
    rows            INTEGER NOT NULL,
    outcome         TEXT    NOT NULL,
    error_code      TEXT    NOT NULL
);
-- The sweep (at < before) and reads by time.
CREATE INDEX audit_log_at ON audit_log (at);
-- Reads of one user's records, newest first.
CREATE INDEX audit_log_user ON audit_log (user_id, id);

-- A row exists here only inside the audit sweep's own transaction (it is
-- inserted and deleted there): the one time rows may leave audit_log.
CREATE TABLE audit_sweep (
    id INTEGER PRIMARY KEY
);

-- Append-only: no statement may change a record, and only the sweep may
-- delete one.
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only: records are never updated');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
WHEN NOT EXISTS (SELECT 1 FROM audit_sweep)
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only: only the audit retention sweep deletes records');
END;
