package introspect

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/clarify-sql/clarify/internal/model"
)

// emit writes the draft as model YAML in the style of the hand-written
// models: one block per entity, one flow mapping per column, comments
// for what a person should review.
func (d *drafter) emit(name string) []byte {
	var b bytes.Buffer
	d.header(&b, name)
	fmt.Fprintf(&b, "source: %s\n", scalar(name))
	fmt.Fprintf(&b, "description: %s\n\n", scalar(d.description()))
	b.WriteString("entities:\n")
	for i, e := range d.ents {
		if i > 0 {
			b.WriteString("\n")
		}
		writeEntity(&b, e)
	}
	for _, s := range d.skipped {
		b.WriteString("\n")
		writeComment(&b, "  ", fmt.Sprintf("Table %s is not in the model: %s.", s.table, s.why))
	}
	if len(d.measures) > 0 {
		b.WriteString("\nmeasures:\n")
		for _, m := range d.measures {
			writeMeasure(&b, m)
		}
	}
	if len(d.ranks) > 0 {
		b.WriteString("\nrankings:\n")
		for _, r := range d.ranks {
			writeRanking(&b, r)
		}
	}
	if len(d.vague) > 0 {
		b.WriteString("\nvague_terms:\n")
		for _, v := range d.vague {
			writeVague(&b, v)
		}
	}
	if len(d.areas) > 0 {
		b.WriteString("\nareas:\n")
		for _, a := range d.areas {
			fmt.Fprintf(&b, "  - name: %s\n", scalar(a))
			fmt.Fprintf(&b, "    description: %s\n", scalar(d.areaDescription(a)))
		}
	}
	return b.Bytes()
}

func writeEntity(b *bytes.Buffer, e *entity) {
	fmt.Fprintf(b, "  - name: %s\n", scalar(e.name))
	fmt.Fprintf(b, "    label: %s\n", scalar(e.label))
	fmt.Fprintf(b, "    plural: %s\n", scalar(e.plural))
	if len(e.synonyms) > 0 {
		fmt.Fprintf(b, "    synonyms: %s\n", flowList(e.synonyms))
	}
	if e.key != "" {
		fmt.Fprintf(b, "    key: %s\n", scalar(e.key))
	}
	if e.display != "" {
		fmt.Fprintf(b, "    display: %s\n", scalar(e.display))
	}
	if e.area != "" {
		fmt.Fprintf(b, "    area: %s\n", scalar(e.area))
	}
	if e.timeColumn != "" {
		fmt.Fprintf(b, "    time_column: %s\n", scalar(e.timeColumn))
	}
	if e.validTo != "" {
		fmt.Fprintf(b, "    validity: {from: %s, to: %s}\n", scalar(e.validFrom), scalar(e.validTo))
	}
	if len(e.listColumns) > 0 {
		fmt.Fprintf(b, "    list_columns: %s\n", flowList(e.listColumns))
	}
	b.WriteString("    columns:\n")
	for _, c := range e.cols {
		fmt.Fprintf(b, "      - %s\n", columnYAML(c))
	}
}

func writeMeasure(b *bytes.Buffer, m namedMeasure) {
	fmt.Fprintf(b, "  - name: %s\n", scalar(m.name))
	fmt.Fprintf(b, "    label: %s\n", scalar(m.label))
	fmt.Fprintf(b, "    entity: %s\n", scalar(m.entity))
	if len(m.synonyms) > 0 {
		fmt.Fprintf(b, "    synonyms: %s\n", flowList(m.synonyms))
	}
	if m.expr.mysql == m.expr.sql {
		fmt.Fprintf(b, "    expr: %s\n", strconv.Quote(m.expr.sql))
	} else {
		fmt.Fprintf(b, "    expr: {sql: %s, mysql: %s}\n", strconv.Quote(m.expr.sql), strconv.Quote(m.expr.mysql))
	}
	fmt.Fprintf(b, "    aggregate: %s\n", m.aggregate)
	if m.description != "" {
		fmt.Fprintf(b, "    description: %s\n", scalar(m.description))
	}
}

