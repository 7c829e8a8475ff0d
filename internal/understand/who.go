// People: "who" asks for people, and a reference between people is said
// with a verb. Read right after the subject is chosen ("who works in the
// IT department" is about employees, not departments) and when value
// filters are made ("who reports to Nina Patel" keeps the employees whose
// reports_to is Nina Patel).

package understand

import (
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand/text"
)

// personNouns are labels of entities whose rows are people.
var personNouns = map[string]bool{"person": true, "people": true, "employee": true, "staff": true, "customer": true,
	"client": true, "author": true, "actor": true, "actress": true, "artist": true, "singer": true, "player": true,
	"student": true, "instructor": true, "teacher": true, "professor": true, "member": true, "user": true,
	"patient": true, "doctor": true, "physician": true, "nurse": true, "director": true, "manager": true,
	"driver": true, "pilot": true, "worker": true, "agent": true, "salesperson": true, "representative": true,
	"owner": true, "guest": true, "passenger": true, "participant": true, "candidate": true, "writer": true,
	"editor": true, "reviewer": true, "volunteer": true, "musician": true, "coach": true, "contact": true,
	"host": true, "speaker": true, "attendee": true, "applicant": true, "subscriber": true, "buyer": true, "seller": true}

// isPerson reports whether an entity's rows are people: its label says so,
// or it has a first, last or full name.
func isPerson(e *model.Entity) bool {
	label := strings.Fields(e.Singular())
	if len(label) > 0 && personNouns[label[len(label)-1]] {
		return true
	}
	for _, c := range e.Columns {
		w := " " + strings.ToLower(humanizeName(c.Name)) + " "
		if c.Role == model.RoleName && (strings.Contains(w, " first name ") || strings.Contains(w, " last name ") ||
			strings.Contains(w, " full name ") || strings.Contains(w, " surname ")) {
			return true
		}
	}
	return false
}

// asksWho reports whether the question asks for people ("who", "whom").
func (b *builder) asksWho() bool {
	for i, m := range b.ms {
		switch b.words(m) {
		case "who", "whom", "whose":
			// "books whose price …", "customers who ordered": a relative
			// pronoun after the rows it describes asks nothing about people
			if j, p := b.prev(i); p != nil && j >= 0 && (p.kind == kEntity || p.kind == kColumn || p.kind == kValue) {
				continue
			}
			return true
		case "кто", "everyone", "everybody", "anyone", "anybody", "someone", "somebody",
			"people", "persons", "ppl", "folks", "headcount", "head count":
			return true
		}
	}
	return false
}

// whoSubject makes a question that asks "who" about people: when the
// subject is not people ("who works in the IT department"), the people
// connected to it are, those whose reference to it the question's words
// name first ("who manages …" through manager_id), else those who belong
// to it (employees of the department), else those it belongs to (the
// sales rep of a customer).
func (b *builder) whoSubject() {
	s := b.q.Subject
	if s == nil && b.asksWho() {
		// "everyone hired in March 1995": the people the data holds
		if p := b.onlyPeople(); p != nil {
			b.q.Subject, b.in.Subject = p, p
			b.addContext(p)
			b.dropSubjectSlot()
		}
		return
	}
	if s == nil || isPerson(s) || !b.asksWho() {
		return
	}
	m := b.a.model
	var child, parent *model.Entity
	var named *model.Entity
	said := b.questionStems()
	for _, e := range m.Entities {
		if e == s || !isPerson(e) {
			continue
		}
		for _, ed := range m.Edges(e) {
			if ed.To != s {
				continue
			}
			// the reference's own words ("manager" in manager_id)
			if fk := referenceColumn(ed); fk != nil && namesReference(said, fk) && named == nil {
				named = e
			}
			if ed.ToOne && child == nil {
				child = e // e refers to s: employees of a department
			}
		}
		for _, ed := range m.Edges(s) {
			if ed.To == e && ed.ToOne && parent == nil {
				parent = e // s refers to e: the sales rep of a customer
			}
		}
	}
	p := named
	if p == nil {
		p = child
	}
	if p == nil {
		p = parent
	}
	if p == nil {
		// "who is in Research": the people linked to a unit through their
		// assignments, when one kind of people is
		if o := b.onlyPeople(); o != nil && o != s && m.Reachable(o, s) {
			p = o
		}
	}
	if p == nil {
		return
	}
	if b.subjectM != nil {
		b.grouped[b.subjectM] = false
	}
	b.q.Subject, b.in.Subject = p, p
	b.addContext(p)
}

// questionStems are the stems of the question's words, space-separated.
func (b *builder) questionStems() string {
	return " " + strings.Join(b.l.stems, " ") + " "
}

// referenceColumn is the foreign key an edge follows, on the edge's
// referring side.
func referenceColumn(ed model.Edge) *model.Column {
	if ed.ToOne {
		return ed.From.Column(ed.FromCol)
	}
	return ed.To.Column(ed.ToCol)
}

// namesReference reports whether the question's stems name a foreign key
// by the words of its name other than id ("manager" of manager_id,
// "report" of reports_to).
func namesReference(said string, fk *model.Column) bool {
	for _, w := range strings.Fields(humanizeName(strings.ToLower(fk.Name))) {
		if w == "id" || w == "to" || w == "of" || len(w) < 4 {
			continue
		}
		s := text.Stem(w)
		if strings.Contains(said, " "+s+" ") || strings.Contains(said, " "+s) && len(s) >= 5 {
			return true
		}
	}
	return false
}

