package understand_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/understand"
)

// TestIntentPrecedence: each reading of the intent, and the refinements
// after it, give the answer's shape their words ask for, also where an
// earlier reading must win over a later one ("how many shares" is a sum,
// not a count; "which day had the highest volume" the top day, not the
// maximum).
func TestIntentPrecedence(t *testing.T) {
	tests := []struct {
		reading  string
		source   string
		question string
		want     []string // the intent, aggregate, rank, group, order, limit and latest lines of Describe
	}{
		{"ranked dimension", "trades", "top 3 sectors by volume",
			[]string{"intent: group_by", "aggregate: sum(trades.quantity)", "group: symbols.sector", "limit: 3"}},
		{"ranking", "clinic", "which clinic has the most patients",
			[]string{"intent: top_n", "rank: top 1 clinics by count(measure patient_count)"}},
		{"when", "trades", "when was the most recent trade",
			[]string{"intent: aggregate", "aggregate: max(trades.traded_at)"}},
		{"top n by column", "trades", "the 3 trades with the highest quantity",
			[]string{"intent: top_n", "rank: top 3 trades by max(trades.quantity)"}},
		{"which has the highest", "trades", "which symbol has the highest price",
			[]string{"intent: top_n", "rank: top 1 symbols by avg(trades.price)"}},
		{"counted quantity", "trades", "how many shares of MSFT were traded",
			[]string{"intent: aggregate", "aggregate: sum(trades.quantity)"}},
		{"which column is highest", "trades", "which day had the highest volume",
			[]string{"intent: top_n", "order: volume desc=true", "limit: 1"}},
		{"count", "retail", "total number of orders",
			[]string{"intent: count", "aggregate: count(*)"}},
		{"aggregate", "trades", "average price of MSFT",
			[]string{"intent: aggregate", "aggregate: avg(trades.price)"}},
		{"measure and groups", "retail", "revenue per customer",
			[]string{"intent: group_by", "aggregate: sum(measure revenue)", "group: sales_customers"}},
		{"count and groups", "clinic", "how many wounds per clinic",
			[]string{"intent: group_by", "aggregate: count(*)", "group: clinics"}},
		{"versus", "trades", "MSFT buys vs sells",
			[]string{"intent: group_by", "aggregate: count(*)", "group: trades.side"}},
		{"which dimension", "trades", "which venues did TSLA trade on",
			[]string{"intent: group_by", "aggregate: count(*)", "group: trades.venue"}},
		{"bucket and trend", "clinic", "number of wounds by month",
			[]string{"intent: trend", "aggregate: count(measure wound_count)", "group: month of wounds.created_date"}},
		{"first", "clinic", "the first patient registered",
			[]string{"intent: top_n", "order: created_at desc=false", "limit: 1"}},
		{"latest", "trades", "the latest trade of TSLA",
			[]string{"intent: latest", "latest"}},
	}
	analyzers := map[string]*understand.Analyzer{}
	for _, tc := range tests {
		if analyzers[tc.source] == nil {
			src := demotest.Source(t, tc.source, source.Options{})
			analyzers[tc.source] = understand.New(src.Model, src.Catalog())
		}
	}
	for _, tc := range tests {
		t.Run(tc.reading, func(t *testing.T) {
			in, err := analyzers[tc.source].Analyze(context.Background(), tc.question, understand.Settings{Now: demotest.AsOf})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range strings.Split(understand.Describe(in), "\n") {
				for _, p := range []string{"intent:", "aggregate:", "rank:", "group:", "order:", "limit:", "latest"} {
					if strings.HasPrefix(l, p) {
						got = append(got, l)
					}
				}
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("%q (-want +got):\n%s", tc.question, d)
			}
		})
	}
}
