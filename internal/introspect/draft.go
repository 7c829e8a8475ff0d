package introspect

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/clarify-sql/clarify/internal/model"
)

// Draft turns a schema into the YAML of a semantic model for the source
// called name: one entity per table that has a key, with roles, types,
// labels, synonyms, references, display and time columns, and schema areas
// when table names share prefixes (the rules are in the package comment).
// The YAML starts with a comment saying it was drafted and what to review.
// It is checked with model.Parse before it is returned.
func Draft(s *Schema, name string) ([]byte, error) {
	if s == nil {
		return nil, fmt.Errorf("draft model %s: no schema", name)
	}
	if strings.TrimSpace(name) == "" {
		return nil, fmt.Errorf("draft model: empty source name")
	}
	d := newDrafter(s)
	if len(d.ents) == 0 {
		return nil, fmt.Errorf("draft model %s: no table to draft (%d tables read)", name, len(s.Tables))
	}
	out := d.emit(name)
	if _, err := model.Parse(name+".yaml", out); err != nil {
		return nil, fmt.Errorf("draft model %s: the draft does not load: %w", name, err)
	}
	return out, nil
}

// entity is the draft of one table.
type entity struct {
	t     *Table
	name  string
	words []string // the table name's words
	base  []string // the words after the area prefix
	area  string

	label, plural string
	synonyms      []string
	key           string
	keyPK         bool // key is the table's single-column primary key
	display       string
	timeColumn    string
	// validFrom and validTo bound when a row holds (from_date, to_date)
	validFrom, validTo string
	listColumns        []string
	cols               []*column
	byName             map[string]*column
	// link is set for a table that only links others (film_actor): its
	// rows are pairs, never what a question is about.
	link bool
}

// column is the draft of one column.
type column struct {
	c          *Column
	words      []string
	kind       Kind // the effective type family (samples decide for KindUnknown)
	role, typ  string
	label      string
	synonyms   []string
	references string
	aggregate  string
	unit       string
	unitWords  []string
	values     bool // values: {source: database}
	// trueValue and falseValue are a text flag's stored values ("Y", "N")
	trueValue, falseValue string
	// grain is "year" for a column of calendar years
	grain string
	// rangeLow and rangeHigh name the columns holding a measure's normal
	// limits
	rangeLow, rangeHigh string
	// expr is set for a computed column (a full name); parts are the
	// columns it is made of
	expr  fragment
	parts []*column
	// sameAs and precomputes name another table's column this one
	// repeats or summarizes
	sameAs, precomputes string
}

// skipped is a table left out of the model, and why.
type skipped struct{ table, why string }

// drafter builds the draft of one schema.
type drafter struct {
	s       *Schema
	ents    []*entity
	byTable map[string]*entity
	skipped []skipped
	// notes are review points specific to this database.
	notes []string
	areas []string
	// entityWords holds every phrase (normalized) that names an entity, so
	// that no column synonym shadows one.
	entityWords map[string]bool
	// vague are the drafted vague words, from the measures' distributions.
	vague []vagueTerm
	// measures are the drafted named aggregations (revenue).
	measures []namedMeasure
	// ranks say what "top" means per entity.
	ranks []ranking
}

