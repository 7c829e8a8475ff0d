-- Error-oracle corpus, SQLite: statements scoped to patient L2 that try to learn about
-- another patient's row from whether an error is raised. Result 15 is Ivan Petrov's (L1) HDL,
-- value 45; each payload raises an error only on a row it is aimed at. TestErrorOracle runs each
-- one the guard accepts on the full data and on a copy holding only L2's rows: the outcomes (rows,
-- or error code and message) must be identical.
-- Format: as the other corpus files ("-- name:", optional "-- args:"); every entry is scoped to L2.

-- name: abs-min-int-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND abs(CASE WHEN value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0

-- name: like-too-complex-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND analyte LIKE (CASE WHEN value > 40 THEN '%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_%_' ELSE 'H%' END)

-- name: glob-too-complex-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND analyte GLOB (CASE WHEN value > 40 THEN '*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?' ELSE 'H*' END)

-- name: exp-overflow-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND exp(CASE WHEN value > 40 THEN 1000 ELSE 0 END) > 0

-- name: integer-overflow-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND (CASE WHEN value > 40 THEN 9223372036854775807 ELSE 0 END) + 1 > 0

-- name: division-by-zero-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) IS NULL

-- name: ln-of-zero-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND ln(CASE WHEN value > 40 THEN 0 ELSE 1 END) IS NULL

-- name: sqrt-of-negative-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND sqrt(CASE WHEN value > 40 THEN -1 ELSE 1 END) IS NULL

-- name: json-malformed-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND json_extract(CASE WHEN value > 40 THEN '{' ELSE '{}' END, '$.a') IS NULL

-- name: analyte-probe-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND abs(CASE WHEN analyte LIKE 'HDL%' THEN -9223372036854775808 ELSE 0 END) >= 0

-- name: date-probe-pk
SELECT count(*) FROM lab_results WHERE id = 15 AND abs(CASE WHEN test_date < '2024-01-01' THEN -9223372036854775808 ELSE 0 END) >= 0

