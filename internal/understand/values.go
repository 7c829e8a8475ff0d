// Stored values: "open wounds", "MSFT buys", "patient P0003". Values are
// found while linking (package valueindex); here a value naming several
// columns or several values is settled or asked (before the subject), and
// values, flags and keys become filters (in the filter pass).

package understand

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/understand/text"
	"github.com/clarify-sql/clarify/internal/understand/valueindex"
)

// Catalog supplies what understanding needs from the database: the allowed
// values of database-sourced columns and the rows a scope question lists.
// Implementations cache (package source); understanding never blocks on a
// refresh once values are known.
type Catalog interface {
	// Version changes whenever any column's values change; it is cheap and
	// may start background refreshes of expired values.
	Version(ctx context.Context) uint64
	// CountedValues returns the distinct values of a column and how many
	// rows hold each. When the database is unreachable it returns an
	// error and understanding goes on without them.
	CountedValues(ctx context.Context, c *model.Column) ([]string, []int64, error)
	// Rows returns the key and the given columns of an entity's rows in key
	// order, at most limit of them.
	Rows(ctx context.Context, e *model.Entity, cols []string, limit int) ([][]string, error)
	// RowsWith returns the key and the given columns of the rows whose
	// column c holds value (bound, never SQL text), in key order, at most
	// limit of them: the people a shared name may mean.
	RowsWith(ctx context.Context, c *model.Column, value string, cols []string, limit int) ([][]string, error)
	// RowsByKey returns the key and the given columns of the rows whose key
	// is one of keys (bound), in key order, at most limit of them: the
	// scope values a user may be offered.
	RowsByKey(ctx context.Context, e *model.Entity, cols []string, keys []string, limit int) ([][]string, error)
}

// Prober is a Catalog that never makes understanding wait for a column's
// values: while they load (the first time on a large table), Snapshot
// answers at once with what it holds, and Probe looks one question's words
// up in the column with a bounded query. A word a probe does not find
// stays unmatched, as any unknown word does: it is never taken to be no
// value of the column.
type Prober interface {
	// Snapshot returns what the catalog holds of a column's values now
	// and whether that is all of them, starting their load when none has
	// started; err as for CountedValues.
	Snapshot(ctx context.Context, c *model.Column) (values []string, rows []int64, complete bool, err error)
	// Probe returns the values of c that equal one of words without
	// regard to case, with how many rows hold each as far as it read.
	Probe(ctx context.Context, c *model.Column, words []string) (values []string, rows []int64, err error)
	// Settle waits until a bounded first read of c's values has ended,
	// starting their load when none has started: then Snapshot holds all
	// of them (a small table), or what a probe would find, so that what a
	// first question knows does not depend on how fast they load.
	Settle(ctx context.Context, c *model.Column) error
}

// TableProber is a Prober that can also look words up in the whole of a
// column's table rather than its first rows: a question's words that link
// to nothing else may be a value of a row beyond the first (a customer
// among 50,000), and only those are worth the scan.
type TableProber interface {
	Prober
	// ProbeTable is Probe over every row of c's table, within a bounded
	// time.
	ProbeTable(ctx context.Context, c *model.Column, words []string) (values []string, rows []int64, err error)
}

// storedValues is one load of the stored values: their index, the columns
// whose values could not be loaded (the database was unreachable), and
// those whose values are still loading, with the values the index has of
// them (a question's words are probed in these).
type storedValues struct {
	idx     *valueindex.Index
	failed  map[*model.Column]error
	pending map[*model.Column]map[string]bool
	// short: columns' values were left out to keep within a budget
	// (coldIndexValues); an index of all of them is due
	short bool
}

// coldIndexValues bounds how many of the database's values the first
// index of a source holds: on a wide database (80 tables of 10,000 names)
// indexing every value took the first question 1.6 s on a quiet machine
// (valueindex's BenchmarkBuild) to 6 s under load. The columns with
// the most values are left out first; their values are looked up by
// probes for the words of each question (exactly, without regard to
// case; not by part or despite a typo) until the index of every value,
// built in the background at once, replaces this one. An index of 50,000
// values takes about 0.1 s to build (2 µs a value).
const coldIndexValues = 50_000

