SELECT COUNT(*) AS "n" FROM (VALUES (1, 'a'), (2, 'b')) AS v(x, y) WHERE COALESCE((SELECT MAX(x) FROM w), 0) > ?
