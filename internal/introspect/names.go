package introspect

import "strings"

// fullNames adds, for each pair of first- and last-name columns of an
// entity (first_name and last_name, contactFirstName and
// contactLastName), a computed column holding both, first name first: a
// person is named and shown by their full name ("Nina Patel"), a full name
// in a question matches one row, and a first name shared by two people
// shows both full names to choose from.
func fullNames(e *entity) {
	var out []*column
	for _, c := range e.cols {
		out = append(out, c)
		first, rest := nameHalf(c.words, "first", "given", "fore", "f")
		if first < 0 || c.kind != KindText {
			continue
		}
		for _, o := range e.cols {
			last, orest := nameHalf(o.words, "last", "family", "sur", "l")
			if last < 0 || o.kind != KindText || strings.Join(rest, " ") != strings.Join(orest, " ") {
				continue
			}
			words := append(append([]string{}, rest[:first]...), "full", "name")
			name := strings.Join(words, "_")
			if e.byName[name] != nil || e.t.Column(name) != nil {
				break
			}
			f, l := ref(e.t.Name, c.c.Name), ref(e.t.Name, o.c.Name)
			full := &column{c: &Column{Name: name, Kind: KindText, DeclaredType: "computed"}, words: words, kind: KindText,
				expr:  fragment{sql: f.sql + " || ' ' || " + l.sql, mysql: "CONCAT(" + f.mysql + ", ' ', " + l.mysql + ")"},
				parts: []*column{c, o}}
			out = append(out, full)
			e.byName[name] = full
			break
		}
	}
	e.cols = out
}

// nameHalf finds the word saying a column is the first (or last) part of
// a name: contact_first_name gives 1 and [contact name]. It returns -1
// when the column is no such half. Names written as one word (firstname,
// surname) or shortened (fname, au_lname) count too.
func nameHalf(w []string, marks ...string) (int, []string) {
	for i, x := range w {
		for _, m := range marks {
			switch {
			case x == m && i+1 < len(w) && w[i+1] == "name":
				return i, append(append([]string{}, w[:i]...), w[i+1:]...)
			case x == m+"name" || m == "sur" && x == "surname":
				return i, append(append([]string{}, w[:i]...), append([]string{"name"}, w[i+1:]...)...)
			}
		}
	}
	return -1, nil
}
