-- Hostile mysql statements: every one must be rejected (guard_test.go).
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

-- name: stacked-hash-comment
-- scope: L2
SELECT 1 # comment
; DELETE FROM patients

-- name: stacked-versioned-comment
-- scope: L2
SELECT 1 /*!50000 ; DELETE FROM patients */

-- name: versioned-comment-sleep
-- scope: L2
SELECT 1 /*!50000 , SLEEP(5) */

-- name: backslash-quote-stacked
-- scope: L2
SELECT '\\'; DELETE FROM patients; -- '

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

-- name: with-delete
-- scope: L2
WITH x AS (SELECT 1 AS a) DELETE FROM lab_results

-- name: replace-into
-- scope: L2
REPLACE INTO patients (id) VALUES ('L9')

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

-- name: select-into-outfile
-- scope: L2
SELECT * FROM patients INTO OUTFILE '/tmp/loot.txt'

-- name: select-into-dumpfile
-- scope: L2
SELECT full_name FROM patients LIMIT 1 INTO DUMPFILE '/tmp/loot.bin'

-- name: select-into-variable
-- scope: L2
SELECT full_name INTO @x FROM patients LIMIT 1

-- name: for-update
-- scope: L2
SELECT * FROM patients FOR UPDATE

-- name: for-share
-- scope: L2
SELECT * FROM lab_results FOR SHARE

-- name: for-update-skip-locked
-- scope: L2
SELECT * FROM patients FOR UPDATE SKIP LOCKED

-- name: lock-in-share-mode
-- scope: L2
SELECT * FROM patients LOCK IN SHARE MODE

-- name: sleep
-- scope: L2
SELECT SLEEP(10)

-- name: benchmark
-- scope: L2
SELECT BENCHMARK(100000000, MD5('x'))

-- name: get-lock
-- scope: L2
SELECT GET_LOCK('x', 10)

-- name: release-lock
-- scope: L2
SELECT RELEASE_LOCK('x')

-- name: is-free-lock
-- scope: L2
SELECT IS_FREE_LOCK('x')

-- name: load-file
-- scope: L2
SELECT LOAD_FILE('/etc/passwd')

-- name: master-pos-wait
-- scope: L2
SELECT MASTER_POS_WAIT('x', 1)

-- name: user
-- scope: L2
SELECT USER()

-- name: current-user
-- scope: L2
SELECT CURRENT_USER()

-- name: version
-- scope: L2
SELECT VERSION()

-- name: connection-id
-- scope: L2
SELECT CONNECTION_ID()

-- name: updatexml
-- scope: L2
SELECT UPDATEXML(1, CONCAT(0x7e, (SELECT full_name FROM patients LIMIT 1)), 1)

-- name: extractvalue
-- scope: L2
SELECT EXTRACTVALUE(1, CONCAT(0x7e, (SELECT full_name FROM patients LIMIT 1)))

-- name: sys-exec
-- scope: L2
SELECT sys_exec('id')

-- name: user-variable
-- scope: L2
SELECT @a := 1

-- name: system-variable
-- scope: L2
SELECT @@version

-- name: global-variable
-- scope: L2
SELECT @@global.secure_file_priv

-- name: set-global
-- scope: L2
SET GLOBAL general_log = 1

-- name: set-variable
-- scope: L2
SET @x = 1

-- name: load-data
-- scope: L2
LOAD DATA INFILE '/etc/passwd' INTO TABLE patients

-- name: handler
-- scope: L2
HANDLER patients OPEN

-- name: kill
-- scope: L2
KILL 1

-- name: flush
-- scope: L2
FLUSH PRIVILEGES

-- name: show-grants
-- scope: L2
SHOW GRANTS

-- name: show-databases
-- scope: L2
SHOW DATABASES

-- name: describe
-- scope: L2
DESCRIBE patients

-- name: use
-- scope: L2
USE mysql

-- name: mysql-user
-- scope: L2
SELECT user, authentication_string FROM mysql.user

-- name: information-schema
-- scope: L2
SELECT * FROM information_schema.tables

-- name: performance-schema
-- scope: L2
SELECT * FROM performance_schema.threads

-- name: partition
-- scope: L2
SELECT * FROM patients PARTITION (p0)

-- name: use-index
-- scope: L2
SELECT * FROM patients USE INDEX (PRIMARY)

-- name: force-index
-- scope: L2
SELECT * FROM lab_results FORCE INDEX (x)

-- name: json-table
-- scope: L2
SELECT * FROM JSON_TABLE('[1]', '$[*]' COLUMNS (a INT PATH '$')) j

-- name: natural-join
-- scope: L2
SELECT * FROM patients p NATURAL JOIN lab_results

-- name: insert-ignore
-- scope: L2
INSERT IGNORE INTO patients (id) VALUES ('L9')

-- name: call
-- scope: L2
CALL p()

-- name: do-sleep
-- scope: L2
DO SLEEP(5)

-- name: prepare
-- scope: L2
PREPARE s FROM 'DELETE FROM patients'

-- name: execute
-- scope: L2
EXECUTE s

-- name: lock-tables
-- scope: L2
LOCK TABLES patients WRITE

-- name: unlock-tables
-- scope: L2
UNLOCK TABLES

-- name: xa-start
-- scope: L2
XA START 'x'

-- name: calc-found-rows
-- scope: L2
SELECT SQL_CALC_FOUND_ROWS * FROM patients

-- name: found-rows
-- scope: L2
SELECT FOUND_ROWS()

-- name: db-qualified
-- scope: L2
SELECT * FROM mysql.db

-- name: recursive-cte
-- scope: L2
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT * FROM c

-- name: name-const
-- scope: L2
SELECT NAME_CONST('x', 1)

-- name: union-mysql-user
-- scope: L2
SELECT id, full_name FROM patients UNION SELECT user, authentication_string FROM mysql.user

-- name: convert-using
-- scope: L2
SELECT CONVERT(full_name USING latin1) FROM patients

-- name: match-against
-- scope: L2
SELECT * FROM patients WHERE MATCH(full_name) AGAINST ('x')

-- name: sleep-in-where
-- scope: L2
SELECT * FROM patients WHERE SLEEP(1) = 0

-- name: benchmark-in-subquery
-- scope: L2
SELECT * FROM patients WHERE id = (SELECT BENCHMARK(1000000, SHA1('x')))

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

-- name: homoglyph-sleep
-- scope: L2
SELECT SLЕEP(5)

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

-- name: scope-qualified-mysql
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT * FROM test.lab_results

-- name: scope-derived-other
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT t.* FROM (SELECT * FROM lab_results WHERE patient_id = 'L1') t

-- name: scope-having
-- scope: L2
-- code: SCOPE_VIOLATION
SELECT patient_id, count(*) FROM lab_results GROUP BY patient_id HAVING patient_id = 'L3'


-- name: parser-panic-empty-system-variable
-- scope: L2
SELECT @@global.

-- name: backquoted-upper-dual-is-a-table
-- scope: L2
SELECT count(*) FROM `DUAL`

-- name: cte-differs-in-case-from-table
-- scope: L2
WITH CLARIFY_META AS (SELECT 1 AS x) SELECT * FROM clarify_meta