-- name: bound-key
-- args: #15
SELECT count(*) FROM lab_results WHERE id = ? AND abs(CASE WHEN value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0

-- name: in-list-key
SELECT count(*) FROM lab_results WHERE id IN (15) AND abs(CASE WHEN value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0

-- name: between-key
SELECT count(*) FROM lab_results WHERE id BETWEEN 15 AND 15 AND abs(CASE WHEN value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0

-- name: key-in-case
SELECT count(*) FROM lab_results WHERE CASE WHEN id = 15 THEN abs(CASE WHEN value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0 ELSE 1 = 0 END

-- name: payload-first
SELECT count(*) FROM lab_results WHERE abs(CASE WHEN value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0 AND id = 15

-- name: select-list
SELECT CASE WHEN abs(CASE WHEN value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0 THEN 1 ELSE 0 END FROM lab_results WHERE id = 15

-- name: order-by
SELECT id FROM lab_results WHERE id = 15 ORDER BY CASE WHEN abs(CASE WHEN value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0 THEN 1 ELSE 0 END

-- name: group-by-having
SELECT analyte FROM lab_results WHERE id = 15 GROUP BY analyte HAVING max(CASE WHEN abs(CASE WHEN value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0 THEN 1 ELSE 0 END) >= 0

-- name: having-only
SELECT analyte, count(*) FROM lab_results GROUP BY analyte HAVING max(CASE WHEN id = 15 AND abs(CASE WHEN value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0 THEN 1 ELSE 0 END) >= 0

-- name: aggregate
SELECT sum(CASE WHEN id = 15 AND abs(CASE WHEN value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0 THEN 1 ELSE 0 END) FROM lab_results

-- name: window
SELECT id, sum(CASE WHEN abs(CASE WHEN value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0 THEN 1 ELSE 0 END) OVER () FROM lab_results WHERE id = 15

-- name: limit
SELECT id FROM lab_results WHERE id = 15 AND abs(CASE WHEN value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0 LIMIT 1

-- name: join-on
SELECT count(*) FROM patients p JOIN lab_results r ON r.patient_id = p.id AND r.id = 15 AND abs(CASE WHEN r.value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0

-- name: join-where
SELECT count(*) FROM patients p JOIN lab_results r ON r.patient_id = p.id WHERE r.id = 15 AND abs(CASE WHEN r.value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0

-- name: left-join
SELECT count(*) FROM patients p LEFT JOIN lab_results r ON r.id = 15 WHERE abs(CASE WHEN r.value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0

-- name: self-join
SELECT count(*) FROM lab_results a JOIN lab_results b ON b.id = 15 WHERE abs(CASE WHEN b.value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0

-- name: scalar-subquery
SELECT (SELECT count(*) FROM lab_results WHERE id = 15 AND abs(CASE WHEN value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0) AS n

-- name: in-subquery
SELECT count(*) FROM patients WHERE id IN (SELECT patient_id FROM lab_results WHERE id = 15 AND abs(CASE WHEN value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0)

-- name: exists-correlated
SELECT count(*) FROM patients p WHERE EXISTS (SELECT 1 FROM lab_results r WHERE r.id = 15 AND abs(CASE WHEN r.value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0)

-- name: derived-table
SELECT count(*) FROM (SELECT * FROM lab_results) x WHERE x.id = 15 AND abs(CASE WHEN x.value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0

-- name: derived-renamed
SELECT count(*) FROM (SELECT id AS k, value, analyte, unit, test_date FROM lab_results) x WHERE x.k = 15 AND abs(CASE WHEN x.value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0

-- name: cte
WITH c AS (SELECT * FROM lab_results WHERE id = 15) SELECT count(*) FROM c WHERE abs(CASE WHEN value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0

-- name: cte-twice
WITH c AS (SELECT * FROM lab_results) SELECT count(*) FROM c a JOIN c b ON a.id = b.id WHERE a.id = 15 AND abs(CASE WHEN b.value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0

-- name: union-branch
SELECT 1 FROM patients UNION ALL SELECT count(*) FROM lab_results WHERE id = 15 AND abs(CASE WHEN value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0

-- name: coalesce-wrapped
SELECT count(*) FROM lab_results WHERE id = 15 AND coalesce(NULL, abs(CASE WHEN value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0)

-- name: patient-probe
SELECT count(*) FROM patients WHERE full_name = 'Ivan Petrov' AND abs(CASE WHEN date_of_birth < '1990-01-01' THEN -9223372036854775808 ELSE 0 END) >= 0

-- name: row-count
SELECT count(*) FROM lab_results WHERE id = 15

-- name: bound-key-2
-- args: #15
SELECT count(*) FROM lab_results WHERE id = ? AND 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) IS NULL

-- name: in-list-key-2
SELECT count(*) FROM lab_results WHERE id IN (15) AND 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) IS NULL

-- name: between-key-2
SELECT count(*) FROM lab_results WHERE id BETWEEN 15 AND 15 AND 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) IS NULL

-- name: key-in-case-2
SELECT count(*) FROM lab_results WHERE CASE WHEN id = 15 THEN 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) IS NULL ELSE 1 = 0 END

-- name: payload-first-2
SELECT count(*) FROM lab_results WHERE 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) IS NULL AND id = 15

-- name: select-list-2
SELECT CASE WHEN 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) IS NULL THEN 1 ELSE 0 END FROM lab_results WHERE id = 15

-- name: order-by-2
SELECT id FROM lab_results WHERE id = 15 ORDER BY CASE WHEN 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) IS NULL THEN 1 ELSE 0 END

-- name: group-by-having-2
SELECT analyte FROM lab_results WHERE id = 15 GROUP BY analyte HAVING max(CASE WHEN 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) IS NULL THEN 1 ELSE 0 END) >= 0

-- name: having-only-2
SELECT analyte, count(*) FROM lab_results GROUP BY analyte HAVING max(CASE WHEN id = 15 AND 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) IS NULL THEN 1 ELSE 0 END) >= 0

-- name: aggregate-2
SELECT sum(CASE WHEN id = 15 AND 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) IS NULL THEN 1 ELSE 0 END) FROM lab_results

-- name: window-2
SELECT id, sum(CASE WHEN 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) IS NULL THEN 1 ELSE 0 END) OVER () FROM lab_results WHERE id = 15

-- name: limit-2
SELECT id FROM lab_results WHERE id = 15 AND 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) IS NULL LIMIT 1

-- name: join-on-2
SELECT count(*) FROM patients p JOIN lab_results r ON r.patient_id = p.id AND r.id = 15 AND 1 / (CASE WHEN r.value > 40 THEN 0 ELSE 1 END) IS NULL

-- name: join-where-2
SELECT count(*) FROM patients p JOIN lab_results r ON r.patient_id = p.id WHERE r.id = 15 AND 1 / (CASE WHEN r.value > 40 THEN 0 ELSE 1 END) IS NULL

-- name: left-join-2
SELECT count(*) FROM patients p LEFT JOIN lab_results r ON r.id = 15 WHERE 1 / (CASE WHEN r.value > 40 THEN 0 ELSE 1 END) IS NULL

-- name: self-join-2
SELECT count(*) FROM lab_results a JOIN lab_results b ON b.id = 15 WHERE 1 / (CASE WHEN b.value > 40 THEN 0 ELSE 1 END) IS NULL

-- name: scalar-subquery-2
SELECT (SELECT count(*) FROM lab_results WHERE id = 15 AND 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) IS NULL) AS n

-- name: in-subquery-2
SELECT count(*) FROM patients WHERE id IN (SELECT patient_id FROM lab_results WHERE id = 15 AND 1 / (CASE WHEN value > 40 THEN 0 ELSE 1 END) IS NULL)

-- name: exists-correlated-2
SELECT count(*) FROM patients p WHERE EXISTS (SELECT 1 FROM lab_results r WHERE r.id = 15 AND 1 / (CASE WHEN r.value > 40 THEN 0 ELSE 1 END) IS NULL)

-- name: derived-table-2
SELECT count(*) FROM (SELECT * FROM lab_results) x WHERE x.id = 15 AND 1 / (CASE WHEN x.value > 40 THEN 0 ELSE 1 END) IS NULL

-- Planted row 9001 (analyte a LIKE pattern over SQLite's 100-byte limit) belongs to L1.
-- name: like-too-complex-from-data-pk
SELECT count(*) FROM lab_results WHERE id = 9001 AND 'x' LIKE analyte

-- name: like-too-complex-from-data-scan
SELECT count(*) FROM lab_results WHERE 'x' LIKE analyte

-- name: glob-too-complex-from-data-pk
SELECT count(*) FROM lab_results WHERE id = 9001 AND 'x' GLOB analyte

-- The test_date index covers test_date and the row id but not patient_id: a condition on
-- those columns alone can be checked on the index entry before the row is read.
-- name: covering-index-date
SELECT count(*) FROM lab_results WHERE test_date = '2023-12-30' AND abs(CASE WHEN id = 15 THEN -9223372036854775808 ELSE 0 END) >= 0

-- name: covering-index-date-range
SELECT count(*) FROM lab_results WHERE test_date > '2023-12-29' AND test_date < '2023-12-31' AND abs(CASE WHEN id = 15 THEN -9223372036854775808 ELSE 0 END) >= 0

-- name: covering-index-order-by
SELECT id FROM lab_results WHERE test_date = '2023-12-30' ORDER BY abs(CASE WHEN id = 15 THEN -9223372036854775808 ELSE 0 END)

-- name: covering-index-analyte
SELECT count(*) FROM lab_results WHERE analyte = 'HDL Cholesterol' AND abs(CASE WHEN id = 15 THEN -9223372036854775808 ELSE 0 END) >= 0

-- A MULTI-INDEX OR looks up each branch by its own key and checks that branch's conditions
-- before the rest of the WHERE clause, the scope filter included, unless the projection is fenced.
-- name: or-branches-by-key
SELECT count(*) FROM lab_results WHERE (id = 15 AND abs(CASE WHEN value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0) OR (id = 16 AND value > 0)

-- name: or-branches-by-key-date
SELECT count(*) FROM lab_results WHERE (id = 15 AND abs(CASE WHEN test_date < '2024-01-01' THEN -9223372036854775808 ELSE 0 END) >= 0) OR (id = 29 AND value > 0)

-- name: or-branches-by-key-like
SELECT count(*) FROM lab_results WHERE (id = 9001 AND 'x' LIKE analyte) OR (id = 29 AND value > 0)

-- name: or-branches-in-join
SELECT count(*) FROM patients p JOIN lab_results r ON r.patient_id = p.id WHERE (r.id = 15 AND abs(CASE WHEN r.value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0) OR (r.id = 16 AND r.value > 0)

-- name: or-branches-in-subquery
SELECT (SELECT count(*) FROM lab_results WHERE (id = 15 AND abs(CASE WHEN value > 40 THEN -9223372036854775808 ELSE 0 END) >= 0) OR (id = 16 AND value > 0)) AS n
