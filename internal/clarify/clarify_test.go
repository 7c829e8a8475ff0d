package clarify

import (
	"testing"

	"github.com/clarify-sql/clarify/internal/understand"
)

func slotWith(labels ...string) *understand.Slot {
	s := &understand.Slot{Key: "vague:large", Kind: understand.KindVague, Priority: understand.Important, Ask: true, Chosen: 1}
	for i, l := range labels {
		s.Options = append(s.Options, &understand.Option{ID: "o" + string(rune('a'+i)), Label: l, BestGuess: i == 1})
	}
	return s
}

func TestInterpret(t *testing.T) {
	s := slotWith("Area > 10 cm²", "Area > 25 cm²", "Area > 50 cm²")
	tests := []struct {
		reply string
		want  understand.Resolution
	}{
		{"2", understand.Resolution{OptionID: "ob"}},
		{" 3 ", understand.Resolution{OptionID: "oc"}},
		{"4", understand.Resolution{FreeText: "4"}},
		{"yes", understand.Resolution{OptionID: "ob"}},
		{"Да", understand.Resolution{OptionID: "ob"}},
		{"skip", understand.Resolution{Skipped: true}},
		{"I don't know", understand.Resolution{Skipped: true}},
		{"не знаю", understand.Resolution{Skipped: true}},
		{"50", understand.Resolution{OptionID: "oc"}},               // a part of exactly one label
		{"area", understand.Resolution{FreeText: "area"}},           // part of every label: free text
		{"oa", understand.Resolution{OptionID: "oa"}},               // an option id
		{"area > 15", understand.Resolution{FreeText: "area > 15"}}, // a condition
	}
	for _, tc := range tests {
		t.Run(tc.reply, func(t *testing.T) {
			if got := Interpret(tc.reply, s); got != tc.want {
				t.Errorf("Interpret(%q) = %+v, want %+v", tc.reply, got, tc.want)
			}
		})
	}
}

// TestInterpretByWords: typed words whose every content word is in one
// option's label choose it ("infected ones" is "Infected wounds"); words
// that fit several options or none, or only a description, stay free text
// for the slot to read.
func TestInterpretByWords(t *testing.T) {
	s := slotWith("Full thickness (Stage 3/4)", "Infected wounds", "Open more than 60 days", "Large (area > 25 cm²)")
	s.Options[2].Description = "not healed, by the date recorded"
	for reply, want := range map[string]understand.Resolution{
		"infected ones":           {OptionID: "ob"},
		"only the large ones":     {OptionID: "od"},
		"the full thickness ones": {OptionID: "oa"},
		"wounds":                  {OptionID: "ob"},
		"the deep ones":           {FreeText: "the deep ones"},
		"infected and large":      {FreeText: "infected and large"},
		"healed":                  {FreeText: "healed"}, // only in a description
		"more than 60":            {OptionID: "oc"},
		"more than 90":            {FreeText: "more than 90"}, // a number of its own
	} {
		if got := Interpret(reply, s); got != want {
			t.Errorf("Interpret(%q) = %+v, want %+v", reply, got, want)
		}
	}
}

func TestLooksLikeQuestion(t *testing.T) {
	for reply, want := range map[string]bool{
		"how many clinics are there?": true, "show me infected wounds": true, "area > 15": false,
		"2": false, "infected": false, "the second one please": false, "сколько пациентов в клинике": true,
	} {
		if got := LooksLikeQuestion(reply); got != want {
			t.Errorf("LooksLikeQuestion(%q) = %v, want %v", reply, got, want)
		}
	}
}

// TestRoute pins the tiers: ≥ 0.85 silent, 0.60–0.85 an assumption, a
// slot that must be asked is asked when interactive and applied as an
// open question otherwise — except the scope, which fails the turn.
func TestRoute(t *testing.T) {
	mk := func(key string, method understand.Method, conf float64, ask, never bool, prio string) *understand.Slot {
		return &understand.Slot{Key: key, Kind: understand.KindValue, Priority: prio, Method: method, Confidence: conf, Ask: ask, NeverAssume: never,
			Text: key, Chosen: 0, Options: []*understand.Option{{ID: "a", Label: "A"}, {ID: "b", Label: "B"}}}
	}
	silent := mk("silent", understand.MethodExact, 0.85, false, false, understand.Important)
	assumed := mk("assumed", understand.MethodDefault, 0.7, false, false, understand.Important)
	helpful := mk("format", "", 0.5, true, false, understand.Helpful)
	vague := mk("vague", "", 0.5, true, false, understand.Important)
	scope := mk("scope", "", 0, true, true, understand.Critical)
	in := &understand.Interpretation{Slots: []*understand.Slot{silent, assumed, helpful, vague, scope}}

	if d := Route(in, Policy{Interactive: true}); d.Ask != scope {
		t.Errorf("interactive: asked %v, want the critical scope first", d.Ask)
	}
	in.Slots = []*understand.Slot{silent, assumed, helpful, vague}
	if d := Route(in, Policy{Interactive: true}); d.Ask != vague {
		t.Errorf("interactive: asked %v, want the important vague term before the helpful format", d.Ask)
	}
	d := Route(in, Policy{Interactive: false})
	if d.Ask != nil || d.ScopeMissing != nil {
		t.Fatalf("non-interactive: asked %v, scope %v", d.Ask, d.ScopeMissing)
	}
	keys := map[string]bool{}
	for _, a := range d.Assumptions {
		keys[a.Slot] = true
	}
	if keys["silent"] || !keys["assumed"] || !keys["vague"] || !keys["format"] {
		t.Errorf("assumptions = %v: want assumed, vague and format, not silent", keys)
	}
	if len(d.OpenQuestions) != 2 {
		t.Errorf("open questions = %d, want 2 (vague, format)", len(d.OpenQuestions))
	}
	answered := mk("answered", understand.MethodUser, 1, false, false, understand.Important)
	in.Slots = append(in.Slots, answered)
	var mine *Assumption
	for _, a := range Route(in, Policy{Interactive: false}).Assumptions {
		if a.Slot == "answered" {
			mine = &a
		}
	}
	if mine == nil || mine.Method != "user" || len(mine.Alternatives) != 1 || mine.Alternatives[0].ID != "b" {
		t.Errorf("the user's answer = %+v, want it listed with method user and alternative b so it stays changeable", mine)
	}
	in.Slots = in.Slots[:len(in.Slots)-1]
	if d := Route(in, Policy{Interactive: true, Rounds: 3, MaxRounds: 3}); d.Ask != nil {
		t.Errorf("after max rounds still asked %v", d.Ask)
	}
	in.Slots = append(in.Slots, scope)
	if d := Route(in, Policy{Interactive: false}); d.ScopeMissing != scope {
		t.Errorf("non-interactive with no scope: ScopeMissing = %v, want the scope slot", d.ScopeMissing)
	}
}
