-- postgres statements that try to leave the scope but are accepted: the projections keep them
-- inside it, which the scope tests prove by running them.
-- Format: "-- name:" starts an entry; "-- model:", "-- scope:" (a value, none or both), "-- args:"
-- (| separated, #N for integers) and "-- code:" may follow; the statement runs to the next entry.

-- name: or-true
-- scope: L2
SELECT * FROM lab_results WHERE patient_id = 'L2' OR 1 = 1

-- name: is-not-null
-- scope: L2
SELECT * FROM lab_results WHERE patient_id IS NOT NULL

-- name: negated-own
-- scope: L2
SELECT * FROM lab_results WHERE NOT (patient_id = 'L2')

-- name: alias-cte
-- scope: L2
WITH x AS (SELECT patient_id AS p, value FROM lab_results) SELECT * FROM x WHERE p <> 'L2'

-- name: union-all-unfiltered
-- scope: L2
SELECT * FROM lab_results WHERE patient_id = 'L2' UNION ALL SELECT * FROM lab_results

-- name: correlated-other
-- scope: L2
SELECT * FROM lab_results WHERE EXISTS (SELECT 1 FROM patients p WHERE p.id <> lab_results.patient_id)

-- name: count-all
-- scope: L2
SELECT count(*) FROM lab_results

-- name: distinct-patients
-- scope: L2
SELECT DISTINCT patient_id FROM lab_results

-- name: function-on-key
-- scope: L2
SELECT * FROM lab_results WHERE lower(patient_id) = 'l1'

-- name: concat-on-key
-- scope: L2
SELECT * FROM lab_results WHERE patient_id || '' = 'L1'

-- name: cross-join
-- scope: L2
SELECT p.id, r.patient_id FROM patients p, lab_results r

-- name: left-join-true
-- scope: L2
SELECT p.full_name, r.value FROM lab_results r LEFT JOIN patients p ON 1 = 1

-- name: null-or-true
-- scope: L2
SELECT * FROM lab_results WHERE patient_id IS NULL OR 1 = 1

-- name: case-other
-- scope: L2
SELECT CASE WHEN patient_id = 'L2' THEN 'me' ELSE 'someone else' END AS who FROM lab_results

-- name: all-patients
-- scope: L2
SELECT * FROM patients

-- name: max-over-all
-- scope: L2
SELECT max(value) FROM lab_results

-- name: group-by-patient
-- scope: L2
SELECT patient_id, count(*) FROM lab_results GROUP BY patient_id

-- name: self-join-analyte
-- scope: L2
SELECT a.patient_id, b.patient_id FROM lab_results a JOIN lab_results b ON a.analyte = b.analyte

-- name: in-all-patients
-- scope: L2
SELECT * FROM lab_results WHERE patient_id IN (SELECT id FROM patients)

-- name: subquery-count
-- scope: L2
SELECT (SELECT count(*) FROM patients) AS n

-- name: window-over-all
-- scope: L2
SELECT patient_id, count(*) OVER () AS n FROM lab_results

-- name: derived-all
-- scope: L2
SELECT t.patient_id FROM (SELECT * FROM lab_results) t

-- name: cte-all
-- scope: L2
WITH t AS (SELECT * FROM patients) SELECT id FROM t

-- name: huge-limit
-- scope: L2
SELECT * FROM lab_results LIMIT 100000000

-- name: not-exists-other
-- scope: L2
SELECT * FROM patients p WHERE NOT EXISTS (SELECT 1 FROM lab_results r WHERE r.patient_id = p.id AND r.value < 0)

-- name: substr-key
-- scope: L2
SELECT * FROM lab_results WHERE substr(patient_id, 1, 1) = 'L'

