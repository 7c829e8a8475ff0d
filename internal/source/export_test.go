package source

// ExecFunctions are the SQLite functions the execution path's authorizer allows.
var ExecFunctions = sqliteFunctions

// MySQLStatementAllowed is the MySQL execution path's look at the text.
var MySQLStatementAllowed = mysqlStatementAllowed

// WaitValues waits for the background refreshes of a source's value cache.
func WaitValues(s *Source) { s.values.wait() }
