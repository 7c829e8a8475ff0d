SELECT	a ,

   b
FROM   t
WHERE ( a = 1 )  AND	b IN ( 1 ,2 );

  SELECT 1;
