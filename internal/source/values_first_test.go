package source_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/understand"
)

// firstShop is a shop whose first reads take first rows and whose scans
// of a whole table wait for a statement of its users as long as a test
// runs, so that what a test sees does not depend on how fast they are.
func firstShop(t *testing.T, first int, colours ...string) *shop {
	t.Helper()
	sh := newShop(t)
	source.SetFirstRows(sh.src, first)
	source.SetDeferAtMost(sh.src, time.Hour)
	for _, c := range colours {
		var v any = c
		if c == "" {
			v = nil
		}
		sh.exec(t, "INSERT INTO items (colour) VALUES (?)", v)
	}
	return sh
}

// waitScans waits for the value cache's background work, failing when it
// has not ended within a generous bound (a scan still deferred).
func waitScans(t *testing.T, sh *shop) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		source.WaitValues(sh.src)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the value loads did not end: a scan still waits")
	}
}

// TestValuesFirstRows: a column's load begins with its table's first
// rows. When the table holds no more, that is the whole load and a first
// question has all the values; else a first question has the values of
// those rows (all a probe finds: a value only in later rows is not found),
// and the scan of the whole table waits until a statement of the source's
// users has ended — not one the cache runs for understanding.
func TestValuesFirstRows(t *testing.T) {
	cases := []struct {
		name    string
		colours []string // "" is NULL
		want    []string
		rows    []int64
		whole   bool
	}{
		{"fewer rows than the first read", []string{"red", "blue", "red"}, []string{"blue", "red"}, []int64{1, 2}, true},
		{"fewer rows, one NULL", []string{"red", "", "blue"}, []string{"blue", "red"}, []int64{1, 1}, true},
		{"as many rows", []string{"red", "red", "", "red"}, []string{"red"}, []int64{3}, false},
		{"more rows", []string{"red", "red", "", "red", "blue"}, []string{"red"}, []int64{3}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sh := firstShop(t, 4, tc.colours...)
			cat := sh.src.Catalog()
			ctx := context.Background()
			if err := cat.Settle(ctx, sh.col); err != nil {
				t.Fatal(err)
			}
			vals, rows, complete, err := cat.Snapshot(ctx, sh.col)
			if err != nil || complete != tc.whole || !slices.Equal(vals, tc.want) || !slices.Equal(rows, tc.rows) {
				t.Fatalf("after the first read: %v %v, complete %v, %v; want %v %v, complete %v", vals, rows, complete, err, tc.want, tc.rows, tc.whole)
			}
			if tc.whole {
				if n := source.DeferredScans(sh.src); n != 0 {
					t.Errorf("%d scans deferred for a table read whole", n)
				}
				return
			}
			if n := source.DeferredScans(sh.src); n != 1 {
				t.Fatalf("%d scans deferred; want the whole table's, until a statement of a user", n)
			}
			found, _, err := cat.Probe(ctx, sh.col, []string{"BLUE", "red"})
			if err != nil || !slices.Equal(found, []string{"red"}) {
				t.Errorf("probe = %v, %v; want [red]: blue is beyond the first rows", found, err)
			}
			// the cache's own statements for understanding let no scan start
			if _, err := cat.Rows(ctx, sh.col.Entity(), []string{"colour"}, 10); err != nil {
				t.Fatal(err)
			}
			if source.ScansReleased(sh.src) {
				t.Fatal("a lookup for understanding started the deferred scans")
			}
			if _, err := sh.src.Query(ctx, "SELECT count(*) FROM items", nil, 0); err != nil {
				t.Fatal(err)
			}
			if !source.ScansReleased(sh.src) {
				t.Fatal("a user's statement ended and the deferred scans may not start")
			}
			waitScans(t, sh)
			wantAll, wantRows := []string{"red"}, []int64{3}
			if slices.Contains(tc.colours, "blue") {
				wantAll, wantRows = []string{"blue", "red"}, []int64{1, 3}
			}
			vals, rows, complete, err = cat.Snapshot(ctx, sh.col)
			if err != nil || !complete || !slices.Equal(vals, wantAll) || !slices.Equal(rows, wantRows) {
				t.Errorf("after the scan: %v %v, complete %v, %v; want %v %v, complete", vals, rows, complete, err, wantAll, wantRows)
			}
		})
	}
}

