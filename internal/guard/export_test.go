package guard

import pg "github.com/pganalyze/pg_query_go/v6"

// SkipParser switches a guard's parser off, for tests that show what the
// execution path stops on its own: Check then returns statements as given.
func SkipParser(g *Guard) { g.skipParser = true }

// Panics lets parser panics escape Check, so fuzzing finds them.
func Panics(g *Guard) { g.panics = true }

// PostgresTree is the parse tree the guard checks for a PostgreSQL
// statement: libpg_query's JSON, decoded.
func PostgresTree(sql string) (*pg.ParseResult, error) {
	t, err := pgParse(sql, false)
	if err != nil {
		return nil, err
	}
	return t.result, nil
}

// PostgresSameTree compares two of libpg_query's JSON trees, positions aside.
var PostgresSameTree = pgSameTree