func newDrafter(s *Schema) *drafter {
	d := &drafter{s: s, byTable: map[string]*entity{}, entityWords: map[string]bool{}}
	for _, name := range sortedKeys(s.Unreadable) {
		d.skip(name, "its rows could not be read ("+s.Unreadable[name]+")")
	}
	prefixes, areas := prefixes(s.Tables)
	for _, t := range orderTables(s.Tables) {
		if !utf8.ValidString(t.Name) {
			d.skip(strconv.Quote(t.Name), "its name is not valid UTF-8")
			continue
		}
		if !printable(t.Name) {
			d.skip(strconv.Quote(t.Name), "its name holds control characters")
			continue
		}
		if strings.Contains(t.Name, ".") {
			d.skip(t.Name, "its name contains a dot, which the model's entity.column references cannot express")
			continue
		}
		key, keyPK, note := chooseKey(t)
		if !utf8.ValidString(key) {
			d.skip(t.Name, "its key column's name is not valid UTF-8")
			continue
		}
		if note != "" {
			d.note(t.Name + ": " + note)
		}
		e := &entity{t: t, name: t.Name, words: splitName(t.Name), key: key, keyPK: keyPK, byName: map[string]*column{}}
		if len(e.words) == 0 { // a name of punctuation only
			e.words = []string{strings.ToLower(t.Name)}
		}
		e.base = e.words
		if p := prefixes[t.Name]; p != "" {
			e.base = e.words[1:]
			if areas {
				e.area = titleWord(p)
			}
		}
		d.ents = append(d.ents, e)
		d.byTable[t.Name] = e
	}
	if areas {
		seen := map[string]bool{}
		for _, e := range d.ents {
			if e.area != "" && !seen[e.area] {
				seen[e.area] = true
				d.areas = append(d.areas, e.area)
			}
		}
	}
	d.splitCompounds()
	d.labels()
	for _, e := range d.ents {
		d.columns(e)
		fullNames(e)
	}
	d.references()
	for _, e := range d.ents {
		d.display(e)
		d.roles(e)
	}
	d.secondSources()
	d.entitySynonyms()
	for _, e := range d.ents {
		for _, c := range e.cols {
			c.synonyms = d.columnSynonyms(e, c)
		}
		e.timeColumn = ownTimeColumn(e)
		e.validFrom, e.validTo = validity(e)
		ranges(e)
	}
	for _, e := range d.ents {
		if e.timeColumn == "" {
			e.timeColumn = d.inheritedTimeColumn(e)
		}
		e.listColumns = listColumns(e)
		e.link = linkTable(e)
	}
	d.linkRoles()
	d.revenue()
	d.rankings()
	d.vagueTerms()
	d.recentTerms()
	return d
}

// linkTable reports whether a table only links two or more others: every
// column is a reference, the key, a date or a flag, and at least two
// columns reference other entities (film_actor, playlist_track).
func linkTable(e *entity) bool {
	refs := 0
	for _, c := range e.cols {
		switch {
		case c.references != "":
			refs++
		case c.c.Name == e.key, c.role == model.RoleTime, c.role == model.RoleFlag:
		default:
			return false
		}
	}
	return refs >= 2
}

func (d *drafter) skip(table, why string) { d.skipped = append(d.skipped, skipped{table, why}) }

func (d *drafter) note(s string) { d.notes = append(d.notes, s) }