// TestValuesProbeFirstRows: a probe before any load reads the table's
// first rows only, however fast the database: a value beyond them is not
// found.
func TestValuesProbeFirstRows(t *testing.T) {
	sh := firstShop(t, 3, "red", "green", "red", "blue", "blue")
	for _, tc := range []struct {
		word string
		want []string
	}{{"Red", []string{"red"}}, {"blue", nil}} {
		got, _, err := sh.src.Catalog().Probe(context.Background(), sh.col, []string{tc.word})
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("probe %q = %v, %v; want %v", tc.word, got, err, tc.want)
		}
	}
}

// TestValuesWholeListStartsScan: a caller that needs a column's whole
// list (Values, CountedValues: WarmValues before an evaluation) does not
// wait for a user's statement to end.
func TestValuesWholeListStartsScan(t *testing.T) {
	sh := firstShop(t, 2, "red", "red", "blue")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := sh.src.Catalog().Settle(ctx, sh.col); err != nil {
		t.Fatal(err)
	}
	got, err := sh.src.Catalog().Values(ctx, sh.col)
	if err != nil || !slices.Equal(got, []string{"blue", "red"}) {
		t.Errorf("values = %v, %v; want [blue red]", got, err)
	}
}

// TestValuesScanWaitsForRunningAnswer: while a user's statement runs, the
// scan of a big table does not start even once deferAtMost has passed; it
// starts when that statement ends.
func TestValuesScanWaitsForRunningAnswer(t *testing.T) {
	sh := firstShop(t, 2, "red", "red", "blue")
	source.SetDeferAtMost(sh.src, time.Millisecond)
	sh.exec(t, `CREATE VIEW endless AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT x FROM n`)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = sh.src.Query(ctx, "SELECT count(*) FROM endless", nil, 0) // runs until canceled
	}()
	defer func() { cancel(); <-done }()
	for deadline := time.Now().Add(30 * time.Second); source.UserStatements(sh.src) == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the user's statement did not start")
		}
	}
	if err := sh.src.Catalog().Settle(context.Background(), sh.col); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // far beyond deferAtMost
	if n := source.DeferredScans(sh.src); n != 1 {
		t.Fatalf("%d scans deferred while a user's statement runs; want 1", n)
	}
	cancel()
	<-done
	waitScans(t, sh)
	vals, _, complete, err := sh.src.Catalog().Snapshot(context.Background(), sh.col)
	if err != nil || !complete || !slices.Equal(vals, []string{"blue", "red"}) {
		t.Errorf("after the statement ended: %v, complete %v, %v; want [blue red], complete", vals, complete, err)
	}
}

// TestValuesWarmStatementPool: the first load of values, which reads on
// the metadata pool, also opens a connection of the statement pool, for
// the answer that follows the first question.
func TestValuesWarmStatementPool(t *testing.T) {
	sh := firstShop(t, 4, "red", "blue")
	if err := sh.src.Catalog().Settle(context.Background(), sh.col); err != nil {
		t.Fatal(err)
	}
	waitScans(t, sh) // a small table: no scan is deferred
	if n := source.StatementConns(sh.src); n < 1 {
		t.Errorf("the statement pool holds %d connections after the first load; want one open", n)
	}
}

// TestValuesProbeTable: a probe of the whole table finds a value only a
// row beyond the first holds, where a probe of the first rows does not;
// it does not start the deferred scan.
func TestValuesProbeTable(t *testing.T) {
	sh := firstShop(t, 3, "red", "green", "red", "blue", "blue")
	for _, tc := range []struct {
		word string
		want []string
	}{{"BLUE", []string{"blue"}}, {"red", []string{"red"}}, {"mauve", nil}} {
		got, _, err := sh.src.Catalog().ProbeTable(context.Background(), sh.col, []string{tc.word})
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("probe table %q = %v, %v; want %v", tc.word, got, err, tc.want)
		}
	}
	if source.ScansReleased(sh.src) {
		t.Error("a probe of the whole table released the deferred scans")
	}
}

