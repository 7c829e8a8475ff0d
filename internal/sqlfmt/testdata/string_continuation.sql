SELECT 'a'
  'b' AS s, 'c' 'd' AS t FROM x WHERE y = 'e'
'f'