func writeRanking(b *bytes.Buffer, r ranking) {
	fmt.Fprintf(b, "  - entity: %s\n", scalar(r.entity))
	b.WriteString("    metrics:\n")
	for _, m := range r.metrics {
		parts := []string{"id: " + scalar(m.id), "label: " + scalar(capitalize(m.label))}
		switch {
		case m.measure != "":
			parts = append(parts, "measure: "+scalar(m.measure))
		case m.count != "":
			parts = append(parts, "count: "+scalar(m.count))
		default:
			parts = append(parts, "column: "+scalar(m.column), "aggregate: "+m.agg)
		}
		if m.isDefault {
			parts = append(parts, "default: true", fmt.Sprintf("confidence: %g", m.confidence))
		}
		fmt.Fprintf(b, "      - {%s}\n", strings.Join(parts, ", "))
	}
}

func writeVague(b *bytes.Buffer, v vagueTerm) {
	fmt.Fprintf(b, "  - name: %s\n", scalar(v.name))
	fmt.Fprintf(b, "    words: %s\n", flowList(v.words))
	fmt.Fprintf(b, "    applies_to: [%s]\n", scalar(v.entity))
	if len(v.superlatives) > 0 {
		fmt.Fprintf(b, "    superlatives: %s\n", flowList(v.superlatives))
		fmt.Fprintf(b, "    order: %s\n", scalar(v.order))
	}
	b.WriteString("    options:\n")
	for _, o := range v.options {
		parts := []string{"id: " + scalar(o.id), "label: " + scalar(o.label)}
		if o.description != "" {
			parts = append(parts, "description: "+scalar(o.description))
		}
		if o.last != "" {
			parts = append(parts, "last: "+scalar(o.last))
		} else {
			parts = append(parts, "condition: "+scalar(o.condition))
		}
		if o.best {
			parts = append(parts, "best_guess: true")
		}
		fmt.Fprintf(b, "      - {%s}\n", strings.Join(parts, ", "))
	}
}

