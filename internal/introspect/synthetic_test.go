package introspect_test

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/clarify-sql/clarify/internal/introspect"
	"github.com/clarify-sql/clarify/internal/model"
)

// col builds an inspected column; distinct and samples as Inspect would
// measure them.
func col(name, declared string, distinct int64, samples ...string) *introspect.Column {
	return &introspect.Column{Name: name, DeclaredType: declared, Kind: introspect.KindOf(declared), Distinct: distinct, Samples: samples}
}

func table(name string, rows int64, pk []string, cols ...*introspect.Column) *introspect.Table {
	return &introspect.Table{Name: name, Rows: rows, Sampled: rows, PrimaryKey: pk, Columns: cols}
}

// TestDraftSynthetic drafts hand-built schemas for the cases the test
// databases do not show: camelCase names without foreign keys, a prefix
// shared by every table, labels that collide, odd types and names.
func TestDraftSynthetic(t *testing.T) {
	t.Parallel()
	chinook := &introspect.Schema{Dialect: model.SQLite, Tables: []*introspect.Table{
		table("Customer", 59, []string{"CustomerId"},
			col("CustomerId", "INTEGER", 59), col("FirstName", "NVARCHAR(40)", 57), col("LastName", "NVARCHAR(20)", 59),
			col("Country", "NVARCHAR(40)", 24)),
		table("Invoice", 412, []string{"InvoiceId"},
			col("InvoiceId", "INTEGER", 412), col("CustomerId", "INTEGER", 59), col("InvoiceDate", "DATETIME", -1),
			col("BillingCountry", "NVARCHAR(40)", 24), col("Total", "NUMERIC(10,2)", -1)),
		table("InvoiceLine", 2240, []string{"InvoiceLineId"},
			col("InvoiceLineId", "INTEGER", 2240), col("InvoiceId", "INTEGER", 412), col("TrackId", "INTEGER", 1984),
			col("UnitPrice", "NUMERIC(10,2)", -1), col("Quantity", "INTEGER", 1, "1")),
	}}
	wordpress := &introspect.Schema{Dialect: model.MySQL, Tables: []*introspect.Table{
		table("wp_posts", 100, []string{"ID"}, col("ID", "bigint(20) unsigned", 100), col("post_title", "text", 100),
			col("post_status", "varchar(20)", 3, "draft", "private", "publish"), col("post_date", "datetime", -1),
			col("post_author", "bigint(20) unsigned", 4)),
		table("wp_users", 4, []string{"ID"}, col("ID", "bigint(20) unsigned", 4), col("user_login", "varchar(60)", 4),
			col("display_name", "varchar(250)", 4)),
	}}
	areas := &introspect.Schema{Dialect: model.Postgres, Tables: []*introspect.Table{
		table("sales_orders", 10, []string{"id"}, col("id", "integer", 10), col("placed_at", "timestamp with time zone", -1)),
		table("sales_customers", 10, []string{"id"}, col("id", "integer", 10), col("name", "text", 10)),
		table("purchasing_orders", 10, []string{"id"}, col("id", "integer", 10), col("is_open", "boolean", -1)),
		table("purchasing_suppliers", 10, []string{"id"}, col("id", "integer", 10), col("name", "text", 10),
			col("created_at", "bigint", 10, "1700000000"), col("notes", "jsonb", -1)),
		table("logs", 5, nil, col("line", "text", 5)),
		table("odd.name", 5, []string{"id"}, col("id", "integer", 5)),
	}, Unreadable: map[string]string{"secrets": "permission denied for table secrets"}}
	untyped := &introspect.Schema{Dialect: model.SQLite, Tables: []*introspect.Table{
		table("things", 40, []string{"code"},
			&introspect.Column{Name: "code", Kind: introspect.KindText, Distinct: 40, MaxLen: 3, Samples: []string{"AAA", "AAB"}},
			&introspect.Column{Name: "seen", Kind: introspect.KindUnknown, Distinct: 40, Samples: []string{"2024-01-01 10:00:00", "2024-01-02"}},
			&introspect.Column{Name: "weight", Kind: introspect.KindUnknown, Distinct: 40, Samples: []string{"1.5", "2"}},
			&introspect.Column{Name: "count", Kind: introspect.KindUnknown, Distinct: 40, Samples: []string{"1", "2"}},
			&introspect.Column{Name: "shade", Kind: introspect.KindUnknown, Distinct: 3, MaxLen: 5, Samples: []string{"blue", "green", "red"}}),
	}}
	for _, tc := range []struct {
		name   string
		schema *introspect.Schema
		checks []fieldCheck
		text   []string // substrings of the YAML
	}{
		{"camelCase without foreign keys", chinook, []fieldCheck{
			{"Invoice", "", "label", "invoice"},
			{"InvoiceLine", "", "label", "invoice line"},
			{"InvoiceLine", "", "plural", "invoice lines"},
			{"Customer", "", "display", "full_name"},
			{"Invoice", "CustomerId", "references", "Customer.CustomerId"},
			{"InvoiceLine", "InvoiceId", "references", "Invoice.InvoiceId"},
			{"InvoiceLine", "TrackId", "references", ""},
			{"InvoiceLine", "TrackId", "role", "id"},
			{"Invoice", "", "time_column", "InvoiceDate"},
			{"InvoiceLine", "", "time_column", "Invoice.InvoiceDate"},
			{"Invoice", "InvoiceDate", "label", "invoice date"},
			{"Invoice", "InvoiceDate", "type", "timestamp"},
			{"Invoice", "BillingCountry", "role", "dimension"},
			{"InvoiceLine", "UnitPrice", "aggregate", "avg"},
			{"InvoiceLine", "Quantity", "role", "measure"},
		}, []string{"synonyms: [invoice date, invoiced, invoiced date, date]", "Invoice.CustomerId: references Customer.CustomerId by its name"}},
		{"one prefix shared by every table", wordpress, []fieldCheck{
			{"wp_posts", "", "label", "post"},
			{"wp_users", "", "plural", "users"},
			{"wp_posts", "", "area", ""},
			{"wp_posts", "", "display", "post_title"},
			{"wp_users", "", "display", "display_name"},
			{"wp_posts", "post_status", "role", "dimension"},
			{"wp_posts", "post_title", "role", "name"},
		}, nil},
		{"areas, colliding labels, odd types", areas, []fieldCheck{
			{"sales_orders", "", "label", "sales order"},
			{"purchasing_orders", "", "label", "purchasing order"},
			{"sales_customers", "", "label", "customer"},
			{"sales_customers", "", "area", "Sales"},
			{"purchasing_suppliers", "", "area", "Purchasing"},
			{"sales_orders", "placed_at", "type", "timestamp"},
			{"sales_orders", "", "time_column", "placed_at"},
			{"purchasing_orders", "is_open", "role", "flag"},
			{"purchasing_orders", "is_open", "type", "boolean"},
			{"purchasing_orders", "is_open", "label", "open"},
			{"purchasing_suppliers", "created_at", "role", "text"},
			{"purchasing_suppliers", "", "time_column", ""},
		}, []string{
			"- logs: no primary key and no unique NOT NULL column: no key",
			"# Table odd.name is not in the model: its name contains a dot",
			"# Table secrets is not in the model: its rows could not be read (permission denied",
			"by introspection (5 of 7",
			"purchasing_suppliers: left out notes (jsonb, a type questions cannot use)",
			"purchasing_suppliers.created_at: named like a time but holds integers",
		}},
		{"untyped SQLite columns and a code key", untyped, []fieldCheck{
			{"things", "code", "role", "name"},
			{"things", "seen", "type", "timestamp"},
			{"things", "weight", "type", "real"},
			{"things", "count", "type", "integer"},
			{"things", "count", "role", "measure"},
			{"things", "shade", "role", "dimension"},
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, m := draft(t, tc.schema, "synthetic")
			if !checkFields(t, m, tc.checks) {
				t.Logf("the draft:\n%s", out)
			}
			for _, s := range tc.text {
				if !strings.Contains(string(out), s) {
					t.Errorf("the draft lacks %q:\n%s", s, out)
				}
			}
		})
	}
}

