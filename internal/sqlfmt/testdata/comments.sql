/* the   patients */ SELECT id, -- the key
  name FROM patients -- all of them
WHERE a = 1 /* and  this */ AND b = 2 # MySQL   comment
  AND c = 3 --
