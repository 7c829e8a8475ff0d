-- Error-oracle corpus, MySQL/MariaDB: statements scoped to patient L2 that try to learn about
-- another patient's row from whether an error is raised. Result 15 is Ivan Petrov's (L1) HDL,
-- value 45; each payload raises an error only on a row it is aimed at. TestErrorOracle runs each
-- one the guard accepts on the full data and on a copy holding only L2's rows: the outcomes (rows,
-- or error number and message) must be identical.
-- Format: as the other corpus files ("-- name:", optional "-- args:"); every entry is scoped to L2.

-- name: double-overflow-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0

-- name: bigint-overflow-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND (CASE WHEN value > 40 THEN 9223372036854775807 ELSE 0 END) + 1 > 0

-- name: unsigned-overflow-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND CAST(0 AS UNSIGNED) - (CASE WHEN value > 40 THEN 1 ELSE 0 END) >= 0

-- name: pow-overflow-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND pow(10, CASE WHEN value > 40 THEN 400 ELSE 0 END) > 0

-- name: multiply-overflow-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND (CASE WHEN value > 40 THEN 1e308 ELSE 1 END) * 10 > 0

-- name: ln-domain-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND ln(CASE WHEN value > 40 THEN -1 ELSE 1 END) IS NULL

-- name: sqrt-domain-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND sqrt(CASE WHEN value > 40 THEN -1 ELSE 1 END) IS NULL

-- name: division-by-zero-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) IS NULL

-- name: mod-by-zero-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND mod(1, CASE WHEN value > 40 THEN 0 ELSE 1 END) IS NULL

-- name: cast-fails-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND CAST(CASE WHEN value > 40 THEN 'x' ELSE '1' END AS SIGNED) = 0

-- name: regexp-invalid-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND analyte REGEXP (CASE WHEN value > 40 THEN '(' ELSE 'H' END)

-- name: analyte-probe-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND exp(CASE WHEN analyte LIKE 'HDL%' THEN 1000 ELSE 0 END) > 0

-- name: date-probe-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND exp(CASE WHEN test_date < '2024-01-01' THEN 1000 ELSE 0 END) > 0

-- name: bound-key
-- args: #15
SELECT count(*) FROM lab_results WHERE id = ? AND exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0

-- name: in-list-key
SELECT count(*) FROM lab_results WHERE id IN (15) AND exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0

-- name: between-key
SELECT count(*) FROM lab_results WHERE id BETWEEN 15 AND 15 AND exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0

-- name: key-in-case
SELECT count(*) FROM lab_results WHERE exp(CASE WHEN id = 15 AND value > 40 THEN 1000 ELSE 0 END) > 0

-- name: payload-first
SELECT count(*) FROM lab_results WHERE exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0 AND id = 15

-- name: select-list
SELECT exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) FROM lab_results WHERE id = 15

-- name: order-by
SELECT id FROM lab_results WHERE id = 15 ORDER BY exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END)

-- name: group-by-having
SELECT analyte FROM lab_results WHERE id = 15 GROUP BY analyte HAVING max(exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END)) > 0

-- name: having-only
SELECT analyte, count(*) FROM lab_results GROUP BY analyte HAVING max(exp(CASE WHEN id = 15 AND value > 40 THEN 1000 ELSE 0 END)) > 0

-- name: aggregate
SELECT sum(exp(CASE WHEN id = 15 AND value > 40 THEN 1000 ELSE 0 END)) FROM lab_results

-- name: window
SELECT id, sum(exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END)) OVER () FROM lab_results WHERE id = 15

-- name: limit
SELECT id FROM lab_results WHERE id = 15 AND exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0 LIMIT 1

-- name: join-on
SELECT count(*) FROM patients p JOIN lab_results r ON r.patient_id = p.id AND r.id = 15 AND exp(CASE WHEN r.value > 40 THEN 1000 ELSE 0 END) > 0

