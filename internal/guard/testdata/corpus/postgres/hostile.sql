-- Hostile postgres statements: every one must be rejected (guard_test.go).
-- Format: "-- name:" starts an entry; "-- model:", "-- scope:" (a value, none or both), "-- args:"
-- (| separated, #N for integers) and "-- code:" may follow; the statement runs to the next entry.

-- name: stacked-two-selects
-- scope: L2
SELECT 1; SELECT 2

-- name: stacked-delete
-- scope: L2
SELECT * FROM patients; DELETE FROM lab_results

-- name: stacked-drop-no-space
-- scope: L2
SELECT id FROM patients;DROP TABLE patients

-- name: stacked-after-comment
-- scope: L2
SELECT 1 /* harmless */ ; UPDATE patients SET full_name = 'x'

-- name: stacked-after-string
-- scope: L2
SELECT 'a;b' AS x; INSERT INTO patients (id) VALUES ('L9')

-- name: stacked-after-line-comment
-- scope: L2
SELECT 1 -- looks finished
; DELETE FROM patients

-- name: stacked-trailing-write
-- scope: L2
SELECT full_name FROM patients WHERE id = 'L2'; DELETE FROM lab_results WHERE 1 = 1

-- name: insert
-- scope: L2
INSERT INTO patients (id, full_name) VALUES ('L9', 'Eve')

-- name: update
-- scope: L2
UPDATE lab_results SET value = 0

-- name: delete
-- scope: L2
DELETE FROM lab_results WHERE patient_id = 'L2'

-- name: drop-table
-- scope: L2
DROP TABLE lab_results

-- name: create-table-as
-- scope: L2
CREATE TABLE loot AS SELECT * FROM patients

-- name: alter-table
-- scope: L2
ALTER TABLE patients ADD COLUMN pwned integer

-- name: create-view
-- scope: L2
CREATE VIEW v AS SELECT * FROM patients

-- name: create-index
-- scope: L2
CREATE INDEX i ON lab_results (value)

-- name: begin
-- scope: L2
BEGIN

-- name: commit
-- scope: L2
COMMIT

-- name: rollback
-- scope: L2
ROLLBACK

-- name: savepoint
-- scope: L2
SAVEPOINT s

-- name: explain
-- scope: L2
EXPLAIN SELECT * FROM patients

-- name: values
-- scope: L2
VALUES (1, 2)

-- name: with-delete
-- scope: L2
WITH x AS (SELECT 1 AS a) DELETE FROM lab_results

-- name: truncate
-- scope: L2
TRUNCATE TABLE lab_results

-- name: grant
-- scope: L2
GRANT ALL ON patients TO PUBLIC

-- name: cte-delete-returning
-- scope: L2
WITH d AS (DELETE FROM lab_results RETURNING *) SELECT * FROM d

-- name: cte-update-returning
-- scope: L2
WITH u AS (UPDATE patients SET full_name = 'x' RETURNING id) SELECT * FROM u

-- name: cte-insert-returning
-- scope: L2
WITH i AS (INSERT INTO patients (id) VALUES ('L9') RETURNING id) SELECT * FROM i

-- name: cte-nested-delete
-- scope: L2
WITH a AS (SELECT 1), d AS (DELETE FROM lab_results RETURNING id) SELECT * FROM a

-- name: select-into-table
-- scope: L2
SELECT * INTO loot FROM patients

-- name: for-update
-- scope: L2
SELECT * FROM patients FOR UPDATE

-- name: for-share
-- scope: L2
SELECT * FROM lab_results FOR SHARE

-- name: for-update-skip-locked
-- scope: L2
SELECT * FROM patients FOR UPDATE SKIP LOCKED

-- name: for-no-key-update
-- scope: L2
SELECT * FROM patients FOR NO KEY UPDATE

-- name: pg-sleep
-- scope: L2
SELECT pg_sleep(10)

-- name: pg-sleep-for
-- scope: L2
SELECT pg_sleep_for('5 minutes')

-- name: pg-sleep-until
-- scope: L2
SELECT pg_sleep_until(now() + interval '1 hour')

-- name: pg-read-file
-- scope: L2
SELECT pg_read_file('/etc/passwd')

-- name: pg-read-binary-file
-- scope: L2
SELECT pg_read_binary_file('/etc/passwd')

-- name: pg-ls-dir
-- scope: L2
SELECT pg_ls_dir('.')

-- name: pg-stat-file
-- scope: L2
SELECT pg_stat_file('/etc/passwd')

-- name: lo-import
-- scope: L2
SELECT lo_import('/etc/passwd')

-- name: lo-export
-- scope: L2
SELECT lo_export(1234, '/tmp/x')

-- name: lo-export-import
-- scope: L2
SELECT lo_export(lo_import('/etc/passwd'), '/tmp/passwd')

-- name: lo-get
-- scope: L2
SELECT lo_get(1234)

-- name: dblink
-- scope: L2
SELECT * FROM dblink('host=evil', 'SELECT 1') AS t(a int)

-- name: dblink-in-select
-- scope: L2
SELECT dblink('host=evil', 'DELETE FROM patients')

-- name: dblink-exec
-- scope: L2
SELECT dblink_exec('host=evil', 'DROP TABLE patients')

-- name: dblink-connect
-- scope: L2
SELECT dblink_connect('x', 'host=evil')

-- name: set-config
-- scope: L2
SELECT set_config('statement_timeout', '0', false)

-- name: current-setting-secret
-- scope: L2
SELECT current_setting('ssl_key_file')

-- name: pg-terminate-backend
-- scope: L2
SELECT pg_terminate_backend(1)

-- name: pg-cancel-backend
-- scope: L2
SELECT pg_cancel_backend(1)

-- name: pg-reload-conf
-- scope: L2
SELECT pg_reload_conf()

-- name: pg-advisory-lock
-- scope: L2
SELECT pg_advisory_lock(1)

-- name: pg-try-advisory-lock
-- scope: L2
SELECT pg_try_advisory_lock(1)

-- name: pg-notify
-- scope: L2
SELECT pg_notify('c', 'x')

-- name: nextval
-- scope: L2
SELECT nextval('s')

-- name: query-to-xml
-- scope: L2
SELECT query_to_xml('SELECT * FROM pg_authid', true, true, '')

-- name: version
-- scope: L2
SELECT version()

-- name: generate-series-select
-- scope: L2
SELECT generate_series(1, 1000000000)

-- name: qualified-pg-sleep
-- scope: L2
SELECT pg_catalog.pg_sleep(1)

-- name: quoted-pg-sleep
-- scope: L2
SELECT "pg_sleep"(1)

-- name: upper-pg-sleep
-- scope: L2
SELECT PG_SLEEP(1)

-- name: pg-sleep-in-exists
-- scope: L2
SELECT * FROM patients WHERE EXISTS (SELECT pg_sleep(5))

-- name: pg-sleep-in-order-by
-- scope: L2
SELECT * FROM patients ORDER BY pg_sleep(1)

-- name: pg-sleep-in-cte
-- scope: L2
WITH s AS (SELECT pg_sleep(5) AS x) SELECT * FROM s

-- name: pg-sleep-in-case
-- scope: L2
SELECT CASE WHEN id = 'L2' THEN pg_sleep(5) END FROM patients

-- name: repeat-huge
-- scope: L2
SELECT repeat('x', 1000000000)

-- name: format-huge
-- scope: L2
SELECT format('%1000000000s', 'x')

-- name: copy-to-file
-- scope: L2
COPY patients TO '/tmp/loot.csv'

-- name: copy-from-program
-- scope: L2
COPY patients FROM PROGRAM 'id'

-- name: do-block
-- scope: L2
DO $$ BEGIN PERFORM pg_sleep(1); END $$

-- name: set
-- scope: L2
SET statement_timeout = 0

-- name: reset-all
-- scope: L2
RESET ALL

-- name: set-role
-- scope: L2
SET ROLE postgres

-- name: listen
-- scope: L2
LISTEN x

-- name: notify
-- scope: L2
NOTIFY x

-- name: lock-table
-- scope: L2
LOCK TABLE patients

-- name: vacuum
-- scope: L2
VACUUM

-- name: analyze
-- scope: L2
ANALYZE patients

-- name: explain-analyze-delete
-- scope: L2
EXPLAIN ANALYZE DELETE FROM patients

-- name: prepare
-- scope: L2
PREPARE p AS DELETE FROM patients

-- name: execute
-- scope: L2
EXECUTE p

-- name: discard
-- scope: L2
DISCARD ALL

-- name: call
-- scope: L2
CALL x()

-- name: merge
-- scope: L2
MERGE INTO patients p USING patients q ON p.id = q.id WHEN MATCHED THEN DELETE

-- name: show-all
-- scope: L2
SHOW ALL

-- name: create-function
-- scope: L2
CREATE FUNCTION f() RETURNS int AS 'SELECT 1' LANGUAGE sql

-- name: pg-authid
-- scope: L2
SELECT * FROM pg_authid

-- name: pg-shadow
-- scope: L2
SELECT usename, passwd FROM pg_shadow

-- name: pg-catalog-class
-- scope: L2
SELECT relname FROM pg_catalog.pg_class

-- name: information-schema
-- scope: L2
SELECT * FROM information_schema.tables

-- name: generate-series-from
-- scope: L2
SELECT * FROM generate_series(1, 10) g

-- name: pg-ls-dir-from
-- scope: L2
SELECT * FROM pg_ls_dir('.') f

-- name: rows-from
-- scope: L2
SELECT * FROM ROWS FROM (pg_sleep(1)) s

-- name: tablesample
-- scope: L2
SELECT * FROM patients TABLESAMPLE SYSTEM (10)

-- name: regclass-cast
-- scope: L2
SELECT 'pg_authid'::regclass

-- name: regproc-cast
-- scope: L2
SELECT 'pg_sleep'::regproc

-- name: ctid
-- scope: L2
SELECT ctid FROM patients

-- name: xmin
-- scope: L2
SELECT xmin, id FROM lab_results

-- name: whole-row
-- scope: L2
SELECT p FROM patients p

-- name: row-to-json
-- scope: L2
SELECT row_to_json(p) FROM patients p

-- name: to-jsonb-star
-- scope: L2
SELECT to_jsonb(p.*) FROM patients p

-- name: field-selection
-- scope: L2
SELECT (p).full_name FROM patients p

-- name: current-user
-- scope: L2
SELECT current_user

-- name: session-user
-- scope: L2
SELECT session_user

-- name: current-schema
-- scope: L2
SELECT current_schema

-- name: lateral-sleep
-- scope: L2
SELECT * FROM patients, LATERAL (SELECT pg_sleep(1)) s

-- name: operator-qualified
-- scope: L2
SELECT 1 OPERATOR(pg_catalog.+) 1

-- name: schema-qualified
-- scope: L2
SELECT * FROM public.clarify_secrets

-- name: catalog-qualified
-- scope: L2
SELECT * FROM test.public.patients

-- name: similar-to
-- scope: L2
SELECT * FROM patients WHERE full_name SIMILAR TO '(a|b)*c'

-- name: variadic
-- scope: L2
SELECT concat(VARIADIC ARRAY['a'])

-- name: set-local
-- scope: L2
SET LOCAL statement_timeout = 0

-- name: alter-system
-- scope: L2
ALTER SYSTEM SET log_statement = 'none'

-- name: security-definer-view
-- scope: L2
CREATE VIEW pwned WITH (security_barrier) AS SELECT 1

-- name: create-extension
-- scope: L2
CREATE EXTENSION dblink

-- name: unknown-table
-- scope: L2
SELECT * FROM clarify_secrets

-- name: unknown-column
-- scope: L2
SELECT password FROM patients

-- name: unknown-column-qualified
-- scope: L2
SELECT p.ssn FROM patients p

-- name: unknown-column-in-where
-- scope: L2
SELECT id FROM patients WHERE ssn = '1'

-- name: unknown-column-in-subquery
-- scope: L2
SELECT id FROM patients WHERE id IN (SELECT owner FROM lab_results)

-- name: unknown-column-through-cte
-- scope: L2
WITH x AS (SELECT id FROM patients) SELECT full_name FROM x

-- name: unknown-column-through-derived
-- scope: L2
SELECT t.gender FROM (SELECT id FROM patients) t

-- name: homoglyph-table
-- scope: L2
SELECT * FROM pаtients

-- name: homoglyph-function
-- scope: L2
SELECT рg_sleep(5)

-- name: fullwidth-select
-- scope: L2
ＳＥＬＥＣＴ * FROM patients

-- name: fullwidth-semicolon
-- scope: L2
SELECT * FROM patients；DELETE FROM patients

-- name: zero-width-delete
-- scope: L2
DEL‍ETE FROM patients

-- name: zero-width-table
-- scope: L2
SELECT * FROM "patients​"

-- name: line-separator-stacked
-- scope: L2
SELECT 1 ; DELETE FROM patients

-- name: scope-other-patient
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT * FROM lab_results WHERE patient_id = 'L1'

-- name: scope-not-equal
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT * FROM lab_results WHERE patient_id <> 'L2'

-- name: scope-in-list
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT * FROM lab_results WHERE patient_id IN ('L1', 'L3')

-- name: scope-or
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT * FROM lab_results WHERE patient_id = 'L2' OR patient_id = 'L3'

-- name: scope-not-in
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT * FROM lab_results WHERE patient_id NOT IN ('L2')

-- name: scope-like
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT * FROM lab_results WHERE patient_id LIKE 'L%'

-- name: scope-between
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT * FROM lab_results WHERE patient_id BETWEEN 'L1' AND 'L3'

-- name: scope-greater
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT * FROM lab_results WHERE patient_id > 'L2'

-- name: scope-reversed
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT * FROM lab_results WHERE 'L3' = patient_id

-- name: scope-negated
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT * FROM lab_results WHERE NOT (patient_id = 'L3')

-- name: scope-union
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT * FROM lab_results r WHERE r.patient_id = 'L2' UNION SELECT * FROM lab_results r2 WHERE r2.patient_id = 'L3'

-- name: scope-exists
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT * FROM lab_results WHERE EXISTS (SELECT 1 FROM lab_results x WHERE x.patient_id = 'L1')

-- name: scope-self-join
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT a.* FROM lab_results a JOIN lab_results b ON b.patient_id = 'L3'

-- name: scope-join-through-patients
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT r.* FROM patients p JOIN lab_results r ON r.patient_id = p.id WHERE p.id = 'L1'

-- name: scope-patients-other
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT full_name FROM patients WHERE id = 'L3'

-- name: scope-in-subquery
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT full_name FROM patients WHERE id IN (SELECT patient_id FROM lab_results WHERE patient_id = 'L1')

-- name: scope-cte-shadow
-- scope: L2
-- code: SCOPE_VIOLATION
WITH lab_results AS (SELECT * FROM lab_results) SELECT * FROM lab_results

-- name: scope-cte-shadow-patients
-- scope: L2
-- code: SCOPE_VIOLATION
WITH patients AS (SELECT 'L3' AS id) SELECT * FROM patients

-- name: scope-cte-other
-- scope: L2
-- code: SCOPE_VIOLATION
WITH x AS (SELECT * FROM lab_results WHERE patient_id = 'L1') SELECT * FROM x

-- name: scope-scalar-subquery
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT (SELECT full_name FROM patients WHERE id = 'L1') AS other

-- name: scope-bound-argument
-- scope: L2
-- args: L1
-- code: SCOPE_VIOLATION
SELECT * FROM lab_results WHERE patient_id = $1

-- name: scope-correlated
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT p.full_name FROM patients p WHERE EXISTS (SELECT 1 FROM lab_results r WHERE r.patient_id = p.id AND p.id = 'L1')

-- name: scope-qualified-postgres
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT * FROM public.lab_results

-- name: scope-derived-other
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT t.* FROM (SELECT * FROM lab_results WHERE patient_id = 'L1') t

-- name: scope-having
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT patient_id, count(*) FROM lab_results GROUP BY patient_id HAVING patient_id = 'L3'


-- name: cte-differs-in-case-from-catalog-view
-- scope: L2
WITH "PG_STATS"(tablename, attname, histogram_bounds) AS (SELECT 1, 2, 3) SELECT attname, histogram_bounds::text FROM pg_stats WHERE tablename = 'patients'

-- name: cte-differs-in-case-from-settings
-- scope: L2
WITH "PG_SETTINGS"(name, setting) AS (SELECT 'a', 'b') SELECT name, setting FROM pg_settings

-- name: aggregate-order-by-using-operator
-- scope: L2
SELECT string_agg(analyte, ',' ORDER BY analyte USING OPERATOR(pg_catalog.~<~)) FROM lab_results

-- name: window-order-by-using-operator
-- scope: L2
SELECT row_number() OVER (ORDER BY value USING >) FROM lab_results
