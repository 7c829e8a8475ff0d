package guard_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/demo"
	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/testdb"
)

// wall is one database behind the execution path, with what the test
// needs to see changes from outside: table contents, server settings and
// the execution path's own session settings.
type wall struct {
	d   model.Dialect
	src *source.Source
	// state returns a fingerprint of everything a hostile statement must
	// not change: data, tables, large objects, global settings.
	state func(t *testing.T) string
	// session reads settings through the execution path itself.
	session string
	// dir holds the SQLite file (new files there are created files).
	dir string
}

// defenceOpt leaves the probes time on a loaded machine; hostile
// statements get a 100 ms deadline of their own (the cancel path).
var defenceOpt = source.Options{QueryTimeout: 5 * time.Second, RowCap: 100}

func sqliteWall(t *testing.T) wall {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "labs.db")
	copyFile(t, demotest.Path(t, "labs"), path)
	src, err := source.Open(context.Background(), "labs", "sqlite:"+path, demotest.Model(t, "labs"), defenceOpt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return wall{d: model.SQLite, src: src, dir: dir,
		state: func(t *testing.T) string {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			h := sha256.New()
			if _, err := io.Copy(h, f); err != nil {
				t.Fatal(err)
			}
			return hex.EncodeToString(h.Sum(nil))
		},
		session: "SELECT count(*) FROM patients",
	}
}

func pgWall(t *testing.T) wall {
	t.Helper()
	srv := testdb.PostgresServer(t)
	admin, ns := srv.Admin, srv.Namespace(t, "t_wall")
	if err := demo.LoadPostgres(context.Background(), admin, "labs", ns, demo.Options{AsOf: demotest.AsOf}); err != nil {
		t.Fatal(err)
	}
	src, err := source.Open(context.Background(), "labs", srv.DSN(t, ns), demotest.Model(t, "labs"), defenceOpt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return wall{d: model.Postgres, src: src,
		state: func(t *testing.T) string {
			return queryText(t, admin, `SELECT concat_ws('|',
				(SELECT md5(string_agg(p::text, ',' ORDER BY p::text)) FROM `+ns+`.patients p),
				(SELECT md5(string_agg(r::text, ',' ORDER BY r::text)) FROM `+ns+`.lab_results r),
				(SELECT string_agg(table_name, ',' ORDER BY table_name) FROM information_schema.tables WHERE table_schema = '`+ns+`'),
				(SELECT count(*) FROM pg_largeobject_metadata),
				(SELECT md5(string_agg(name || '=' || coalesce(setting, ''), ',' ORDER BY name)) FROM pg_file_settings),
				(SELECT md5(string_agg(name || '=' || setting, ',' ORDER BY name)) FROM pg_settings WHERE context IN ('postmaster', 'sighup')))`)
		},
		// statement_timeout is what remains of each statement's deadline:
		// its value moves, so only that there is one is compared
		session: "SELECT current_setting('statement_timeout') <> '0', current_setting('search_path'), current_setting('work_mem'), current_setting('role')",
	}
}

func mysqlWall(t *testing.T) wall {
	t.Helper()
	srv := testdb.MySQLServer(t)
	admin, ns := srv.Admin, srv.Namespace(t, "t_wall")
	if err := demo.LoadMySQL(context.Background(), admin, "labs", ns, demo.Options{AsOf: demotest.AsOf}); err != nil {
		t.Fatal(err)
	}
	src, err := source.Open(context.Background(), "labs", srv.DSN(t, ns), demotest.Model(t, "labs"), defenceOpt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return wall{d: model.MySQL, src: src,
		state: func(t *testing.T) string {
			sum := queryText(t, admin, "SELECT GROUP_CONCAT(table_name ORDER BY table_name) FROM information_schema.tables WHERE table_schema = '"+ns+"'")
			rows, err := admin.Query("CHECKSUM TABLE " + ns + ".patients, " + ns + ".lab_results")
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var name string
				var c sql.NullInt64
				if err := rows.Scan(&name, &c); err != nil {
					t.Fatal(err)
				}
				sum += fmt.Sprintf("|%s=%d", name, c.Int64)
			}
			rows.Close()
			return sum + "|" + globals(t, admin)
		},
		session: "SELECT @pwned, @@SESSION.sql_mode, @@SESSION.autocommit, IS_FREE_LOCK('x')",
	}
}

// globals fingerprints MySQL's global variables, except counters that move
// on their own.
func globals(t *testing.T, db *sql.DB) string {
	t.Helper()
	rows, err := db.Query("SHOW GLOBAL VARIABLES")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(k, "gtid") || k == "timestamp" {
			continue
		}
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	h := sha256.Sum256([]byte(strings.Join(out, "\n")))
	return hex.EncodeToString(h[:])
}

func queryText(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	var s string
	if err := db.QueryRow(q).Scan(&s); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return s
}

var tmpPath = regexp.MustCompile(`'(/tmp/[^']+)'`)

// TestDefenceInDepth runs the hostile corpus straight into the execution
// path with the guard's parser switched off: no statement may write data,
// create a file or change a setting. Statements the execution path runs
// without error are the ones only the parser stops; the test lists them.
func TestDefenceInDepth(t *testing.T) {
	for _, mk := range []func(*testing.T) wall{sqliteWall, pgWall, mysqlWall} {
		w := mk(t)
		t.Run(string(w.d), func(t *testing.T) {
			g := guard.New(demotest.Model(t, "labs"), w.d, guard.Options{})
			guard.SkipParser(g)
			ctx := context.Background()
			baseState := w.state(t)
			baseSession, err := w.src.Query(ctx, w.session, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files := map[string]bool{}
			entries := loadCorpus(t, w.d, "hostile")
			for _, e := range entries {
				for _, m := range tmpPath.FindAllStringSubmatch(e.SQL, -1) {
					if _, err := os.Stat(m[1]); err == nil {
						files[m[1]] = true // existed before: not ours to judge
					}
				}
			}
			var onlyParser []string
			for _, e := range entries {
				st, err := g.Check(e.SQL, e.Args, &guard.Scope{Value: "L2"})
				if err != nil {
					t.Fatalf("%s: %v", e, err)
				}
				hctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
				_, err = w.src.Query(hctx, st.SQL, st.Args, 0)
				cancel()
				if err == nil {
					onlyParser = append(onlyParser, e.Name)
				}
				if got := w.state(t); got != baseState {
					t.Errorf("%s changed data or settings on the server", e)
					baseState = got
				}
				res, err := w.src.Query(ctx, w.session, nil, 0)
				if err != nil {
					t.Fatalf("after %s: %v", e, err)
				}
				if diff := cmp.Diff(baseSession.Rows, res.Rows); diff != "" {
					t.Errorf("%s changed the execution path's session (-before +after):\n%s", e, diff)
				}
				for _, m := range tmpPath.FindAllStringSubmatch(e.SQL, -1) {
					if _, err := os.Stat(m[1]); err == nil && !files[m[1]] {
						t.Errorf("%s created file %s", e, m[1])
						files[m[1]] = true
					}
				}
			}
			if w.dir != "" {
				names, err := os.ReadDir(w.dir)
				if err != nil {
					t.Fatal(err)
				}
				for _, n := range names {
					if n.Name() != "labs.db" {
						t.Errorf("a file %s appeared beside the database", n.Name())
					}
				}
			}
			t.Logf("%s: %d of %d hostile statements ran on the execution path with the parser off (only the parser stops them): %s",
				w.d, len(onlyParser), len(entries), strings.Join(onlyParser, ", "))
		})
	}
}