// buildValueIndex indexes the static values of the model and, through the
// catalog, the database-sourced ones. Columns whose values cannot be loaded
// are recorded in failed: understanding goes on without them, but for the
// values probes find (pending). budget, when above 0, bounds how many of
// the database's values are indexed (coldIndexValues): the columns
// holding the most are left out, pending, until they fit. It returns nil
// when ctx ends first: a background build of millions of values does not
// hold up the close of its source.
func buildValueIndex(ctx context.Context, m *model.Model, cat Catalog, lex *lexicon, budget int) *storedValues {
	failed := map[*model.Column]error{}
	pending := map[*model.Column]map[string]bool{}
	// every column's values are read before any is indexed, so that the
	// index is made once at its size
	var cols []columnValueSet
	total := 0
	for _, e := range m.Entities {
		noise := entityNoise(e)
		for _, c := range e.Columns {
			if c.Values == nil {
				continue
			}
			set := columnValueSet{col: c, noise: noise}
			if c.FromDatabase() && cat != nil {
				vals, rows, complete, err := columnValues(ctx, cat, c)
				if err != nil {
					failed[c] = err
				}
				if !complete {
					// loading, or the load failed (it may have run out
					// of time on a large table): probe the question's words
					pending[c] = map[string]bool{}
					for _, v := range vals {
						pending[c][v] = true
					}
				}
				set.vals, set.rows = vals, rows
			}
			total += len(c.Values.Items) + len(set.vals)
			cols = append(cols, set)
		}
	}
	_, probes := cat.(Prober) // a left out value is found by a probe
	short := false
	if budget > 0 && probes {
		left := leaveOut(cols, budget, pending)
		short, total = left > 0, total-left
	}
	x := valueindex.NewSized(total)
	for _, set := range cols {
		for _, it := range set.col.Values.Items {
			x.Add(set.col, it.Value, set.noise)
		}
		for i, v := range set.vals {
			if i%4096 == 0 && ctx.Err() != nil {
				return nil
			}
			n := int64(0)
			if i < len(set.rows) {
				n = set.rows[i]
			}
			x.AddCounted(set.col, v, n, set.noise)
		}
		if set.out > 0 {
			x.Outside(set.col, set.out)
		}
	}
	// the model's own words take part in typo correction too, and the
	// long built-in words a question turns on ("hihgest")
	for w := range lex.words {
		if !x.HasWord(w) {
			x.AddTypoTarget(w)
		}
	}
	for _, w := range typoTargets {
		if !x.HasWord(w) && !lex.words[w] {
			x.AddTypoTarget(w)
		}
	}
	x.Seal()
	return &storedValues{idx: x, failed: failed, pending: pending, short: short}
}

// entityNoise returns the stems of an entity's own words: they name no
// value of its columns.
func entityNoise(e *model.Entity) map[string]bool {
	noise := map[string]bool{}
	for _, w := range entityWords(e) {
		for _, s := range strings.Fields(text.StemPhrase(w)) {
			noise[s] = true
		}
	}
	return noise
}

// leaveOut empties the database-sourced value sets holding the most
// values, largest first (of equal ones, the model's first), until the rest
// hold at most budget, and marks them pending with no value known, so that
// a question's words are probed in them. It returns how many values it
// left out.
func leaveOut(cols []columnValueSet, budget int, pending map[*model.Column]map[string]bool) int {
	order := make([]int, 0, len(cols))
	held := 0
	for i, set := range cols {
		if len(set.vals) > 0 {
			order = append(order, i)
			held += len(set.vals)
		}
	}
	if held <= budget {
		return 0
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(cols[b].vals) - len(cols[a].vals) })
	left := 0
	for _, i := range order {
		if held-left <= budget {
			break
		}
		set := &cols[i]
		set.out = len(set.vals)
		left += set.out
		set.vals, set.rows = nil, nil
		pending[set.col] = map[string]bool{}
	}
	return left
}