// TestColdQuestionValueBeyondFirstRows: the first question on a source
// whose table is bigger than its first read names a value only a later
// row holds: the word links to nothing at first, so it is looked up in
// the whole table and becomes the question's filter — not an unknown word
// asked about, and not dropped.
func TestColdQuestionValueBeyondFirstRows(t *testing.T) {
	sh := firstShop(t, 3, "red", "green", "red", "blue", "mauve", "blue")
	an := understand.New(sh.col.Entity().Model(), sh.src.Catalog())
	defer an.Close()
	for _, tc := range []struct {
		question string
		want     []string // filter labels
	}{
		{"how many mauve items", []string{"colour is mauve"}},
		{"how many items are Blue", []string{"colour is blue"}},
		{"how many green items", []string{"colour is green"}},
	} {
		if got := filterLabels(t, an, tc.question); !slices.Equal(got, tc.want) {
			t.Errorf("filters of %q = %q, want %q", tc.question, got, tc.want)
		}
	}
	if source.ScansReleased(sh.src) {
		t.Error("the scans were released: the test no longer shows a cold source")
	}
}

// withCrates is the shop's model with a crates table whose column col
// holds stored values; between, lines added to the items entity.
func withCrates(between, col string) string {
	return shopModel + between + `  - name: crates
    label: crate
    plural: crates
    key: id
    columns:
      - {name: id, role: id, type: integer}
      - {name: ` + col + `, role: dimension, type: text, values: {source: database}}
`
}

// TestColdQuestionValueInNamedTable: the first question names a table and
// a value that the first rows of another table hold, and a later row of
// the named one: it is looked up in the named table's rows too, and the
// filter is on the table the question names, not read as the other's.
func TestColdQuestionValueInNamedTable(t *testing.T) {
	sh := newShopWith(t, withCrates("", "colour"), `CREATE TABLE items (id INTEGER PRIMARY KEY, colour TEXT);
CREATE TABLE crates (id INTEGER PRIMARY KEY, colour TEXT);
INSERT INTO items (colour) VALUES ('red'), ('green'), ('red'), ('blue'), ('mauve');
INSERT INTO crates (colour) VALUES ('mauve'), ('grey'), ('grey'), ('grey')`)
	if got := coldFilters(t, sh, nil, "how many items are mauve"); len(got) != 1 || !strings.HasPrefix(got[0], "items: ") {
		t.Errorf("filters %q: want one, on items", got)
	}
}

