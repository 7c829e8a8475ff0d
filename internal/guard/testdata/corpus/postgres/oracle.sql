-- Error-oracle corpus, PostgreSQL: statements scoped to patient L2 that try to learn about
-- another patient's row from whether an error is raised. Result 15 is Ivan Petrov's (L1) HDL,
-- value 45; each payload raises an error only on a row it is aimed at. TestErrorOracle runs each
-- one the guard accepts on the full data and on a copy holding only L2's rows: the outcomes (rows,
-- or SQLSTATE and message) must be identical.
-- Format: as the other corpus files ("-- name:", optional "-- args:"); every entry is scoped to L2.

-- name: double-overflow-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0

-- name: integer-overflow-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND (CASE WHEN value > 40 THEN 2147483647 ELSE 0 END) + 1 > 0

-- name: bigint-overflow-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND (CASE WHEN value > 40 THEN 9223372036854775807 ELSE 0 END)::bigint * 2 > 0

-- name: cast-float-to-int-overflow-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND (value * CASE WHEN value > 40 THEN 1e300 ELSE 1 END)::int > 0

-- name: power-overflow-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND power(10, CASE WHEN value > 40 THEN 400 ELSE 0 END) > 0

-- name: division-by-zero-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) > 0

-- name: mod-by-zero-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND mod(1, CASE WHEN value > 40 THEN 0 ELSE 1 END) >= 0

-- name: ln-of-zero-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND ln(CASE WHEN value > 40 THEN 0 ELSE 1 END) >= 0

-- name: log-of-negative-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND log(CASE WHEN value > 40 THEN -1 ELSE 1 END) >= 0

-- name: sqrt-of-negative-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND sqrt(CASE WHEN value > 40 THEN -1 ELSE 1 END) >= 0

-- name: power-domain-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND power(0, CASE WHEN value > 40 THEN -1 ELSE 1 END) >= 0

-- name: cast-text-to-int-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND (CASE WHEN value > 40 THEN 'x' ELSE '1' END)::int > 0

-- name: cast-column-to-int-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND (CASE WHEN value > 40 THEN analyte ELSE '1' END)::int > 0

-- name: cast-to-boolean-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND (CASE WHEN value > 40 THEN unit ELSE 'true' END)::boolean

-- name: cast-to-date-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND (CASE WHEN value > 40 THEN '2024-13-01' ELSE '2024-01-01' END)::date IS NOT NULL

-- name: cast-to-json-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND (CASE WHEN value > 40 THEN '{' ELSE '{}' END)::json IS NOT NULL

-- name: make-date-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND make_date(2024, CASE WHEN value > 40 THEN 13 ELSE 1 END, 1) IS NOT NULL

-- name: regex-invalid-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND analyte ~ (CASE WHEN value > 40 THEN '(' ELSE 'H' END)

-- name: regexp-match-invalid-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND regexp_match(analyte, CASE WHEN value > 40 THEN '(' ELSE 'H' END) IS NOT NULL

-- name: numeric-overflow-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND (value::numeric * CASE WHEN value > 40 THEN 1e1000 ELSE 1 END)::numeric(10, 2) > 0

-- name: analyte-probe-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND exp(CASE WHEN analyte LIKE 'HDL%' THEN 1000 ELSE 0 END) > 0

-- name: date-probe-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND 1 / (CASE WHEN test_date < '2024-01-01' THEN 0 ELSE 1 END) > 0

-- name: bound-key
-- args: #15
SELECT count(*) FROM lab_results WHERE id = $1 AND exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0

-- name: in-list-key
SELECT count(*) FROM lab_results WHERE id IN (15) AND exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0

-- name: between-key
SELECT count(*) FROM lab_results WHERE id BETWEEN 15 AND 15 AND exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0

-- name: key-in-case
SELECT count(*) FROM lab_results WHERE CASE WHEN id = 15 THEN exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0 ELSE 1 = 0 END

-- name: payload-first
SELECT count(*) FROM lab_results WHERE exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0 AND id = 15

-- name: select-list
SELECT CASE WHEN exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0 THEN 1 ELSE 0 END FROM lab_results WHERE id = 15

-- name: order-by
SELECT id FROM lab_results WHERE id = 15 ORDER BY CASE WHEN exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0 THEN 1 ELSE 0 END

-- name: group-by-having
SELECT analyte FROM lab_results WHERE id = 15 GROUP BY analyte HAVING max(CASE WHEN exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0 THEN 1 ELSE 0 END) >= 0

-- name: having-only
SELECT analyte, count(*) FROM lab_results GROUP BY analyte HAVING max(CASE WHEN id = 15 AND exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0 THEN 1 ELSE 0 END) >= 0

-- name: aggregate
SELECT sum(CASE WHEN id = 15 AND exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0 THEN 1 ELSE 0 END) FROM lab_results

-- name: window
SELECT id, sum(CASE WHEN exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0 THEN 1 ELSE 0 END) OVER () FROM lab_results WHERE id = 15

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
SELECT count(*) FROM (SELECT id AS k, value, analyte, unit, test_date FROM lab_results) x WHERE x.k = 15 AND exp(CASE WHEN x.value > 40 THEN 1000 ELSE 0 END) > 0

-- name: cte
WITH c AS (SELECT * FROM lab_results WHERE id = 15) SELECT count(*) FROM c WHERE exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0

-- name: cte-twice
WITH c AS (SELECT * FROM lab_results) SELECT count(*) FROM c a JOIN c b ON a.id = b.id WHERE a.id = 15 AND exp(CASE WHEN b.value > 40 THEN 1000 ELSE 0 END) > 0

