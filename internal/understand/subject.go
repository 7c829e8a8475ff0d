// The subject: what the question is about ("patients", "which clinic…"),
// read after columns, values and latest periods and before the intent; an
// entity word naming several kinds of records, or none at all, is asked.

package understand

import (
	"fmt"
	"sort"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand/text"
)

// chooseSubject decides what the question is about: the entity a ranking
// word ranks, else the entity named first (or the head of two nouns side
// by side), else what the question's other words imply; asked when
// nothing names it.
func (b *builder) chooseSubject() {
	for _, m := range b.ms {
		if m.kind == kTop || m.kind == kBottom {
			b.rankM = m
			break
		}
	}
	var pick *mention
	if b.rankM == nil {
		var done bool
		if pick, done = b.mostSubject(); done {
			return
		}
	}
	if pick == nil && b.rankM != nil {
		pick = b.rankedEntity()
	}
	if pick == nil {
		var done bool
		if pick, done = b.namedSubject(); done {
			return
		}
	}
	b.settleSubject(pick)
}

// setSubject makes e, named by mention m, the subject.
func (b *builder) setSubject(m *mention, e *model.Entity) {
	b.subjectM = m
	b.q.Subject = e
	b.in.Subject = b.q.Subject
	b.addContext(b.q.Subject)
}

// mostSubject reads the first "most": "which clinic has the most
// patients" ranks the entity named before it (which becomes the ranking
// word), "which sector has the most symbols" the values of a column
// (mostBy). done reports that the subject is set: a flag before "most"
// ("which salesperson…") is its entity, still filtered by the flag.
func (b *builder) mostSubject() (pick *mention, done bool) {
	if b.mostBy != nil {
		return nil, false // "the most common citizenship": read already
	}
	for i, m := range b.ms {
		if m.kind != kMost {
			continue
		}
		for j := i - 1; j >= 0; j-- {
			if x := b.ms[j]; (x.kind == kEntity || x.kind == kFlag) && !b.grouped[x] {
				pick = x
				break
			}
			// "which sector has the most symbols": rank the column's values
			// (a number column too: "which grade has the most students")
			if x := b.ms[j]; x.kind == kColumn && !x.entry().column.Temporal() && b.whichBefore(x) {
				b.mostBy, b.mostM = x, m
				x.used = true
				break
			}
		}
		if b.mostBy != nil {
			return nil, false
		}
		if pick != nil {
			b.rankM = m
		}
		if pick != nil && pick.kind == kFlag {
			e := pick.entry().entity
			if len(pick.vals) > 0 && pick.vals[0].col != nil {
				e = pick.vals[0].col.Entity()
			}
			b.setSubject(pick, e)
			return pick, true
		}
		return pick, false
	}
	return nil, false
}

// rankedEntity is the first entity named after the ranking word ("top 5
// products").
func (b *builder) rankedEntity() *mention {
	for i := b.idx(b.rankM) + 1; i < len(b.ms); i++ {
		if m := b.ms[i]; m.kind == kEntity && !b.grouped[m] {
			return m
		}
	}
	return nil
}

// namedSubject is the first entity the question names that is not a
// group. done reports that the subject is set: a flag phrase that names
// its own entity ("how many infected wounds … among Riverside patients")
// is the subject, and still a filter.
func (b *builder) namedSubject() (pick *mention, done bool) {
	for i, m := range b.ms {
		if m.kind == kEntity && !b.grouped[m] {
			pick = m
			// "wound assessments", "dog breeds": in two nouns side by
			// side the second is the head, when the two are related and
			// the first is singular, as a noun used as a modifier is
			// ("symbols trade on" is a verb)
			if i+1 < len(b.ms) && b.singular(m) && b.adjacent(m, b.ms[i+1]) && b.ms[i+1].kind == kEntity && !b.grouped[b.ms[i+1]] {
				if h, p := b.entityOfQuiet(b.ms[i+1]), b.entityOfQuiet(m); h != nil && p != nil && h != p {
					if b.a.model.ToOne(h, p) || b.a.model.ToOne(p, h) {
						pick = b.ms[i+1]
						m.used = true
					}
				}
			}
			return pick, false
		}
		if m.kind == kFlag && !b.grouped[m] && b.namesOwnEntity(m) {
			b.setSubject(m, m.entry().entity)
			return m, true
		}
	}
	return nil, false
}

// settleSubject makes the picked mention's entity the subject (asked when
// it names several); with none, the subject is implied by the question's
// other words, or its scope, or asked.
func (b *builder) settleSubject(pick *mention) {
	if pick != nil {
		b.subjectM = pick
		b.q.Subject = b.entityOf(pick)
		pick.used = true
	}
	if b.q.Subject == nil {
		b.q.Subject = b.impliedSubject()
	}
	if b.q.Subject == nil && len(b.scopeVals) > 0 {
		b.q.Subject = b.scopeEntity()
	}
	if b.q.Subject == nil {
		b.subjectSlot()
	}
	b.in.Subject = b.q.Subject
	if b.q.Subject != nil {
		b.addContext(b.q.Subject)
	}
}

