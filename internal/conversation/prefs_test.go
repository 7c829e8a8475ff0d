package conversation_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/store"
)

// TestPreferenceLabels: the preferences list says in words what each
// remembered choice is about and what was chosen, as the question showed
// them, never the ids the store keeps.
func TestPreferenceLabels(t *testing.T) {
	t.Parallel()
	e := newEnv(t, conversation.Options{}, hooks{})
	ctx := context.Background()
	tests := []struct {
		name, source, slot, value string
		about, label              string
	}{
		{"vague term", "clinic", "vague:large", "opt:area_gt_10", "“large”", "Area > 10 cm²"},
		{"another vague term", "clinic", "vague:serious", "opt:infected", "“serious”", "Infected wounds"},
		{"typed answer", "clinic", "vague:old", "text:older than a year", "“old”", "“older than a year”"},
		{"a measure to compute", "clinic", "aggregation", "opt:measure:healing_time", "What to compute", "Healing time"},
		{"a column", "clinic", "number:size", "opt:wounds.area_cm2", "“size”", "Area (wounds)"},
		{"a count", "clinic", "ranking:patients", "opt:count:wounds", "How to rank patients", "Number of wounds"},
		{"a period", "clinic", "time_window", "opt:last_90_days", "Time period", "Last 90 days"},
		{"plot or table", "labs", "format", "opt:plot", "Table or plot", "Plot (chart over time)"},
		{"latest or history", "labs", "history", "opt:history", "Latest or all results", "All results (history)"},
		{"a source that is gone", "gone", "vague:big_ones", "opt:over_ten", "“big ones”", "Over ten"},
	}
	for _, tc := range tests {
		err := e.st.RecordAnswer(ctx, store.Answer{UserID: "ana", Source: tc.source, Slot: tc.slot, Value: tc.value, Remember: true, At: e.clock.Now()})
		if err != nil {
			t.Fatal(err)
		}
	}
	prefs, err := e.svc.Preferences(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]conversation.Preference{}
	for _, p := range prefs {
		got[p.Key] = p
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, ok := got[tc.source+"/"+tc.slot]
			if !ok {
				t.Fatalf("no preference %s/%s in %+v", tc.source, tc.slot, prefs)
			}
			want := [2]string{tc.about, tc.label}
			if d := cmp.Diff(want, [2]string{p.SlotLabel, p.Label}); d != "" {
				t.Errorf("%s = %s: (-want +got)\n%s", tc.slot, tc.value, d)
			}
		})
	}
}