// coldFilters reads question on sh's source made cold (first reads of
// three rows, the scans of whole tables held back) through cat (nil: the
// source's catalog), and returns its filters as "entity: label"; the
// source must still be cold after.
func coldFilters(t *testing.T, sh *shop, cat understand.Catalog, question string) []string {
	t.Helper()
	source.SetFirstRows(sh.src, 3)
	source.SetDeferAtMost(sh.src, time.Hour)
	if cat == nil {
		cat = sh.src.Catalog()
	}
	an := understand.New(sh.col.Entity().Model(), cat)
	defer an.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	in, err := an.Analyze(ctx, question, understand.Settings{Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range in.Query.Filters {
		got = append(got, f.Entity.Name+": "+f.Label)
	}
	if source.ScansReleased(sh.src) {
		t.Error("the scans were released: the test no longer shows a cold source")
	}
	return got
}

// probeCounter counts the probes a catalog is asked for, per column: of
// the first rows (Probe) and of whole tables (ProbeTable).
type probeCounter struct {
	tableCatalog
	mu           sync.Mutex
	first, table map[string]int
}

type tableCatalog interface {
	understand.Catalog
	understand.TableProber
}

func newProbeCounter(cat tableCatalog) *probeCounter {
	return &probeCounter{tableCatalog: cat, first: map[string]int{}, table: map[string]int{}}
}

func (p *probeCounter) Probe(ctx context.Context, c *model.Column, words []string) ([]string, []int64, error) {
	p.mu.Lock()
	p.first[c.Name]++
	p.mu.Unlock()
	return p.tableCatalog.Probe(ctx, c, words)
}

func (p *probeCounter) ProbeTable(ctx context.Context, c *model.Column, words []string) ([]string, []int64, error) {
	p.mu.Lock()
	p.table[c.Name]++
	p.mu.Unlock()
	return p.tableCatalog.ProbeTable(ctx, c, words)
}

// take returns the counts since the last take, of first rows and of whole
// tables.
func (p *probeCounter) take() (first, table map[string]int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	first, table = p.first, p.table
	p.first, p.table = map[string]int{}, map[string]int{}
	return first, table
}

// TestColdQuestionValueOfJoinedTable: a value the first rows of a table
// the question reaches through a join hold ("mauve items", where mauve is
// the shade of their crates) is
// that table's value, as when warm: no table is scanned for it.
func TestColdQuestionValueOfJoinedTable(t *testing.T) {
	sh := newShopWith(t, withCrates("      - {name: crate_id, role: id, type: integer, references: crates.id}\n", "shade"), `CREATE TABLE items (id INTEGER PRIMARY KEY, colour TEXT, crate_id INTEGER);
CREATE TABLE crates (id INTEGER PRIMARY KEY, shade TEXT);
INSERT INTO items (colour, crate_id) VALUES ('red', 1), ('green', 1), ('red', 2), ('blue', 2), ('blue', 1);
INSERT INTO crates (shade) VALUES ('mauve'), ('grey'), ('grey'), ('grey')`)
	cat := newProbeCounter(sh.src.Catalog())
	if got := coldFilters(t, sh, cat, "how many mauve items"); len(got) != 1 || !strings.HasPrefix(got[0], "crates: ") {
		t.Errorf("filters %q: want one, on crates", got)
	}
	if _, table := cat.take(); len(table) != 0 {
		t.Errorf("whole-table probes %v for a value of a joined table's first rows: want none", table)
	}
}

// filterLabels reads question with an and returns its filters' labels.
func filterLabels(t *testing.T, an *understand.Analyzer, question string) []string {
	t.Helper()
	return readLabels(t, an, question, understand.Settings{Now: time.Now()})
}

// readLabels reads question with an and settings and returns its filters'
// labels.
func readLabels(t *testing.T, an *understand.Analyzer, question string, settings understand.Settings) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	in, err := an.Analyze(ctx, question, settings)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range in.Query.Filters {
		got = append(got, f.Label)
	}
	return got
}

// TestValuesFirstReadPerTable: the first reads of a table's columns are
// one read of its first rows, counted for each column as a read of that
// column alone counts them — NULLs skipped but counted toward the table's
// end, a table with fewer rows read whole — and a column with no sibling
// keeps its own read.
func TestValuesFirstReadPerTable(t *testing.T) {
	yaml := shopModel + "      - {name: size, role: dimension, type: text, values: {source: database}}\n"
	cases := []struct {
		name           string
		first          int
		colours, sizes []any
		wantC, wantS   []string
		rowsC, rowsS   []int64
		whole          bool
	}{
		{"fewer rows than the first read", 4, []any{"red", nil, "red"}, []any{"s", "m", nil},
			[]string{"red"}, []string{"m", "s"}, []int64{2}, []int64{1, 1}, true},
		{"more rows", 2, []any{"red", "blue", "red"}, []any{nil, "m", "l"},
			[]string{"blue", "red"}, []string{"m"}, []int64{1, 1}, []int64{1}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sh := newShopWith(t, yaml, "CREATE TABLE items (id INTEGER PRIMARY KEY, colour TEXT, size TEXT)")
			for i := range tc.colours {
				sh.exec(t, "INSERT INTO items (colour, size) VALUES (?, ?)", tc.colours[i], tc.sizes[i])
			}
			source.SetFirstRows(sh.src, tc.first)
			source.SetDeferAtMost(sh.src, time.Hour)
			cat := sh.src.Catalog()
			ctx := context.Background()
			size := sh.col.Entity().Column("size")
			for _, c := range []*model.Column{sh.col, size} {
				_, _, _, _ = cat.Snapshot(ctx, c) // both loads start, as a first question starts them
			}
			for _, c := range []*model.Column{sh.col, size} {
				if err := cat.Settle(ctx, c); err != nil {
					t.Fatal(err)
				}
			}
			for _, w := range []struct {
				c    *model.Column
				want []string
				rows []int64
			}{{sh.col, tc.wantC, tc.rowsC}, {size, tc.wantS, tc.rowsS}} {
				vals, rows, complete, err := cat.Snapshot(ctx, w.c)
				if err != nil || complete != tc.whole || !slices.Equal(vals, w.want) || !slices.Equal(rows, w.rows) {
					t.Errorf("%s: %v %v, complete %v, %v; want %v %v, complete %v", w.c.Name, vals, rows, complete, err, w.want, w.rows, tc.whole)
				}
			}
			if n := source.HeadReads(sh.src); n != 1 {
				t.Errorf("%d first reads for one table's two columns; want 1", n)
			}
		})
	}
}