// selfReference returns the foreign key of entity e that refers to e
// itself and that the question names around the value at mention i, and
// which way it is read: "who reports to Nina Patel" and "managed by Nina"
// keep the rows referring to Nina (up false); "Nina's manager" and "the
// manager of Nina" keep the row Nina refers to (up true).
func (b *builder) selfReference(i int, e *model.Entity) (fk *model.Column, up bool) {
	var selfs []*model.Column
	for _, c := range e.Columns {
		if c.References == e.Name+"."+e.Key && e.Key != "" {
			selfs = append(selfs, c)
		}
	}
	if len(selfs) == 0 {
		return nil, false
	}
	// "Nina Patel's manager": the reference named right after a possessive
	if m := b.ms[i]; b.possessive(m.end - 1) {
		if _, n := b.next(i); n != nil {
			if c := namedSelf(selfs, b.l.stems[n.start:n.end], b.l.texts[n.start:n.end], n); c != nil {
				n.used = true
				return c, true
			}
		}
	}
	// the words just before the value name the reference
	from := 0
	if i >= 3 {
		from = i - 3
	}
	var said, words []string
	var last *mention
	for _, m := range b.ms[from:i] {
		said = append(said, b.l.stems[m.start:m.end]...)
		words = append(words, b.l.texts[m.start:m.end]...)
		if m.kind != kStop {
			last = m
		}
	}
	phrase := " " + strings.Join(words, " ") + " "
	// "the manager of Nina Patel": the role, then "of"
	of := strings.HasSuffix(phrase, " of ")
	for _, r := range reportingPhrases {
		if strings.Contains(phrase, " "+r+" ") {
			of = false
		}
	}
	for _, m := range b.ms[from:i] {
		if m.kind == kColumn {
			for _, c := range selfs {
				if m.entry().column == c {
					m.used = true
					return c, of && m == last
				}
			}
		}
	}
	if c := namedSelf(selfs, said, words, nil); c != nil {
		return c, of
	}
	return nil, false
}

// namedSelf returns the self reference that stems and words name: by its
// own name ("reports to", "manager"), by a column mention of it, or by a
// reporting phrase ("managed by") when one reference is a manager's.
func namedSelf(selfs []*model.Column, stems, words []string, m *mention) *model.Column {
	if m != nil && m.kind == kColumn {
		for _, c := range selfs {
			if m.entry().column == c {
				return c
			}
		}
	}
	for _, c := range selfs {
		if namesReference(" "+strings.Join(stems, " ")+" ", c) {
			return c
		}
	}
	phrase := " " + strings.Join(words, " ") + " "
	named := false
	for _, r := range append(reportingPhrases, managerWords...) {
		if strings.Contains(phrase, " "+r+" ") {
			named = true
		}
	}
	if !named {
		return nil
	}
	// the reference to a manager, whatever the schema called it
	// (manager_id, supervisor, boss)
	var bosses []*model.Column
	for _, c := range selfs {
		if nameHasWord(c, managerWords) {
			bosses = append(bosses, c)
		}
	}
	if len(bosses) == 0 && len(selfs) == 1 {
		bosses = selfs
	}
	if len(bosses) == 1 {
		return bosses[0]
	}
	return nil
}

// possessive reports whether token k was written with "'s" ("Nina's").
func (b *builder) possessive(k int) bool {
	t := b.l.toks[k]
	return t.End-t.Start == len(t.Text)+2
}

// reportingPhrases say that a person's manager is who follows.
var reportingPhrases = []string{"reports to", "report to", "reporting to", "reported to", "managed by", "supervised by",
	"works under", "work under", "working under", "works for", "work for", "answers to", "answer to"}

// managerWords name a reference to a person's manager.
var managerWords = []string{"manager", "mgr", "supervisor", "boss", "superior", "reports", "lead", "head"}

// selfReferenceQuiet is selfReference without marking the words used.
func (b *builder) selfReferenceQuiet(i int, e *model.Entity) *model.Column {
	used := make([]bool, len(b.ms))
	for j, m := range b.ms {
		used[j] = m.used
	}
	c, _ := b.selfReference(i, e)
	for j, m := range b.ms {
		m.used = used[j]
	}
	return c
}

// onlyPeople returns the entity of people when the question names none:
// the one the question's words belong to, else the only one.
func (b *builder) onlyPeople() *model.Entity {
	var people []*model.Entity
	for _, e := range b.a.model.Entities {
		if isPerson(e) && e.Key != "" {
			people = append(people, e)
		}
	}
	for _, p := range people {
		for _, c := range b.context {
			if c == p {
				return p
			}
		}
	}
	// the people who belong to what the question names (a department's
	// employees)
	for _, p := range people {
		for _, c := range b.context {
			if _, ok := b.a.model.ChildPath(c, p); ok && b.a.model.ToOne(p, c) {
				return p
			}
		}
	}
	if len(people) == 1 {
		return people[0]
	}
	return nil
}

// dropSubjectSlot removes the question about the subject once it is known.
func (b *builder) dropSubjectSlot() {
	out := b.in.Slots[:0]
	for _, s := range b.in.Slots {
		if s.Key != "subject" {
			out = append(out, s)
		}
	}
	b.in.Slots = out
}

// referenceRole names what a self reference points at, for labels: "the
// manager" for reports_to or manager_id, else its title without "id".
func referenceRole(fk *model.Column) string {
	if nameHasWord(fk, []string{"reports"}) {
		return "manager"
	}
	return strings.TrimSuffix(strings.TrimSuffix(fk.Title(), " ID"), " id")
}