// columnYAML renders one column as a flow mapping.
func columnYAML(c *column) string {
	parts := []string{"name: " + scalar(c.c.Name), "role: " + c.role, "type: " + c.typ}
	if c.label != "" {
		parts = append(parts, "label: "+scalar(c.label))
	} else if h := humanize(c.c.Name); h != strings.ToLower(strings.ReplaceAll(c.c.Name, "_", " ")) {
		parts = append(parts, "label: "+scalar(h)) // camelCase: OrderDate → order date
	}
	if len(c.synonyms) > 0 {
		parts = append(parts, "synonyms: "+flowList(c.synonyms))
	}
	if c.expr.sql != "" {
		parts = append(parts, "expr: {sql: "+strconv.Quote(c.expr.sql)+", mysql: "+strconv.Quote(c.expr.mysql)+"}")
	}
	if c.references != "" {
		parts = append(parts, "references: "+scalar(c.references))
	}
	if c.sameAs != "" {
		parts = append(parts, "same_as: "+scalar(c.sameAs))
	}
	if c.precomputes != "" {
		parts = append(parts, "precomputes: "+scalar(c.precomputes))
	}
	if c.grain != "" {
		parts = append(parts, "grain: "+c.grain)
	}
	if c.rangeLow != "" || c.rangeHigh != "" {
		parts = append(parts, fmt.Sprintf("range: {low: %s, high: %s}", scalar(c.rangeLow), scalar(c.rangeHigh)))
	}
	if c.unit != "" {
		parts = append(parts, "unit: "+scalar(c.unit))
	}
	if len(c.unitWords) > 0 {
		parts = append(parts, "unit_words: "+flowList(c.unitWords))
	}
	if c.aggregate != "" {
		parts = append(parts, "aggregate: "+c.aggregate)
	}
	if c.trueValue != "" {
		parts = append(parts, "true_value: "+strconv.Quote(c.trueValue), "false_value: "+strconv.Quote(c.falseValue))
	}
	if c.values {
		parts = append(parts, "values: {source: database}")
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func flowList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = scalar(x)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// scalar renders a string as a YAML scalar that is safe in flow context:
// plain when it is a simple phrase, double-quoted otherwise.
func scalar(s string) string {
	if plainSafe(s) {
		return s
	}
	return strconv.Quote(s)
}

func plainSafe(s string) bool {
	if s == "" || strings.TrimSpace(s) != s {
		return false
	}
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~":
		return false
	}
	for i, r := range s {
		switch {
		case unicode.IsLetter(r), r == '_':
		case i == 0:
			return false
		case unicode.IsDigit(r), r == ' ', r == '.', r == '-', r == '/', r == '(', r == ')', r == '²', r == '%', r == '$':
		default:
			return false
		}
	}
	return true
}

// writeComment writes text as YAML comment lines wrapped near 100 columns.
func writeComment(b *bytes.Buffer, indent, text string) {
	text = strings.Map(func(r rune) rune {
		if !unicode.IsPrint(r) && !unicode.IsSpace(r) {
			return '?'
		}
		return r
	}, text)
	line := indent + "#"
	for _, w := range strings.Fields(text) {
		if len(line)+1+len(w) > 100 && len(line) > len(indent)+2 {
			b.WriteString(line + "\n")
			line = indent + "#  "
		}
		line += " " + w
	}
	b.WriteString(line + "\n")
}

// header explains that the model was drafted and what to review.
func (d *drafter) header(b *bytes.Buffer, name string) {
	kept := len(d.ents)
	writeComment(b, "", fmt.Sprintf("Semantic model of source %s, drafted from its %s database by introspection "+
		"(%d of %d tables). Format: docs/model.md.", name, dialectName(d.s.Dialect), kept, len(d.s.Tables)+len(d.s.Unreadable)))
	writeComment(b, "", "It answers plain questions as it is: list, count, filter by stored values, group by a "+
		"column or a related table, rank by a number, and it asks when two columns fit a word equally well. Review:")
	for _, r := range []string{
		"labels and synonyms: add the words your users say for each table and column;",
		"display: the column that names a row in answers;",
		"roles: dimension and name columns have their values matched in questions, text columns never; " +
			"measures are summed or averaged (avg for prices, rates, scores, ages, percentages, sizes);",
		"time_column: the date that places a row in \"last 30 days\" or \"per month\";",
		"validity: the dates between which a row holds (a salary from_date to to_date), read for \"current\" and \"now\";",
		"what a database cannot tell: named measures (revenue = quantity × price), business terms, " +
			"vague words (large, recent) with their options, rankings and scope.",
	} {
		writeComment(b, "", "  - "+r)
	}
	if len(d.notes) > 0 || len(d.skipped) > 0 {
		writeComment(b, "", "Drafting notes for this database:")
		for _, s := range d.skipped {
			writeComment(b, "", "  - "+s.table+": skipped (see the comment after the entities).")
		}
		for _, n := range d.notes {
			writeComment(b, "", "  - "+n+".")
		}
	}
}

func dialectName(d model.Dialect) string {
	switch d {
	case model.SQLite:
		return "SQLite"
	case model.Postgres:
		return "PostgreSQL"
	case model.MySQL:
		return "MySQL"
	}
	return string(d)
}

// description lists what the source holds.
func (d *drafter) description() string {
	var names []string
	for i, e := range d.ents {
		if i == 8 {
			names = append(names, fmt.Sprintf("%d more tables", len(d.ents)-8))
			break
		}
		names = append(names, e.plural)
	}
	return capitalize(joinAnd(names)) + " (a drafted model)."
}

func (d *drafter) areaDescription(area string) string {
	var names []string
	for _, e := range d.ents {
		if e.area == area {
			names = append(names, e.plural)
		}
	}
	return joinAnd(names)
}

func joinAnd(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}