// columnValueSet is what buildValueIndex indexes of one column: the
// database's values of it with how many rows hold each (besides the
// model's static ones), and the stems that name no value in it (its
// entity's words); out counts the values left out (leaveOut).
type columnValueSet struct {
	col   *model.Column
	noise map[string]bool
	vals  []string
	rows  []int64
	out   int
}

// columnValues returns a column's values without waiting for their load
// when the catalog is a Prober, else waiting for them (complete).
func columnValues(ctx context.Context, cat Catalog, c *model.Column) ([]string, []int64, bool, error) {
	if p, ok := cat.(Prober); ok {
		return p.Snapshot(ctx, c)
	}
	vals, rows, err := cat.CountedValues(ctx, c)
	return vals, rows, true, err
}

// maxProbeLen is the most words of a phrase probed as one value.
const maxProbeLen = 4

// probeWords are the phrases of a question that may be stored values:
// every run of up to maxProbeLen words and numbers, as written in the
// normalized question and with single spaces or underscores between its
// words ("in repair" for a stored "in_repair").
func probeWords(q string, toks []text.Token) []string {
	return probePhrases(q, toks, nil)
}

// probePhrases are probeWords' phrases, only those that hold a token keep
// says is worth looking up (nil: all).
func probePhrases(q string, toks []text.Token, keep []bool) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for i := range toks {
		var words []string
		for j := i; j < len(toks) && j < i+maxProbeLen; j++ {
			if toks[j].Kind == text.Op {
				break
			}
			words = append(words, toks[j].Text)
			if keep != nil && !slices.Contains(keep[i:j+1], true) {
				continue
			}
			add(q[toks[i].Start:toks[j].End])
			add(strings.Join(words, " "))
			add(strings.Join(words, "_"))
		}
	}
	return out
}

// probe looks the question's words up in the columns whose values are
// still loading or were left out of the index, all at once, and returns
// the index with the values found that it lacked, added in a layer over
// it (the catalog keeps what its probes found until the load ends). A
// failed probe is logged and leaves the words unmatched.
func (a *Analyzer) probe(ctx context.Context, vx *storedValues, words []string) *storedValues {
	p, ok := a.cat.(Prober)
	if !ok {
		return vx
	}
	return a.probeWith(ctx, vx, words, p.Probe, nil)
}

// probeTables looks the words a question could link to nothing else up
// in the whole tables of the columns still loading (TableProber), and
// returns the index with what it found, as probe does.
//
// The tables the question names (named) are looked in first: on a wide
// source, scanning every table at once would spend each scan's time
// waiting for a connection; only when they hold none of the words, and
// some words link to nothing or only loosely (everywhere), are the other
// tables looked in.
func (a *Analyzer) probeTables(ctx context.Context, vx *storedValues, words []string, named map[*model.Entity]bool, everywhere bool) *storedValues {
	p, ok := a.cat.(TableProber)
	if !ok {
		return vx
	}
	if len(named) > 0 {
		nvx := a.probeWith(ctx, vx, words, p.ProbeTable, func(c *model.Column) bool { return named[c.Entity()] })
		if nvx != vx {
			return nvx
		}
	}
	if !everywhere {
		return vx
	}
	return a.probeWith(ctx, vx, words, p.ProbeTable, func(c *model.Column) bool { return !named[c.Entity()] })
}