// impliedSubject finds the subject of a question that names no entity:
// from its measure, columns, terms, vague words or values.
func (b *builder) impliedSubject() *model.Entity {
	for _, k := range []kind{kMeasure, kColumn, kTerm, kVague, kSuperlative, kFlag, kValue} {
		for _, m := range b.ms {
			mk := m.kind
			if mk == kGroup {
				mk = kValue
			}
			if mk != k || b.grouped[m] || b.isScopeVal(m) {
				continue
			}
			switch k {
			case kValue:
				if len(m.vals) > 0 {
					return b.childmostValueEntity(m.vals[0].col.Entity())
				}
			case kFlag:
				if len(m.vals) > 0 && m.vals[0].col != nil {
					return m.vals[0].col.Entity()
				}
				return m.entry().entity
			case kVague, kSuperlative:
				return b.a.model.Entity(m.entry().vague.AppliesTo[0])
			default:
				return m.entry().entity
			}
		}
	}
	return nil
}

// childmostValueEntity picks, among the entities the question's values
// belong to, the one every other is a parent of: "MSFT buys" are trades
// (side BUY, of the symbol MSFT), not symbols. With no such entity, first.
func (b *builder) childmostValueEntity(first *model.Entity) *model.Entity {
	var ents []*model.Entity
	seen := map[*model.Entity]bool{}
	for _, m := range b.ms {
		if (m.kind != kValue && m.kind != kGroup) || len(m.vals) == 0 || b.grouped[m] || b.isScopeVal(m) {
			continue
		}
		if e := m.vals[0].col.Entity(); !seen[e] {
			seen[e] = true
			ents = append(ents, e)
		}
	}
	for _, e := range ents {
		all := true
		for _, o := range ents {
			if o == e {
				continue
			}
			if path, ok := b.a.model.Path(e, o); !ok || !model.ToOnePath(path) {
				all = false
				break
			}
		}
		if all {
			return e
		}
	}
	return first
}

// subjectSlot asks what the question is about when nothing names it.
func (b *builder) subjectSlot() {
	if b.hasUnknown() {
		return // the unknown words are asked about first
	}
	// no best guess: any guess would answer another question
	sl := &Slot{Key: "subject", Kind: KindTable, Priority: Critical, Text: b.in.Question, Ask: true, Confidence: 0.3, NoGuess: true,
		Context: "The question does not name anything I know in this data."}
	for _, e := range b.mainEntities(4) {
		sl.Options = append(sl.Options, &Option{ID: e.Name, Label: capitalize(e.PluralLabel()), Description: e.Area, entity: e})
	}
	if len(sl.Options) == 0 {
		return
	}
	sl.Question = fmt.Sprintf("I can't answer that from this data. It holds %s: is your question about one of these?", b.holds())
	if o := b.settle(sl, b.parseEntityAnswer); o != nil {
		b.q.Subject = o.entity
	}
}

func (b *builder) parseEntityAnswer(answer string) (*Option, string) {
	key := text.StemPhrase(answer)
	for _, e := range b.a.model.Entities {
		for _, w := range entityWords(e) {
			if text.StemPhrase(w) == key {
				return &Option{ID: e.Name, Label: capitalize(e.PluralLabel()), entity: e}, ""
			}
		}
	}
	return nil, fmt.Sprintf("%q is not something I know in this data", answer)
}

// entityOf settles an entity mention; several entities make a slot.
func (b *builder) entityOf(m *mention) *model.Entity {
	ents := distinctEntities(m.entries)
	if len(ents) == 1 {
		return ents[0]
	}
	words := b.words(m)
	sl := &Slot{Key: "entity:" + words, Kind: KindTable, Priority: Critical, Text: words, Ask: true, Confidence: 0.5,
		Context: fmt.Sprintf("%q names %d kinds of records.", words, len(ents))}
	for i, e := range ents {
		if i == 4 {
			break
		}
		sl.Options = append(sl.Options, &Option{ID: e.Name, Label: capitalize(e.PluralLabel()), entity: e})
	}
	sl.Options[0].BestGuess = true
	sl.Question = fmt.Sprintf("By %q, do you mean %s, or something else?", words, ents[0].PluralLabel())
	if o := b.settle(sl, b.parseEntityAnswer); o != nil {
		return o.entity
	}
	return nil
}

// namesOwnEntity reports whether a mention's words include a word that
// names its entity ("infected wounds" for a flag of wounds).
func (b *builder) namesOwnEntity(m *mention) bool {
	e := m.entry().entity
	if e == nil {
		return false
	}
	said := " " + text.StemPhrase(b.words(m)) + " "
	for _, w := range entityWords(e) {
		if k := text.StemPhrase(w); k != "" && strings.Contains(said, " "+k+" ") {
			return true
		}
	}
	return false
}

// mainEntities returns up to n entities a person would ask about: those
// with a name to show and without a key of their own left out (link
// tables), the most referenced first.
func (b *builder) mainEntities(n int) []*model.Entity {
	m := b.a.model
	refs := map[*model.Entity]int{}
	for _, e := range m.Entities {
		for _, ed := range m.Edges(e) {
			if ed.ToOne {
				refs[ed.To]++
			}
		}
	}
	var out []*model.Entity
	for _, e := range m.Entities {
		if e.Key != "" {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return refs[out[i]] > refs[out[j]] })
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// holds lists what the data is about, for an honest "I can't answer".
func (b *builder) holds() string {
	var names []string
	for _, e := range b.mainEntities(5) {
		names = append(names, e.PluralLabel())
	}
	if len(names) > 1 {
		return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	}
	return strings.Join(names, "")
}
