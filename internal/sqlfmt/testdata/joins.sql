SELECT DISTINCT a.id, b.name FROM a LEFT OUTER JOIN b ON b.a_id = a.id AND b.kind = 'x' INNER JOIN c ON c.id = b.c_id CROSS JOIN d NATURAL JOIN e RIGHT JOIN f USING (id) WHERE LEFT(a.code, 2) = 'US'