// probeWith runs one probe per column still loading that in accepts (nil:
// all), at once.
func (a *Analyzer) probeWith(ctx context.Context, vx *storedValues, words []string,
	probe func(context.Context, *model.Column, []string) ([]string, []int64, error), in func(*model.Column) bool) *storedValues {
	if len(words) == 0 {
		return vx
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		fresh []columnValueSet
	)
	for c, known := range vx.pending {
		if in != nil && !in(c) {
			continue
		}
		wg.Go(func() {
			vals, rows, err := probe(ctx, c, words)
			if err != nil {
				a.logger().WarnContext(ctx, "probe stored values failed", "entity", c.Entity().Name, "column", c.Name, "err", err)
				return
			}
			set := columnValueSet{col: c}
			for i, v := range vals {
				if !known[v] {
					set.vals, set.rows = append(set.vals, v), append(set.rows, rows[i])
				}
			}
			if len(set.vals) > 0 {
				mu.Lock()
				fresh = append(fresh, set)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(fresh) == 0 || ctx.Err() != nil {
		return vx
	}
	nvx := vx.with(fresh)
	a.mu.Lock()
	if a.vx == vx {
		a.vx = nvx // the catalog's version is unchanged: probes do not move it
	}
	a.mu.Unlock()
	return nvx
}

// with returns the stored values with fresh ones added, in a layer over
// their index: a few values found by probes cost only theirs, however
// many the index holds. They are added in the model's order of their
// columns, as an index of every value holds them: where a value is in
// several columns and nothing in the question tells them apart, the
// first is read, whichever probe ended first.
func (vx *storedValues) with(fresh []columnValueSet) *storedValues {
	nvx := &storedValues{idx: vx.idx.Layer(), failed: vx.failed, pending: maps.Clone(vx.pending), short: vx.short}
	slices.SortFunc(fresh, func(a, b columnValueSet) int {
		ea, eb := a.col.Entity(), b.col.Entity()
		return cmp.Or(cmp.Compare(ea.Index(), eb.Index()), cmp.Compare(slices.Index(ea.Columns, a.col), slices.Index(eb.Columns, b.col)))
	})
	for _, set := range fresh {
		known := maps.Clone(vx.pending[set.col])
		noise := entityNoise(set.col.Entity())
		for i, v := range set.vals {
			nvx.idx.AddCounted(set.col, v, set.rows[i], noise)
			known[v] = true
		}
		nvx.pending[set.col] = known
	}
	nvx.idx.Seal()
	return nvx
}

// resolveValues settles which value a value mention means; mentions that
// name the scope (a patient) are set aside for the scope slot.
func (b *builder) resolveValues() {
	se := b.scopeEntity()
	for _, m := range b.ms {
		if m.kind != kValue && m.kind != kGroup {
			continue
		}
		if se != nil {
			var onScope []valCand
			for _, v := range m.vals {
				if v.col.Entity() == se {
					onScope = append(onScope, v)
				}
			}
			if len(onScope) > 0 && (len(onScope) == len(m.vals) || !m.partial) {
				m.vals = onScope
				b.scopeVals = append(b.scopeVals, m)
				continue
			}
		}
		if len(m.vals) <= 1 {
			continue
		}
		narrowed := b.byDirection(m, b.byAdjacentEntity(m, withoutCopies(m.vals)))
		narrowed = preferByContext(b, narrowed, func(v valCand) *model.Entity { return v.col.Entity() })
		if !m.partial {
			// exact in several columns: context decides, else the first column
			if len(narrowed) > 1 && sameColumn(narrowed) {
				m.vals = narrowed
				continue
			}
			// in a name and another column of one entity ("Angola" as a
			// country's name and its local name): the same row, by name
			if d := displayOfOne(narrowed); d != nil {
				m.vals = []valCand{*d}
				continue
			}
			if len(narrowed) >= 1 {
				m.vals = narrowed
				if len(narrowed) == 1 {
					continue
				}
			}
		} else {
			m.vals = b.bySiblings(m, narrowed)
			// a value named completely beats values named in part
			if len(m.vals) > 1 && m.vals[0].score > m.vals[1].score+0.1 && m.vals[0].score >= partialScore(1) {
				m.vals = m.vals[:1]
			}
			if len(m.vals) == 1 {
				continue
			}
		}
		b.valueSlot(m)
	}
}

// withoutCopies drops the candidates on a column that repeats another
// candidate's column (same_as): one value, one meaning.
func withoutCopies(cands []valCand) []valCand {
	if !slices.ContainsFunc(cands, func(c valCand) bool { return c.col.SameAs != "" }) {
		return cands // no column repeats another
	}
	var out []valCand
	for _, c := range cands {
		copied := false
		for _, o := range cands {
			if o.col != c.col && c.col.SameAs == o.col.Entity().Name+"."+o.col.Name {
				copied = true
				break
			}
		}
		if !copied {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return cands
	}
	return out
}

// displayOfOne returns the candidate on its entity's display column when
// every candidate belongs to that one entity, else nil.
func displayOfOne(cands []valCand) *valCand {
	if len(cands) < 2 {
		return nil
	}
	e := cands[0].col.Entity()
	var d *valCand
	for i, c := range cands {
		if c.col.Entity() != e {
			return nil
		}
		if c.col == e.DisplayColumn() {
			d = &cands[i]
		}
	}
	return d
}

// byAdjacentEntity keeps the values of the entity named right next to the
// value ("NYSE stocks": the exchange of symbols, not the trades' venue),
// or of the column named there ("Washington state": a state, not a city).
func (b *builder) byAdjacentEntity(m *mention, cands []valCand) []valCand {
	if len(cands) < 2 || sameColumn(cands) {
		return cands
	}
	i := b.idx(m)
	for _, step := range []int{1, -1} {
		// fillers after the value do not separate it from the noun it
		// qualifies ("NASDAQ-listed stocks"); before it they may ("symbols
		// trade on the NYSE" is asked: listing or venue)
		j := i + step
		for step > 0 && j < len(b.ms) && (b.ms[j].kind == kStop || b.ms[j].kind == kList) {
			j += step
		}
		// "the continent of North America": "of" ties a value to the
		// column or entity before it
		for step < 0 && j >= 0 && b.ms[j].kind == kStop && (b.words(b.ms[j]) == "of" || b.words(b.ms[j]) == "the") {
			j += step
		}
		if j < 0 || j >= len(b.ms) {
			continue
		}
		var out []valCand
		switch n := b.ms[j]; n.kind {
		case kEntity:
			ents := distinctEntities(n.entries)
			for _, c := range cands {
				for _, e := range ents {
					if c.col.Entity() == e {
						out = append(out, c)
					}
				}
			}
		case kColumn:
			// "Washington state": the value of a state column, not a city
			for _, c := range cands {
				for _, e := range n.entries {
					if e.kind == kColumn && e.column == c.col {
						out = append(out, c)
					}
				}
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return cands
}

// directionWords name the start and the end of a movement, in column
// names: "trips from Lyon to Nice" are by origin and destination.
var directionWords = map[string][]string{
	"from": {"origin", "from", "source", "start", "departure", "pickup", "sender", "src"},
	"to":   {"destination", "dest", "to", "target", "end", "arrival", "dropoff", "recipient", "dst"},
}

// byDirection keeps, of a value found in several columns, the column that
// the preposition before it names: "from Lyon" the origin, "to Nice" the
// destination.
func (b *builder) byDirection(m *mention, cands []valCand) []valCand {
	if len(cands) < 2 || sameColumn(cands) || m.start == 0 {
		return cands
	}
	prep := b.l.texts[m.start-1]
	switch prep {
	case "into", "towards", "toward":
		prep = "to"
	}
	words, ok := directionWords[prep]
	if !ok {
		return cands
	}
	var out []valCand
	for _, c := range cands {
		if nameHasWord(c.col, words) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return cands
	}
	return out
}

// bySiblings narrows values named in part using another value of the same
// column named in full: in "left or right heel", "left" is the Left Heel.
func (b *builder) bySiblings(m *mention, cands []valCand) []valCand {
	if len(cands) < 2 {
		return cands
	}
	var out []valCand
	for _, c := range cands {
		for _, o := range b.ms {
			if o == m || (o.kind != kValue && o.kind != kGroup) || o.partial || len(o.vals) == 0 || o.vals[0].col != c.col {
				continue
			}
			if sharesWord(c.labelWords(), o.vals[0].labelWords()) {
				out = append(out, c)
				break
			}
		}
	}
	if len(out) == 1 {
		return out
	}
	return cands
}

// sharesWord reports whether two values' stemmed words have one in common
// that is not noise.
func sharesWord(aw, bw []string) bool {
	for _, w := range bw {
		for _, x := range aw {
			if x == w && !valueindex.IsNoise(w) {
				return true
			}
		}
	}
	return false
}

func sameColumn(vs []valCand) bool {
	for _, v := range vs[1:] {
		if v.col != vs[0].col {
			return false
		}
	}
	return true
}

// wholeWordsFirst orders near-tie values so that those containing every
// word asked for, as whole words, come first: for "vitamin D" the best
// guess is "25-OH Vitamin D", not "Vitamin D2 (Ergocalciferol)", whose
// "D2" only begins with "d". The order is otherwise kept.
func wholeWordsFirst(words string, vs []valCand) []valCand {
	want := strings.Fields(text.StemPhrase(words))
	whole := make([]bool, len(vs))
	out := make([]valCand, 0, len(vs))
	for i := range vs {
		if whole[i] = hasAll(vs[i].labelWords(), want); whole[i] {
			out = append(out, vs[i])
		}
	}
	for i, v := range vs {
		if !whole[i] {
			out = append(out, v)
		}
	}
	return out
}

// hasAll reports whether every word of want is one of have.
func hasAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

// valueSlot asks which of several values a word means ("vitamin D": D2, D3
// or 25-OH).
func (b *builder) valueSlot(m *mention) {
	words := b.words(m)
	sl := &Slot{Key: "value:" + words, Kind: KindValue, Priority: Important, Text: words, Ask: true, Confidence: 0.5}
	cands := wholeWordsFirst(words, m.vals)
	single := sameColumn(cands)
	for i, v := range cands {
		if i == 3 && len(cands) > 4 {
			break
		}
		label, id := v.label, v.col.Name+":"+v.label
		if !single {
			label = fmt.Sprintf("%s (%s)", v.label, v.col.Title())
			// columns of one title in several tables ("first name" of
			// doctors and of patients) are told apart by their table, in
			// label and id
			if b.titleShared(v, cands) {
				label = fmt.Sprintf("%s (%s of %s)", v.label, v.col.Title(), withArticle(v.col.Entity().Singular()))
				id = v.col.Entity().Name + "." + id
			}
		}
		sl.Options = append(sl.Options, &Option{ID: optionID(id), Label: label,
			Description: fmt.Sprintf("%s is %s", v.col.Title(), v.label), column: v.col, values: v.values})
	}
	if single && len(cands) > 1 {
		all := make([]string, 0, len(cands))
		for _, v := range cands {
			all = append(all, v.values...)
		}
		label := fmt.Sprintf("All %d of them", len(cands))
		if len(cands) > 4 {
			label = fmt.Sprintf("All %d that match %q", len(cands), words)
		}
		if len(sl.Options) == 4 {
			sl.Options = sl.Options[:3]
		}
		sl.Options = append(sl.Options, &Option{ID: "all", Label: label, Description: strings.Join(all, ", "), column: cands[0].col, values: all})
	}
	sl.Options[0].BestGuess = true
	sl.Question = fmt.Sprintf("By %q, do you mean %s, or something else?", words, sl.Options[0].Label)
	sl.Context = fmt.Sprintf("%q matches %d values in the data.", words, len(cands))
	o := b.settle(sl, func(answer string) (*Option, string) { return b.parseValueAnswer(answer, cands) })
	if o != nil {
		m.vals = []valCand{{col: o.column, values: o.values, label: o.Label, score: 1}}
		m.conf = 1
	}
}

// titleShared reports whether a column of another entity than v's, with
// the title of v's column, holds one of cands.
func (b *builder) titleShared(v valCand, cands []valCand) bool {
	t := b.a.lex.lowerTitle(v.col)
	for _, o := range cands {
		if o.col.Entity() != v.col.Entity() && b.a.lex.lowerTitle(o.col) == t {
			return true
		}
	}
	return false
}

// withArticle puts "a" or "an" before a noun.
func withArticle(noun string) string {
	if noun != "" && strings.ContainsRune("aeiouAEIOU", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}

func (b *builder) parseValueAnswer(answer string, cands []valCand) (*Option, string) {
	key := text.StemPhrase(answer)
	var hits []valCand
	for _, v := range cands {
		if s := text.StemPhrase(v.label); s == key || strings.Contains(s, key) {
			hits = append(hits, v)
		}
	}
	if len(hits) == 1 {
		v := hits[0]
		return &Option{ID: optionID(v.col.Name + ":" + v.label), Label: v.label, column: v.col, values: v.values}, ""
	}
	return nil, fmt.Sprintf("%q does not pick one of the values", answer)
}

func (b *builder) valueFilter(i int, m *mention) {
	v := m.vals[0]
	words := b.words(m)
	ref := &model.ColumnRef{Entity: v.col.Entity().Name, Column: v.col.Name}
	var c model.Cond
	label := fmt.Sprintf("%s is %s", v.col.Title(), v.label)
	if len(v.values) == 1 {
		c = model.Compare{Left: model.Operand{Column: ref}, Op: "=", Right: []model.Operand{{Literal: v.values[0]}}}
	} else {
		ops := make([]model.Operand, len(v.values))
		for k, x := range v.values {
			ops[k] = model.Operand{Literal: x}
		}
		c = model.Compare{Left: model.Operand{Column: ref}, Op: "in", Right: ops}
		label = fmt.Sprintf("%s is %s (%s)", v.col.Title(), v.label, strings.Join(v.values, ", "))
		if m.kind == kValue && v.label == "" {
			label = fmt.Sprintf("%s is one of %s", v.col.Title(), strings.Join(v.values, ", "))
		}
	}
	key := "value:" + words
	if m.conf < 0.85 {
		// a link by part of a name or despite a typo is shown as an assumption
		sl := &Slot{Key: key, Kind: KindValue, Priority: Important, Text: words, Method: MethodFuzzy, Confidence: m.conf,
			Why: "the closest value in the data", Options: []*Option{{ID: optionID(v.col.Name + ":" + v.label), Label: v.label, column: v.col, values: v.values}}}
		b.settle(sl, nil)
	}
	f := query.Filter{Entity: v.col.Entity(), Cond: c, Label: label, Slot: key}
	// "who reports to Nina Patel": the rows that refer to the one named
	if e := v.col.Entity(); e == b.q.Base {
		if via, up := b.selfReference(i, e); via != nil {
			f.Via, f.Referenced = via, up
			f.Label = fmt.Sprintf("%s is %s", via.Title(), v.label)
			if up {
				f.Label = fmt.Sprintf("%s is the %s of %s", e.Singular(), strings.ToLower(referenceRole(via)), v.label)
			}
		}
	}
	if b.negated(i) {
		f = b.negate(f)
	}
	b.addFilter(f, m)
}

func (b *builder) flagFilter(i int, m *mention) {
	e := m.entry()
	col := e.column
	if len(m.vals) > 0 && m.vals[0].col != nil {
		col = m.vals[0].col
	}
	// several tables may share a flag; prefer the one in context
	val := !e.neg
	ref := &model.ColumnRef{Entity: col.Entity().Name, Column: col.Name}
	c := model.Compare{Left: model.Operand{Column: ref}, Op: "=", Right: []model.Operand{{Literal: val}}}
	label := col.Title()
	if !val {
		label = "not " + label
	}
	f := query.Filter{Entity: col.Entity(), Cond: c, Label: label, Slot: "flag:" + col.Name}
	if b.negated(i) {
		f = b.negate(f)
	}
	b.addFilter(f, m)
}

// keyFilters reads "order 12345" / "patient P0003": an entity followed by
// its key.
func (b *builder) keyFilters() {
	for i, m := range b.ms {
		if m.kind != kEntity {
			continue
		}
		_, n := b.next(i)
		if n == nil || n.used {
			continue
		}
		e := b.entityOf(m)
		if e == nil || e.KeyColumn() == nil {
			continue
		}
		// "order 10100", "customer #42", "order number 7": the number
		// right after the entity; "authors with 2 books" is no key
		keyed := true
		for k := m.end; k < n.start; k++ {
			switch b.l.texts[k] {
			case "#", "no", "number", "id", "nr", "num":
			default:
				keyed = false
			}
		}
		if !keyed {
			continue
		}
		// "books with 352 pages": the number of a column, not a key
		if _, after := b.next(b.idx(n)); n.kind == kNumber && after != nil && after.start == n.end && after.kind == kColumn && after.entry().column.Numeric() {
			continue
		}
		var lit any
		switch {
		case n.kind == kNumber && e.KeyColumn().Numeric() && n.num == math.Trunc(n.num):
			lit = int64(n.num)
		case n.kind == kUnknown && hasDigit(b.words(n)):
			lit = strings.ToUpper(b.words(n))
		default:
			continue
		}
		ref := &model.ColumnRef{Entity: e.Name, Column: e.Key}
		c := model.Compare{Left: model.Operand{Column: ref}, Op: "=", Right: []model.Operand{{Literal: lit}}}
		b.addFilter(query.Filter{Entity: e, Cond: c, Label: fmt.Sprintf("%s is %v", e.KeyColumn().Title(), lit), Slot: "key:" + e.Name}, n)
	}
}

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// mergeValueFilters joins equality filters on one column into one IN: a row
// cannot hold two values of a column, so "HDL and LDL" and "left or right
// heel" both mean either value.
func (b *builder) mergeValueFilters() {
	q := b.q
	first := map[string]int{}
	var out []query.Filter
	for _, f := range q.Filters {
		col, vals, ok := valueCond(f)
		if !ok {
			out = append(out, f)
			continue
		}
		key := f.Entity.Name + "." + col
		i, seen := first[key]
		if !seen {
			first[key] = len(out)
			out = append(out, f)
			continue
		}
		_, have, _ := valueCond(out[i])
		all := append([]model.Operand{}, have...)
		for _, v := range vals {
			if !slices.ContainsFunc(all, func(o model.Operand) bool { return o.Literal == v.Literal }) {
				all = append(all, v)
			}
		}
		if len(all) == len(have) {
			continue // the same value twice
		}
		ref := &model.ColumnRef{Entity: f.Entity.Name, Column: col}
		out[i].Cond = model.Compare{Left: model.Operand{Column: ref}, Op: "in", Right: all}
		out[i].Label += " or " + strings.TrimPrefix(f.Label, f.Entity.Column(col).Title()+" is ")
		if f.End > out[i].End {
			out[i].End = f.End
		}
	}
	q.Filters = out
}

// valueCond returns the column and values of an equality or IN filter.
func valueCond(f query.Filter) (string, []model.Operand, bool) {
	c, ok := f.Cond.(model.Compare)
	if !ok || f.Exclude || c.Left.Column == nil || (c.Op != "=" && c.Op != "in") {
		return "", nil, false
	}
	for _, r := range c.Right {
		if _, isStr := r.Literal.(string); !isStr {
			return "", nil, false
		}
	}
	return c.Left.Column.Column, c.Right, true
}