// orderTables puts referenced tables before the tables that reference
// them where it can (ties and cycles in name order), so the model reads
// from the general to the particular.
func orderTables(tables []*Table) []*Table {
	byName := map[string]*Table{}
	for _, t := range tables {
		byName[t.Name] = t
	}
	sorted := append([]*Table{}, tables...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	done := map[string]bool{}
	var out []*Table
	for len(out) < len(sorted) {
		progressed := false
		for _, t := range sorted {
			if done[t.Name] {
				continue
			}
			ready := true
			for _, fk := range t.ForeignKeys {
				if fk.RefTable != t.Name && byName[fk.RefTable] != nil && !done[fk.RefTable] {
					ready = false
					break
				}
			}
			if ready {
				done[t.Name] = true
				out = append(out, t)
				progressed = true
				break // restart so the alphabetically first ready table comes next
			}
		}
		if !progressed { // a cycle: take the first remaining table
			for _, t := range sorted {
				if !done[t.Name] {
					done[t.Name] = true
					out = append(out, t)
					break
				}
			}
		}
	}
	return out
}

// prefixes finds schema-area prefixes: the first word of table names such
// as sales_customers. A word is a prefix when at least two tables start
// with it; prefixes are used when they cover at least 60% of the tables
// (or a single prefix covers all of them, like wp_). It returns the prefix
// of each prefixed table and whether the prefixes make areas (two or more).
func prefixes(tables []*Table) (map[string]string, bool) {
	count := map[string]int{}
	for _, t := range tables {
		if w := splitName(t.Name); len(w) >= 2 {
			count[w[0]]++
		}
	}
	out := map[string]string{}
	distinct := map[string]bool{}
	for _, t := range tables {
		if w := splitName(t.Name); len(w) >= 2 && count[w[0]] >= 2 {
			out[t.Name] = w[0]
			distinct[w[0]] = true
		}
	}
	switch {
	case len(tables) == 0 || len(out) == 0:
		return nil, false
	case len(distinct) == 1 && len(out) == len(tables) && len(tables) >= 2:
		return out, false
	case len(distinct) >= 2 && len(out)*5 >= len(tables)*3:
		return out, true
	}
	return nil, false
}

// chooseKey picks an entity's key: the single-column primary key; a column
// of a composite key whose values are all distinct today; without a
// primary key a unique NOT NULL column, or an id-named column whose values
// are all distinct and present. Failing these the entity has no key: its
// rows are listed, counted, filtered and aggregated, never ranked one by
// one (a link table such as film_actor, a log without an id).
func chooseKey(t *Table) (key string, pk bool, note string) {
	distinct := func(c *Column) bool {
		return c != nil && t.Rows > 0 && !t.RowsEstimated && t.Rows <= SampleRows && c.Distinct == t.Rows
	}
	switch {
	case len(t.PrimaryKey) == 1:
		return t.PrimaryKey[0], true, ""
	case len(t.PrimaryKey) > 1:
		for _, k := range t.PrimaryKey {
			if !inForeignKey(t, k) && distinct(t.Column(k)) {
				return k, false, fmt.Sprintf("composite primary key (%s); the model's key is %s, whose values are distinct today",
					strings.Join(t.PrimaryKey, ", "), k)
			}
		}
		return "", false, fmt.Sprintf("composite primary key (%s) and no single column that tells rows apart: no key, so its rows "+
			"are listed, counted and aggregated but never ranked one by one", strings.Join(t.PrimaryKey, ", "))
	}
	for _, u := range t.Unique {
		if c := t.Column(u); c != nil && !c.Nullable {
			return u, false, fmt.Sprintf("no primary key; the key is %s, a unique NOT NULL column", u)
		}
	}
	for _, c := range t.Columns {
		w := splitName(c.Name)
		idNamed := len(w) > 0 && w[len(w)-1] == "id" && (len(w) == 1 || strings.Join(w[:len(w)-1], " ") == singularPhrase(splitName(t.Name)))
		if idNamed && distinct(c) {
			return c.Name, false, fmt.Sprintf("no primary key or unique constraint; the key is %s because its values are distinct today: declare it as the primary key", c.Name)
		}
	}
	return "", false, "no primary key and no unique NOT NULL column: no key, so its rows are listed, counted and aggregated " +
		"but never ranked one by one; declare a primary key and draft again to rank them"
}

func inForeignKey(t *Table, col string) bool {
	for _, fk := range t.ForeignKeys {
		if contains(fk.Columns, col) {
			return true
		}
	}
	return false
}

// splitCompounds finds the words of a table name written as one word
// (productlines, orderdetails): a column whose words spell it (productLine)
// says where they part; failing that, another table's name that begins it
// (order + details). Only names of one word of eight letters or more are
// split, and only into parts of three letters or more.
func (d *drafter) splitCompounds() {
	for _, e := range d.ents {
		if len(e.words) != 1 || len(e.words[0]) < 8 || len(e.base) != 1 {
			continue
		}
		w := e.words[0]
		var parts []string
		for _, c := range e.t.Columns {
			cw := splitName(c.Name)
			if len(cw) >= 2 && (strings.Join(cw, "") == w || strings.Join(cw, "") == singular(w)) && allLen(cw, 3) {
				parts = cw
				if strings.Join(cw, "") != w { // the table name is the plural
					parts[len(parts)-1] = w[len(strings.Join(cw[:len(cw)-1], "")):]
				}
				break
			}
		}
		if parts == nil {
			// the longest other table name that begins this one
			for _, o := range d.ents {
				ow := singularPhrase(o.words)
				if o == e || strings.Contains(ow, " ") || len(ow) < 3 || !strings.HasPrefix(w, ow) || len(w)-len(ow) < 3 {
					continue
				}
				if parts == nil || len(ow) > len(parts[0]) {
					parts = []string{ow, w[len(ow):]}
				}
			}
		}
		if parts != nil {
			e.words, e.base = parts, parts
		}
	}
}

func allLen(ws []string, n int) bool {
	for _, w := range ws {
		if len(w) < n {
			return false
		}
	}
	return true
}

// labels sets each entity's label and plural from its table name without
// the area prefix (sales_customers → customer, customers). When two
// entities would get the same label, both keep their whole names.
func (d *drafter) labels() {
	byLabel := map[string][]*entity{}
	for _, e := range d.ents {
		// cars_data is about cars, model_list about models
		if n := len(e.base); n > 1 && genericTail[e.base[n-1]] {
			e.base = e.base[:n-1]
		}
		e.label = singularPhrase(e.base)
		byLabel[e.label] = append(byLabel[e.label], e)
	}
	for _, es := range byLabel {
		if len(es) < 2 {
			continue
		}
		for _, e := range es {
			e.base = e.words
			e.label = singularPhrase(e.words)
		}
	}
	for _, e := range d.ents {
		if e.label == "" {
			e.label = strings.ToLower(e.name)
		}
		e.plural = pluralPhrase(e.label)
		if last := e.words[len(e.words)-1]; singular(last) != last && len(e.base) > 0 && e.base[len(e.base)-1] == last {
			// the table name is already plural: keep its own spelling
			e.plural = strings.Join(e.base, " ")
		}
	}
}

// genericTail are last words of table names that say nothing of what the
// rows are (cars_data, model_list).
var genericTail = map[string]bool{"data": true, "info": true, "information": true, "details": true, "list": true,
	"lists": true, "table": true, "tbl": true, "records": true, "master": true, "tab": true}

// columns creates the column drafts; columns of a type no question can
// use (binary, JSON, arrays, intervals…) are left out.
func (d *drafter) columns(e *entity) {
	var left []string
	for _, c := range e.t.Columns {
		k := effectiveKind(c)
		if !utf8.ValidString(c.Name) {
			left = append(left, strconv.Quote(c.Name)+" (its name is not valid UTF-8)")
			continue
		}
		if !printable(c.Name) {
			left = append(left, strconv.Quote(c.Name)+" (its name holds control characters)")
			continue
		}
		if k == KindOther && c.Name != e.key {
			left = append(left, c.Name+" ("+c.DeclaredType+", a type questions cannot use)")
			continue
		}
		if secretNamed(splitName(c.Name)) && c.Name != e.key {
			left = append(left, c.Name+" (a secret: never shown, matched or loaded)")
			continue
		}
		col := &column{c: c, words: splitName(c.Name), kind: k}
		if len(col.words) == 0 {
			col.words = []string{strings.ToLower(c.Name)}
		}
		e.cols = append(e.cols, col)
		e.byName[c.Name] = col
	}
	if len(left) > 0 {
		d.note(fmt.Sprintf("%s: left out %s", e.name, strings.Join(left, ", ")))
	}
}

// references links foreign-key columns to the entities they reference:
// declared single-column foreign keys first, then columns named like
// another table's key (author_id → authors.author_id) when none is declared.
func (d *drafter) references() {
	for _, e := range d.ents {
		for _, fk := range e.t.ForeignKeys {
			c := e.byName[fk.Columns[0]]
			if c == nil || c.references != "" {
				continue
			}
			if len(fk.Columns) != 1 {
				d.note(fmt.Sprintf("%s: the composite foreign key (%s) → %s is not a join path (the model joins on one column)",
					e.name, strings.Join(fk.Columns, ", "), fk.RefTable))
				continue
			}
			to := d.byTable[fk.RefTable]
			if to == nil || to.byName[fk.RefColumns[0]] == nil {
				continue // the referenced table was skipped
			}
			c.references = to.name + "." + fk.RefColumns[0]
		}
	}
	for _, e := range d.ents {
		for _, c := range e.cols {
			if c.references != "" || c.c.Name == e.key && e.keyPK {
				continue
			}
			if to := d.inferReference(e, c); to != nil {
				c.references = to.name + "." + to.key
				d.note(fmt.Sprintf("%s.%s: references %s.%s by its name (no foreign key is declared)", e.name, c.c.Name, to.name, to.key))
			}
		}
	}
}

// inferReference finds the entity a column named <thing>_id refers to: the
// entity whose label (or table name) is thing, or its last words
// (salesperson_person_id → person), with a key of the same type family.
func (d *drafter) inferReference(e *entity, c *column) *entity {
	w := c.words
	if len(w) < 2 || w[len(w)-1] != "id" {
		return nil
	}
	stem := w[:len(w)-1]
	for i := 0; i < len(stem); i++ {
		want := singularPhrase(stem[i:])
		for _, to := range d.ents {
			if !to.keyPK || (to == e && c.c.Name == e.key) {
				continue
			}
			if to.label != want && singularPhrase(to.words) != want {
				continue
			}
			k := to.byName[to.key]
			if k != nil && sameFamily(k.kind, c.kind) {
				return to
			}
		}
	}
	return nil
}

func sameFamily(a, b Kind) bool {
	num := func(k Kind) bool { return k == KindInteger || k == KindNumeric }
	return a == b || num(a) && num(b)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// printable reports whether a name has no control characters, which a
// model may not hold.
func printable(s string) bool {
	for _, r := range s {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}
