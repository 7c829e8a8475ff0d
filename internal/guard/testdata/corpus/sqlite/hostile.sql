-- Hostile sqlite statements: every one must be rejected (guard_test.go).
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

-- name: stacked-nested-comment-sqlite
-- scope: L2
SELECT 1 /* /* */ ; DELETE FROM patients; -- */

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

-- name: replace-into
-- scope: L2
REPLACE INTO patients (id) VALUES ('L9')

-- name: insert-or-replace
-- scope: L2
INSERT OR REPLACE INTO patients (id) VALUES ('L1')

-- name: cte-delete-returning
-- scope: L2
WITH d AS (DELETE FROM lab_results RETURNING *) SELECT * FROM d

-- name: cte-update-returning
-- scope: L2
WITH u AS (UPDATE patients SET full_name = 'x' RETURNING id) SELECT * FROM u

-- name: cte-insert-returning
-- scope: L2
WITH i AS (INSERT INTO patients (id) VALUES ('L9') RETURNING id) SELECT * FROM i

-- name: select-into-table
-- scope: L2
SELECT * INTO loot FROM patients

-- name: for-update
-- scope: L2
SELECT * FROM patients FOR UPDATE

-- name: load-extension
-- scope: L2
SELECT load_extension('/tmp/evil.so')

-- name: readfile
-- scope: L2
SELECT readfile('/etc/passwd')

-- name: writefile
-- scope: L2
SELECT writefile('/tmp/x', 'y')

-- name: fts3-tokenizer
-- scope: L2
SELECT fts3_tokenizer('simple')

-- name: zeroblob
-- scope: L2
SELECT zeroblob(1000000000)

-- name: randomblob
-- scope: L2
SELECT randomblob(1000000000)

-- name: sqlite-version
-- scope: L2
SELECT sqlite_version()

-- name: edit
-- scope: L2
SELECT edit('x')

-- name: changes
-- scope: L2
SELECT changes()

-- name: last-insert-rowid
-- scope: L2
SELECT last_insert_rowid()

-- name: pragma-writable-schema
-- scope: L2
PRAGMA writable_schema = 1

-- name: pragma-table-info
-- scope: L2
PRAGMA table_info(patients)

-- name: pragma-query-only-off
-- scope: L2
PRAGMA query_only = 0

-- name: pragma-function
-- scope: L2
SELECT * FROM pragma_table_info('patients')

-- name: pragma-database-list
-- scope: L2
SELECT * FROM pragma_database_list

-- name: attach
-- scope: L2
ATTACH DATABASE '/tmp/x.db' AS x

-- name: detach
-- scope: L2
DETACH DATABASE x

-- name: vacuum-into
-- scope: L2
VACUUM INTO '/tmp/copy.db'

-- name: vacuum
-- scope: L2
VACUUM

-- name: reindex
-- scope: L2
REINDEX

-- name: analyze
-- scope: L2
ANALYZE

-- name: sqlite-master
-- scope: L2
SELECT * FROM sqlite_master

-- name: sqlite-schema
-- scope: L2
SELECT sql FROM sqlite_schema

-- name: sqlite-temp-master
-- scope: L2
SELECT * FROM sqlite_temp_master

-- name: temp-qualified
-- scope: L2
SELECT * FROM temp.clarify_secrets

-- name: json-each
-- scope: L2
SELECT * FROM json_each('[1]')

-- name: generate-series
-- scope: L2
SELECT * FROM generate_series(1, 10)

-- name: rowid
-- scope: L2
SELECT rowid FROM patients

-- name: oid
-- scope: L2
SELECT _rowid_, oid FROM lab_results

-- name: indexed-by
-- scope: L2
SELECT * FROM lab_results INDEXED BY sqlite_autoindex_lab_results_1

-- name: in-table
-- scope: L2
SELECT 1 FROM patients WHERE id IN lab_results

-- name: recursive-cte
-- scope: L2
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT * FROM c

-- name: create-trigger
-- scope: L2
CREATE TRIGGER t AFTER INSERT ON patients BEGIN DELETE FROM lab_results; END

-- name: create-virtual-table
-- scope: L2
CREATE VIRTUAL TABLE v USING fts5(x)

-- name: raise
-- scope: L2
SELECT RAISE(ABORT, 'x')

-- name: limit-comma
-- scope: L2
SELECT * FROM patients LIMIT 1, 2

-- name: numbered-param
-- scope: L2
SELECT * FROM patients WHERE id = ?1

-- name: named-param
-- scope: L2
SELECT * FROM patients WHERE id = :id

-- name: upsert
-- scope: L2
INSERT INTO patients (id) VALUES ('L1') ON CONFLICT DO NOTHING

-- name: glob-collation
-- scope: L2
SELECT * FROM patients ORDER BY full_name COLLATE evil

-- name: regexp
-- scope: L2
SELECT * FROM patients WHERE full_name REGEXP 'a'

-- name: match
-- scope: L2
SELECT * FROM patients WHERE full_name MATCH 'a'

-- name: escape
-- scope: L2
SELECT * FROM patients WHERE full_name LIKE 'a!%' ESCAPE '!'

-- name: current-timestamp-ident
-- scope: L2
SELECT CURRENT_TIMESTAMP FROM patients

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

-- name: homoglyph-load-extension
-- scope: L2
SELECT loаd_extension('x')

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
SELECT * FROM lab_results WHERE patient_id = ?

-- name: scope-correlated
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT p.full_name FROM patients p WHERE EXISTS (SELECT 1 FROM lab_results r WHERE r.patient_id = p.id AND p.id = 'L1')

-- name: scope-qualified-sqlite
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT * FROM main.lab_results

-- name: scope-indexed-by
-- scope: L2
SELECT * FROM lab_results INDEXED BY idx

-- name: scope-derived-other
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT t.* FROM (SELECT * FROM lab_results WHERE patient_id = 'L1') t

-- name: scope-having
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT patient_id, count(*) FROM lab_results GROUP BY patient_id HAVING patient_id = 'L3'


-- name: printer-minus-minus-smuggles-a-statement
-- scope: L2
SELECT - -1 AS x, '
 1 AS a; SELECT patient_id, value FROM lab_results WHERE patient_id = char(76, 51) LIMIT 3 --' AS y FROM lab_results

-- name: printer-minus-minus-in-quoted-alias
-- scope: L2
SELECT - -1 AS "a
 1 AS b; SELECT id, full_name FROM patients --" FROM lab_results
