select a from t where a = ? and b = ?2 and c = $1 and d = :name and e = @p and h::text = ? and i ?| array_of(?) and j = ?::int limit ? offset ?
