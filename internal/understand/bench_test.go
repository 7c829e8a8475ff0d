package understand_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/clarify"
	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/understand"
)

// benchQuestions times understanding + routing of each question and
// reports the mean (ns/op) and the p50/p99 per question, in wall time and
// (where it can be read) in CPU time of the thread that understands, which
// a machine busy with other work does not inflate.
func benchQuestions(b *testing.B, an *understand.Analyzer, qs []string) {
	ctx := context.Background()
	set := understand.Settings{Now: demotest.AsOf}
	for _, q := range qs { // warm the value index
		if _, err := an.Analyze(ctx, q, set); err != nil {
			b.Fatalf("%q: %v", q, err)
		}
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	lat := make([]time.Duration, 0, b.N)
	cpu := make([]time.Duration, 0, b.N)
	_, cpuOK := threadCPU()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := qs[i%len(qs)]
		start := time.Now()
		c0, _ := threadCPU()
		in, err := an.Analyze(ctx, q, set)
		if err != nil {
			b.Fatal(err)
		}
		clarify.Route(in, clarify.Policy{Interactive: true})
		c1, _ := threadCPU()
		lat = append(lat, time.Since(start))
		cpu = append(cpu, c1-c0)
	}
	b.StopTimer()
	reportPercentiles(b, lat, "")
	if cpuOK {
		reportPercentiles(b, cpu, "cpu-")
	}
}

// reportPercentiles reports the p50 and p99 of ds in microseconds.
func reportPercentiles(b *testing.B, ds []time.Duration, prefix string) {
	slices.Sort(ds)
	b.ReportMetric(float64(ds[len(ds)/2].Microseconds()), prefix+"p50-µs")
	b.ReportMetric(float64(ds[min(len(ds)-1, len(ds)*99/100)].Microseconds()), prefix+"p99-µs")
}

// BenchmarkUnderstand measures understanding + routing per question on the
// demo models, with their database values loaded.
func BenchmarkUnderstand(b *testing.B) {
	for _, name := range []string{"clinic", "labs", "trades", "retail"} {
		b.Run(name, func(b *testing.B) {
			src := demotest.Source(b, name, source.Options{})
			an := understand.New(src.Model, src.Catalog())
			benchQuestions(b, an, demotest.Questions(b, name))
		})
	}
}

// synthetic is a catalog of generated values for the synthetic model.
type synthetic struct{ vals map[string][]string }

func (s synthetic) Version(context.Context) uint64 { return 1 }
func (s synthetic) CountedValues(_ context.Context, c *model.Column) ([]string, []int64, error) {
	return s.vals[c.Entity().Name+"."+c.Name], nil, nil
}
func (s synthetic) Rows(context.Context, *model.Entity, []string, int) ([][]string, error) {
	return nil, nil
}
func (s synthetic) RowsWith(context.Context, *model.Column, string, []string, int) ([][]string, error) {
	return nil, nil
}
func (s synthetic) RowsByKey(context.Context, *model.Entity, []string, []string, int) ([][]string, error) {
	return nil, nil
}

var syllables = []string{"ka", "lo", "mi", "ner", "sto", "va", "ri", "quen", "dor", "pa", "lu", "zen", "tro", "bel", "ash", "ox", "im", "ur", "fel", "gan"}

func word(r *rand.Rand) string {
	n := 2 + r.IntN(3)
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(syllables[r.IntN(len(syllables))])
	}
	return b.String()
}

// syntheticModel builds a model of tables×10 columns (one id, one foreign
// key, one name column with database values, dimensions, measures, a date)
// and spreads values distinct values over the name and dimension columns.
func syntheticModel(b testing.TB, tables, values int) (*model.Model, synthetic, []string) {
	r := rand.New(rand.NewPCG(1, 2))
	var y strings.Builder
	y.WriteString("source: synthetic\nentities:\n")
	cat := synthetic{vals: map[string][]string{}}
	var words []string
	perTable := values / tables
	var hubs []string
	for t := 0; t < tables; t++ {
		name := fmt.Sprintf("%s_%d", word(r), t)
		words = append(words, strings.Split(name, "_")[0])
		fmt.Fprintf(&y, "  - name: %s\n    key: id\n    display: title\n    time_column: created_on\n    columns:\n", name)
		y.WriteString("      - {name: id, role: id, type: integer}\n")
		// a snowflake: the first 20 tables are hubs, every other table
		// references one of them, as fact tables reference dimensions
		if t >= 20 {
			fmt.Fprintf(&y, "      - {name: parent_id, role: id, type: integer, references: %s.id}\n", hubs[t%20])
		} else {
			y.WriteString("      - {name: parent_id, role: id, type: integer}\n")
			hubs = append(hubs, name)
		}
		y.WriteString("      - {name: title, role: name, type: text, values: {source: database}}\n")
		for c := 0; c < 3; c++ {
			col := fmt.Sprintf("%s_kind%d", word(r), c)
			fmt.Fprintf(&y, "      - {name: %s, role: dimension, type: text, values: {source: database}}\n", col)
			var vs []string
			for v := 0; v < perTable/8; v++ {
				vs = append(vs, word(r))
			}
			cat.vals[name+"."+col] = vs
		}
		for c := 0; c < 3; c++ {
			fmt.Fprintf(&y, "      - {name: %s_amount%d, role: measure, type: real}\n", word(r), c)
		}
		y.WriteString("      - {name: created_on, role: time, type: date}\n")
		var titles []string
		for v := 0; v < perTable-3*(perTable/8); v++ {
			titles = append(titles, word(r)+" "+word(r))
		}
		cat.vals[name+".title"] = titles
		words = append(words, titles[0], cat.vals[name+"."+strings.Fields(lastDim(y.String()))[0]][0])
	}
	m, err := model.Parse("synthetic.yaml", []byte(y.String()))
	if err != nil {
		b.Fatal(err)
	}
	var qs []string
	for i := 0; i < 200; i++ {
		w := words[r.IntN(len(words))]
		switch i % 4 {
		case 0:
			qs = append(qs, "how many "+w+" in the last 30 days")
		case 1:
			qs = append(qs, "show "+words[r.IntN(len(words))]+" with "+w)
		case 2:
			qs = append(qs, "top 5 "+w+" by amount")
		default:
			qs = append(qs, w+" per "+words[r.IntN(len(words))]+" this year")
		}
	}
	return m, cat, qs
}

func lastDim(y string) string {
	i := strings.LastIndex(y, "_kind2")
	j := strings.LastIndex(y[:i], "{name: ")
	return strings.TrimSuffix(y[j+len("{name: "):i+len("_kind2")], ",")
}

// BenchmarkUnderstandSynthetic measures a model of 500 tables, 5,000
// columns and 200,000 distinct values; sub-benchmarks at smaller sizes show
// how the cost grows. The model and its value index are built once per
// size, before the timed runs, so that each run starts (after the garbage
// collection the testing package does) with the index as a server holds it
// and times questions, not the collection of what the build left.
func BenchmarkUnderstandSynthetic(b *testing.B) {
	for _, size := range []struct{ tables, values int }{{50, 20_000}, {500, 200_000}} {
		m, cat, qs := syntheticModel(b, size.tables, size.values)
		start := time.Now()
		an := understand.New(m, cat)
		an.WaitIndex(context.Background())
		build := time.Since(start)
		b.Run(fmt.Sprintf("tables=%d/values=%d", size.tables, size.values), func(b *testing.B) {
			b.ReportMetric(float64(build.Milliseconds()), "build-ms")
			benchQuestions(b, an, qs)
		})
	}
}