// TestValuesOneScanAtATime: the reads of whole tables' columns that a
// cold source starts in the background (a wide database starts one per
// column) run one after the other, so that they never hold more than one
// connection and one core against the users' statements; each column is
// complete once they have run.
func TestValuesOneScanAtATime(t *testing.T) {
	const cols = 6
	yaml := shopModel
	create := "CREATE TABLE items (id INTEGER PRIMARY KEY, colour TEXT"
	insert := "INSERT INTO items (colour"
	for i := range cols - 1 {
		n := fmt.Sprintf("c%d", i)
		yaml += "      - {name: " + n + ", role: dimension, type: text, values: {source: database}}\n"
		create += ", " + n + " TEXT"
		insert += ", " + n
	}
	sh := newShopWith(t, yaml, create+")")
	insert += ") VALUES (?" + strings.Repeat(", ?", cols-1) + ")"
	for r := range 50 {
		args := []any{fmt.Sprint("colour-", r)}
		for i := range cols - 1 {
			args = append(args, fmt.Sprintf("v%d-%d", i, r))
		}
		sh.exec(t, insert, args...)
	}
	source.SetFirstRows(sh.src, 5) // every column's table is big
	source.SetDeferAtMost(sh.src, time.Millisecond)
	cat := sh.src.Catalog()
	ctx := context.Background()
	e := sh.col.Entity()
	for _, c := range e.Columns {
		if c.Name != "id" {
			_, _, _, _ = cat.Snapshot(ctx, c)
		}
	}
	waitScans(t, sh)
	if n := source.ScanPeak(sh.src); n != 1 {
		t.Errorf("%d reads of whole tables ran at once; want 1", n)
	}
	for _, c := range e.Columns {
		if c.Name == "id" {
			continue
		}
		vals, _, complete, err := cat.Snapshot(ctx, c)
		if err != nil || !complete || len(vals) != 50 {
			t.Errorf("%s: %d values, complete %v, %v; want 50, complete", c.Name, len(vals), complete, err)
		}
	}
}

