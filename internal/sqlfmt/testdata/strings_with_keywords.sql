SELECT 'FROM  x   WHERE y' AS "select  from", "order by", `group  by`, 'it''s, a  SELECT' FROM t WHERE name = 'a, b' AND note LIKE '%JOIN%' OR "WHERE" = 'AND  OR' ORDER BY "limit"