-- name: join-where
SELECT count(*) FROM patients p JOIN lab_results r ON r.patient_id = p.id WHERE r.id = 15 AND exp(CASE WHEN r.value > 40 THEN 1000 ELSE 0 END) > 0

-- name: left-join
SELECT count(*) FROM patients p LEFT JOIN lab_results r ON r.id = 15 WHERE exp(CASE WHEN r.value > 40 THEN 1000 ELSE 0 END) > 0

-- name: self-join
SELECT count(*) FROM lab_results a JOIN lab_results b ON b.id = 15 WHERE exp(CASE WHEN b.value > 40 THEN 1000 ELSE 0 END) > 0

-- name: scalar-subquery
SELECT (SELECT count(*) FROM lab_results WHERE id = 15 AND exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0) AS n

-- name: in-subquery
SELECT count(*) FROM patients WHERE id IN (SELECT patient_id FROM lab_results WHERE id = 15 AND exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0)

-- name: exists-correlated
SELECT count(*) FROM patients p WHERE EXISTS (SELECT 1 FROM lab_results r WHERE r.id = 15 AND exp(CASE WHEN r.value > 40 THEN 1000 ELSE 0 END) > 0)

-- name: derived-table
SELECT count(*) FROM (SELECT * FROM lab_results) x WHERE x.id = 15 AND exp(CASE WHEN x.value > 40 THEN 1000 ELSE 0 END) > 0

-- name: derived-renamed
SELECT count(*) FROM (SELECT id AS k, value AS v FROM lab_results) x WHERE x.k = 15 AND exp(CASE WHEN x.v > 40 THEN 1000 ELSE 0 END) > 0

-- name: cte
WITH c AS (SELECT * FROM lab_results WHERE id = 15) SELECT count(*) FROM c WHERE exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0

-- name: cte-twice
WITH c AS (SELECT * FROM lab_results) SELECT count(*) FROM c a JOIN c b ON a.id = b.id WHERE a.id = 15 AND exp(CASE WHEN b.value > 40 THEN 1000 ELSE 0 END) > 0

-- name: union-branch
SELECT 1 FROM patients UNION ALL SELECT count(*) FROM lab_results WHERE id = 15 AND exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0

-- name: ifnull-wrapped
SELECT count(*) FROM lab_results WHERE id = 15 AND IFNULL(NULL, exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END)) > 0

-- name: patient-probe
SELECT count(*) FROM patients WHERE full_name = 'Ivan Petrov' AND exp(CASE WHEN date_of_birth < '1990-01-01' THEN 1000 ELSE 0 END) > 0

-- name: patient-probe-in-case
SELECT count(*) FROM patients WHERE exp(CASE WHEN full_name = 'Ivan Petrov' AND date_of_birth < '1990-01-01' THEN 1000 ELSE 0 END) > 0

-- name: row-count
SELECT count(*) FROM lab_results WHERE id = 15

-- Planted rows 9001 (unit '(') and 9002 (unit a lone backslash) belong to L1.
-- name: regex-from-data-pk
SELECT count(*) FROM lab_results WHERE id = 9001 AND 'x' REGEXP unit

-- name: regex-from-data-scan
SELECT count(*) FROM lab_results WHERE 'x' REGEXP unit

-- name: regex-from-data-join
SELECT count(*) FROM patients p JOIN lab_results r ON r.patient_id = p.id WHERE r.id = 9001 AND 'x' REGEXP r.unit

-- name: like-escape-from-data-pk
SELECT count(*) FROM lab_results WHERE id = 9002 AND 'x' LIKE unit

-- name: or-branches-by-key
SELECT count(*) FROM lab_results WHERE (id = 15 AND exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0) OR (id = 16 AND value > 0)

-- name: or-branches-regex-from-data
SELECT count(*) FROM lab_results WHERE (id = 9001 AND 'x' REGEXP unit) OR (id = 29 AND value > 0)