// TestColdIndexLeavesOutBiggestColumn: a cold source's first index holds
// at most a bounded number of the database's values: a column of 60,000
// names, all read by the first reads, is left out of it, and a question
// naming one of them finds it by a probe; the index of every value, built
// in the background at once, then holds them (no probe any more).
func TestColdIndexLeavesOutBiggestColumn(t *testing.T) {
	yaml := shopModel + "      - {name: name, role: name, type: text, values: {source: database}}\n"
	sh := newShopWith(t, yaml, `CREATE TABLE items (id INTEGER PRIMARY KEY, colour TEXT, name TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60000)
INSERT INTO items (colour, name) SELECT CASE i % 3 WHEN 0 THEN 'red' WHEN 1 THEN 'green' ELSE 'blue' END, 'widget ' || i FROM n`)
	source.SetFirstRows(sh.src, 100_000) // the first reads take every row: the columns are complete
	source.SetDeferAtMost(sh.src, time.Hour)
	m := sh.col.Entity().Model()
	// the first reads end before the first question is read, as they do
	// within its wait (understand's coldWait, 2 s) on any machine but a
	// slow one under the race detector: 60,000 rows twice took longer there
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, c := range understand.StoredValueColumns(m) {
		if err := sh.src.Catalog().Settle(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	cat := newProbeCounter(sh.src.Catalog())
	an := understand.New(m, cat)
	defer an.Close()
	if got := filterLabels(t, an, "how many items are red"); !slices.Equal(got, []string{"colour is red"}) {
		t.Errorf("filters of a colour = %q", got)
	}
	if n, _ := cat.take(); n["name"] == 0 || n["colour"] != 0 {
		t.Errorf("first question's probes %v: want the names probed (left out of the first index), not the colours", n)
	}
	if got := filterLabels(t, an, "how many items are widget 43210"); !slices.Equal(got, []string{"name is widget 43210"}) {
		t.Errorf("filters of a name left out of the first index = %q, want it found by a probe", got)
	}
	an.WaitIndex(ctx)
	cat.take()
	if got := filterLabels(t, an, "how many items are widget 5"); !slices.Equal(got, []string{"name is widget 5"}) {
		t.Errorf("filters of a name once every value is indexed = %q", got)
	}
	if first, table := cat.take(); len(first)+len(table) != 0 {
		t.Errorf("probes %v, of whole tables %v, once every value is indexed: want none", first, table)
	}
}

// TestColdQuestionNameOfNamedTable: the first question names a table and
// a name that the first rows of a table it joins to hold, and a later row
// of its own: its own name column, still loading, is looked in too, and the
// filter is on the named table, as when warm — not "items in a crate named
// aurora".
func TestColdQuestionNameOfNamedTable(t *testing.T) {
	sh := newShopWith(t, shopModel+`      - {name: name, role: name, type: text, values: {source: database}}
      - {name: crate_id, role: id, type: integer, references: crates.id}
  - name: crates
    label: crate
    plural: crates
    key: id
    columns:
      - {name: id, role: id, type: integer}
      - {name: name, role: name, type: text, values: {source: database}}
`, `CREATE TABLE items (id INTEGER PRIMARY KEY, colour TEXT, name TEXT, crate_id INTEGER);
CREATE TABLE crates (id INTEGER PRIMARY KEY, name TEXT);
INSERT INTO items (colour, name, crate_id) VALUES ('red', 'bolt', 1), ('green', 'nut', 1), ('red', 'washer', 2), ('blue', 'aurora', 2);
INSERT INTO crates (name) VALUES ('aurora'), ('borealis'), ('zenith'), ('nadir')`)
	if got := coldFilters(t, sh, nil, "how many items are named aurora"); len(got) != 1 || !strings.HasPrefix(got[0], "items: ") {
		t.Errorf("filters %q: want one, on items' own name", got)
	}
}

// TestColdQuestionReadAgainScansNothing: a question read again with
// Settings.Probed (a preview's reading, one answer set) scans no table for
// its words again — its first reading did — and still knows the value that
// scan found in a later row.
func TestColdQuestionReadAgainScansNothing(t *testing.T) {
	sh := firstShop(t, 3, "red", "green", "red", "blue", "mauve", "blue")
	cat := newProbeCounter(sh.src.Catalog())
	an := understand.New(sh.col.Entity().Model(), cat)
	defer an.Close()
	read := func(q string, probed bool) []string {
		return readLabels(t, an, q, understand.Settings{Now: time.Now(), Probed: probed})
	}
	for _, q := range []string{"how many mauve items", "how many purple items"} {
		first := read(q, false)
		if _, table := cat.take(); len(table) == 0 {
			t.Fatalf("%q: no table scanned on its first reading: the test no longer shows a cold source", q)
		}
		if again := read(q, true); !slices.Equal(again, first) {
			t.Errorf("%q read again: filters %q, first %q", q, again, first)
		}
		if _, table := cat.take(); len(table) != 0 {
			t.Errorf("%q read again scanned tables %v: want none", q, table)
		}
	}
}
