SELECT 'it\'s   here' AS  a,   b FROM   t