func TestDraftErrors(t *testing.T) {
	t.Parallel()
	noKeys := &introspect.Schema{Dialect: model.SQLite, Tables: []*introspect.Table{table("log", 3, nil, col("line", "TEXT", 3))}}
	for _, tc := range []struct {
		name   string
		schema *introspect.Schema
		source string
	}{
		{"no schema", nil, "x"},
		{"no source name", noKeys, ""},
		{"no tables", &introspect.Schema{Dialect: model.SQLite}, "x"},
	} {
		if _, err := introspect.Draft(tc.schema, tc.source); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	// a table without any key is still drafted, as an entity without a key
	if _, err := introspect.Draft(noKeys, "x"); err != nil {
		t.Errorf("a table without a key: %v", err)
	}
}

// FuzzDraftNames drafts a table whose names are arbitrary: the YAML must
// always load (quoting), or Draft must say why not.
func FuzzDraftNames(f *testing.F) {
	for _, seed := range [][3]string{
		{"orders", "order_date", "status"},
		{"Order Details", "Unit Price", "yes"},
		{"t", "null", "on"},
		{"#x", "a: b", "[c]"},
		{"日本", "名前", "\"quoted\""},
		{"x\ny", "- item", "{k: v}"},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	f.Fuzz(func(t *testing.T, tbl, c1, c2 string) {
		if tbl == "" || c1 == "" || c2 == "" || c1 == c2 || c1 == "id" || c2 == "id" || strings.ContainsRune(tbl, '.') {
			return
		}
		s := &introspect.Schema{Dialect: model.SQLite, Tables: []*introspect.Table{
			table(tbl, 10, []string{"id"}, col("id", "INTEGER", 10), col(c1, "TEXT", 3, "a", "b", "c"), col(c2, "REAL", -1)),
		}}
		out, err := introspect.Draft(s, "fuzz")
		if !utf8.ValidString(tbl) || !printable(tbl) {
			return // the only table is left out: there is nothing to draft
		}
		if err != nil {
			t.Fatalf("Draft: %v", err)
		}
		m, err := model.Parse("fuzz.yaml", out)
		if err != nil {
			t.Fatal(err)
		}
		if !utf8.ValidString(c1) || !utf8.ValidString(c2) || !printable(c1) || !printable(c2) {
			return // such names are left out, and said so
		}
		e := m.Entity(tbl)
		if e == nil || e.Column(c1) == nil || e.Column(c2) == nil || !slices.Contains(e.ListColumns, "id") {
			t.Fatalf("names did not survive the round trip:\n%s", out)
		}
	})
}

func printable(s string) bool {
	for _, r := range s {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// TestDraftYearColumns checks which columns are drafted as calendar years
// (grain: year): named for a year and holding years, as numbers or text.
func TestDraftYearColumns(t *testing.T) {
	t.Parallel()
	years := func(c *introspect.Column, q ...float64) *introspect.Column {
		c.Quantiles = q
		return c
	}
	s := &introspect.Schema{Dialect: model.SQLite, Tables: []*introspect.Table{
		table("museums", 40, []string{"id"}, col("id", "INTEGER", 40), col("name", "TEXT", 40),
			years(col("birth_year", "REAL", 30), 1901, 1930, 1950, 1961, 1970, 1988, 1999),
			years(col("founded_year", "INTEGER", 30), -1523, 1200, 1800, 1900, 1950, 1980, 1994),
			col("open_year", "TEXT", 12, "1999", "2008", "2013"),
			years(col("school_year", "INTEGER", 12), 1, 2, 4, 6, 8, 10, 12),
			years(col("years_open", "INTEGER", 30), 1, 5, 10, 20, 30, 50, 80),
			col("year_code", "TEXT", 3, "Y1", "Y2"),
			years(col("model_year", "INTEGER", 30), 1970, 1972, 1975, 1977, 1979, 1981, 3100)),
	}}
	_, m := draft(t, s, "museums")
	e := m.Entity("museums")
	for name, want := range map[string]bool{"birth_year": true, "founded_year": true, "open_year": true,
		"school_year": false, "years_open": false, "year_code": false, "model_year": false} {
		c := e.Column(name)
		if c == nil {
			t.Fatalf("no column %s", name)
		}
		if got := c.HoldsYears(); got != want {
			t.Errorf("%s holds years = %v, want %v", name, got, want)
		}
	}
	if c := e.Column("birth_year"); !slices.Contains(c.Synonyms, "born") || c.Aggregate != "" {
		t.Errorf("birth_year: synonyms %q, aggregate %q; want \"born\" and no aggregate", c.Synonyms, c.Aggregate)
	}
	if c := e.Column("open_year"); !slices.Contains(c.Synonyms, "opened") || c.FromDatabase() {
		t.Errorf("open_year: synonyms %q, values from the database %v; want \"opened\" and none", c.Synonyms, c.FromDatabase())
	}
}

// TestDraftShortenedNames checks names shortened in a schema: fname and
// lname (behind a table prefix) make a full name, lvl is a level.
func TestDraftShortenedNames(t *testing.T) {
	t.Parallel()
	s := &introspect.Schema{Dialect: model.SQLite, Tables: []*introspect.Table{
		table("authors", 20, []string{"au_id"}, col("au_id", "TEXT", 20, "172-32-1176"), col("au_lname", "TEXT", 19, "Bennet", "Blotchet-Halls"),
			col("au_fname", "TEXT", 19, "Abraham", "Reginald"), col("job_lvl", "INTEGER", 12)),
	}}
	_, m := draft(t, s, "authors")
	e := m.Entity("authors")
	full := e.Column("au_full_name")
	if full == nil || !full.Computed() || e.Display != "au_full_name" {
		t.Fatalf("no full name made of au_fname and au_lname shown for authors (display %q)", e.Display)
	}
	for col, want := range map[string]string{"au_fname": "au first name", "au_lname": "au last name", "job_lvl": "job level"} {
		if c := e.Column(col); c == nil || !slices.Contains(c.Synonyms, want) {
			t.Errorf("%s: want synonym %q", col, want)
		}
	}
}

// TestDraftRepeatedCategories: a text column of spelled-out categories
// ("Constitutional Monarchy", "US Territory") has too many values to be
// low-cardinality and runs longer than a city, but its values repeat: it
// is a dimension whose values are matched. Long text that does not
// repeat stays free text.
func TestDraftRepeatedCategories(t *testing.T) {
	t.Parallel()
	form := col("government_form", "TEXT", 60, "Constitutional Monarchy", "US Territory")
	form.MaxLen = 44
	notes := col("notes", "TEXT", 230, "Joined the federation in 1990 after a referendum")
	notes.MaxLen = 70
	s := &introspect.Schema{Dialect: model.SQLite, Tables: []*introspect.Table{
		table("countries", 239, []string{"code"}, col("code", "TEXT", 239, "ABW"), col("name", "TEXT", 239, "Aruba"), form, notes),
	}}
	_, m := draft(t, s, "countries")
	e := m.Entity("countries")
	if c := e.Column("government_form"); c.Role != model.RoleDimension || !c.FromDatabase() {
		t.Errorf("government_form: role %s, values from the database %v; want a dimension with its values", c.Role, c.FromDatabase())
	}
	if c := e.Column("notes"); c.Role != model.RoleText {
		t.Errorf("notes: role %s, want text", c.Role)
	}
}

// TestDraftNameShapes checks the words a name's shape gives: a trailing
// number counts parts (never a synonym by itself), "<participle> by" names
// who did it, a code column its thing, a participle its event, "X of Y"
// reads both ways, and a reference holding codes its own name.
func TestDraftNameShapes(t *testing.T) {
	t.Parallel()
	shows := table("shows", 20, []string{"id"}, col("id", "INTEGER", 20), col("title", "TEXT", 20, "Pilot"),
		col("directed_by", "TEXT", 8, "Ann Lee"), col("line_1", "TEXT", 20, "1 Main St"), col("role_code", "TEXT", 3, "VT"),
		col("date_departed", "DATE", 20), col("level_of_membership", "INTEGER", 5), col("cell_number", "TEXT", 20, "555-0101"),
		col("type_code", "TEXT", 4, "BK", "PP"))
	shows.ForeignKeys = []introspect.ForeignKey{{Columns: []string{"type_code"}, RefTable: "template_types", RefColumns: []string{"type_code"}}}
	s := &introspect.Schema{Dialect: model.SQLite, Tables: []*introspect.Table{
		table("template_types", 4, []string{"type_code"}, col("type_code", "TEXT", 4, "BK", "PP")), shows,
	}}
	_, m := draft(t, s, "shows")
	e := m.Entity("shows")
	for col, want := range map[string]string{"directed_by": "director", "line_1": "first line", "role_code": "role",
		"date_departed": "departure date", "level_of_membership": "membership level", "cell_number": "cell phone", "type_code": "type code"} {
		c := e.Column(col)
		if c == nil || !slices.Contains(c.Synonyms, want) {
			t.Errorf("%s: want synonym %q", col, want)
		}
	}
	if c := e.Column("line_1"); slices.Contains(c.Synonyms, "1") {
		t.Errorf("line_1 has the synonym \"1\": %q", c.Synonyms)
	}
}

// TestDraftLinkRoles: the role a table's rows play in a link table names
// the table ("student" of Friend.student_id names highschoolers); a verb
// ("liked" of liked_id) does not.
func TestDraftLinkRoles(t *testing.T) {
	t.Parallel()
	friend := table("friend", 30, []string{"student_id", "friend_id"}, col("student_id", "INTEGER", 20), col("friend_id", "INTEGER", 20))
	friend.ForeignKeys = []introspect.ForeignKey{{Columns: []string{"student_id"}, RefTable: "highschooler", RefColumns: []string{"id"}},
		{Columns: []string{"friend_id"}, RefTable: "highschooler", RefColumns: []string{"id"}}}
	likes := table("likes", 30, []string{"student_id", "liked_id"}, col("student_id", "INTEGER", 20), col("liked_id", "INTEGER", 20))
	likes.ForeignKeys = []introspect.ForeignKey{{Columns: []string{"student_id"}, RefTable: "highschooler", RefColumns: []string{"id"}},
		{Columns: []string{"liked_id"}, RefTable: "highschooler", RefColumns: []string{"id"}}}
	s := &introspect.Schema{Dialect: model.SQLite, Tables: []*introspect.Table{
		table("highschooler", 20, []string{"id"}, col("id", "INTEGER", 20), col("name", "TEXT", 20, "Ann"), col("grade", "INTEGER", 4)),
		friend, likes,
	}}
	_, m := draft(t, s, "school")
	e := m.Entity("highschooler")
	if !slices.Contains(e.Synonyms, "students") {
		t.Errorf("highschooler synonyms %q lack \"students\"", e.Synonyms)
	}
	if slices.Contains(e.Synonyms, "liked") {
		t.Errorf("highschooler synonyms %q have the verb \"liked\"", e.Synonyms)
	}
}
