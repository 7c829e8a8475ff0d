package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/model"
)

// guardVerdict is one statement's line of `clarify guard --json`.
type guardVerdict struct {
	SQL         string   `json:"sql"`
	Verdict     string   `json:"verdict"` // ok | rejected
	Code        string   `json:"code,omitempty"`
	Reason      string   `json:"reason"`
	ExecutedSQL string   `json:"executed_sql"`
	Columns     []string `json:"columns"`
	Rows        [][]any  `json:"rows"`
	Truncated   bool     `json:"truncated,omitempty"`
	Error       string   `json:"error,omitempty"`
}

// guardCmd checks statements with a source's guard and, with --run,
// executes the accepted ones through the hardened path.
func (e *env) guardCmd(ctx context.Context, args []string) error {
	fs := newFlagSet("guard", e)
	var c common
	c.register(fs)
	src := fs.String("source", "", "source name (default: the first configured)")
	db := fs.String("db", "", "database DSN instead of a configured source")
	modelFile := fs.String("model", "", "model file for --db")
	scope := fs.String("scope", "", "scope value the statements are limited to (e.g. a patient id)")
	dialect := fs.String("dialect", "", "check as this dialect (sqlite, postgres, mysql) instead of the source's")
	run := fs.Bool("run", false, "execute the accepted statements through the hardened path")
	asJSON := fs.Bool("json", false, "print one JSON object per statement")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("guard needs at least one SQL statement in quotes")
	}
	if err := checkConflicts(fs, dbConflicts()...); err != nil {
		return err
	}
	eng, closeFn, err := e.openEngine(ctx, c, *src, *db, *modelFile)
	if err != nil {
		return err
	}
	defer closeFn()
	s := eng.Source()
	d := s.Dialect()
	if *dialect != "" {
		d = model.Dialect(*dialect)
		switch d {
		case model.SQLite, model.Postgres, model.MySQL:
		default:
			return usagef("unknown dialect %q (want sqlite, postgres or mysql)", *dialect)
		}
		if *run && d != s.Dialect() {
			return usagef("--run executes on the source, whose dialect is %s", s.Dialect())
		}
	}
	var sc *guard.Scope
	if *scope != "" {
		sc = &guard.Scope{Value: *scope}
	}
	g := guard.New(s.Model, d, guard.Options{RowCap: s.RowCap()})
	rejected, failed := 0, 0
	for _, q := range pos {
		v := guardVerdict{SQL: q, Verdict: "ok", Columns: []string{}, Rows: [][]any{}}
		st, err := g.Check(q, nil, sc)
		switch ge, isRejection := guard.IsRejection(err); {
		case isRejection:
			v.Verdict, v.Code, v.Reason = "rejected", string(ge.Code), ge.Reason
			rejected++
		case err != nil:
			return err
		default:
			v.ExecutedSQL = st.SQL
			if *run {
				res, err := s.Query(ctx, st.SQL, st.Args, 0)
				if err != nil {
					v.Error = message(err)
					failed++
				} else {
					v.Columns, v.Truncated = res.Columns, res.Truncated
					if res.Rows != nil {
						v.Rows = res.Rows
					}
				}
			}
		}
		if *asJSON {
			enc := json.NewEncoder(e.stdout)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(v); err != nil {
				return err
			}
			continue
		}
		e.printVerdict(v, len(pos) > 1, *run)
	}
	switch {
	case rejected > 0:
		return &failure{fmt.Sprintf("%d of %d statements rejected", rejected, len(pos))}
	case failed > 0:
		return &failure{fmt.Sprintf("%d of %d statements failed to run", failed, len(pos))}
	}
	return nil
}

func (e *env) printVerdict(v guardVerdict, many, run bool) {
	if many {
		fmt.Fprintln(e.stdout, "-- "+oneLine(v.SQL))
	}
	if v.Verdict != "ok" {
		fmt.Fprintf(e.stdout, "rejected: %s: %s\n", v.Code, v.Reason)
		return
	}
	fmt.Fprintln(e.stdout, "ok")
	if !run {
		return
	}
	fmt.Fprintln(e.stdout, "  executed: "+v.ExecutedSQL)
	if v.Error != "" {
		fmt.Fprintln(e.stdout, "  error: "+v.Error)
		return
	}
	fmt.Fprintln(e.stdout, strings.Join(v.Columns, "\t"))
	for _, r := range v.Rows {
		cells := make([]string, len(r))
		for i, x := range r {
			cells[i] = cell(x)
		}
		fmt.Fprintln(e.stdout, strings.Join(cells, "\t"))
	}
	more := ""
	if v.Truncated {
		more = ", truncated"
	}
	fmt.Fprintf(e.stdout, "(%d rows%s)\n", len(v.Rows), more)
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 100 {
		s = string(r[:99]) + "…"
	}
	return s
}