-- name: union-branch
SELECT 1 FROM patients UNION ALL SELECT count(*) FROM lab_results WHERE id = 15 AND exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0

-- name: coalesce-wrapped
SELECT count(*) FROM lab_results WHERE id = 15 AND coalesce(NULL, exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0)

-- name: patient-probe
SELECT count(*) FROM patients WHERE full_name = 'Ivan Petrov' AND 1 / (CASE WHEN date_of_birth < '1990-01-01' THEN 0 ELSE 1 END) > 0

-- name: row-count
SELECT count(*) FROM lab_results WHERE id = 15

-- name: bound-key-2
-- args: #15
SELECT count(*) FROM lab_results WHERE id = $1 AND 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) > 0

-- name: in-list-key-2
SELECT count(*) FROM lab_results WHERE id IN (15) AND 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) > 0

-- name: between-key-2
SELECT count(*) FROM lab_results WHERE id BETWEEN 15 AND 15 AND 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) > 0

-- name: key-in-case-2
SELECT count(*) FROM lab_results WHERE CASE WHEN id = 15 THEN 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) > 0 ELSE 1 = 0 END

-- name: payload-first-2
SELECT count(*) FROM lab_results WHERE 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) > 0 AND id = 15

-- name: select-list-2
SELECT CASE WHEN 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) > 0 THEN 1 ELSE 0 END FROM lab_results WHERE id = 15

-- name: order-by-2
SELECT id FROM lab_results WHERE id = 15 ORDER BY CASE WHEN 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) > 0 THEN 1 ELSE 0 END

-- name: group-by-having-2
SELECT analyte FROM lab_results WHERE id = 15 GROUP BY analyte HAVING max(CASE WHEN 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) > 0 THEN 1 ELSE 0 END) >= 0

-- name: having-only-2
SELECT analyte, count(*) FROM lab_results GROUP BY analyte HAVING max(CASE WHEN id = 15 AND 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) > 0 THEN 1 ELSE 0 END) >= 0

-- name: aggregate-2
SELECT sum(CASE WHEN id = 15 AND 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) > 0 THEN 1 ELSE 0 END) FROM lab_results

-- name: window-2
SELECT id, sum(CASE WHEN 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) > 0 THEN 1 ELSE 0 END) OVER () FROM lab_results WHERE id = 15

-- name: limit-2
SELECT id FROM lab_results WHERE id = 15 AND 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) > 0 LIMIT 1

-- name: join-on-2
SELECT count(*) FROM patients p JOIN lab_results r ON r.patient_id = p.id AND r.id = 15 AND 1 / (CASE WHEN r.value > 40 THEN 0 ELSE 1 END) > 0

-- name: join-where-2
SELECT count(*) FROM patients p JOIN lab_results r ON r.patient_id = p.id WHERE r.id = 15 AND 1 / (CASE WHEN r.value > 40 THEN 0 ELSE 1 END) > 0

-- name: left-join-2
SELECT count(*) FROM patients p LEFT JOIN lab_results r ON r.id = 15 WHERE 1 / (CASE WHEN r.value > 40 THEN 0 ELSE 1 END) > 0

-- name: self-join-2
SELECT count(*) FROM lab_results a JOIN lab_results b ON b.id = 15 WHERE 1 / (CASE WHEN b.value > 40 THEN 0 ELSE 1 END) > 0

-- name: scalar-subquery-2
SELECT (SELECT count(*) FROM lab_results WHERE id = 15 AND 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) > 0) AS n

-- name: in-subquery-2
SELECT count(*) FROM patients WHERE id IN (SELECT patient_id FROM lab_results WHERE id = 15 AND 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) > 0)

-- name: exists-correlated-2
SELECT count(*) FROM patients p WHERE EXISTS (SELECT 1 FROM lab_results r WHERE r.id = 15 AND 1 / (CASE WHEN r.value > 40 THEN 0 ELSE 1 END) > 0)

-- name: derived-table-2
SELECT count(*) FROM (SELECT * FROM lab_results) x WHERE x.id = 15 AND 1 / (CASE WHEN x.value > 40 THEN 0 ELSE 1 END) > 0

-- Planted rows 9001 (unit '(') and 9002 (unit a lone backslash) belong to L1. A single-function
-- condition costs as little as the scope filter, and PostgreSQL evaluates the scope filter (an
-- equivalence-class qual) after it: the regular expression compiled from row 9001's unit fails.
-- name: regex-from-data-pk
SELECT count(*) FROM lab_results WHERE id = 9001 AND 'x' ~ unit

-- name: regex-from-data-scan
SELECT count(*) FROM lab_results WHERE 'x' ~ unit

-- name: like-escape-from-data-pk
SELECT count(*) FROM lab_results WHERE id = 9002 AND 'x' LIKE unit

-- name: regex-from-data-join
SELECT count(*) FROM patients p JOIN lab_results r ON r.patient_id = p.id WHERE r.id = 9001 AND 'x' ~ r.unit

-- name: regex-from-data-cte
WITH c AS (SELECT unit FROM lab_results WHERE id = 9001) SELECT count(*) FROM c WHERE 'x' ~ unit

-- name: regex-from-data-subquery
SELECT (SELECT count(*) FROM lab_results WHERE id = 9001 AND 'x' ~ unit) AS n

-- name: or-branches-by-key
SELECT count(*) FROM lab_results WHERE (id = 15 AND exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0) OR (id = 16 AND value > 0)

-- name: or-branches-regex-from-data
SELECT count(*) FROM lab_results WHERE (id = 9001 AND 'x' ~ unit) OR (id = 29 AND value > 0)
