package review

import (
	"cmp"
	"slices"
	"strings"

	"github.com/clarify-sql/clarify/internal/store"
)

// slotStats counts the answers to each slot, most answered first.
func slotStats(answers []store.Answer) []SlotStat {
	type stat struct {
		SlotStat
		users  map[string]bool
		values tally
	}
	bySlot := map[string]*stat{}
	var order []*stat
	for _, a := range answers {
		s := bySlot[a.Slot]
		if s == nil {
			s = &stat{SlotStat: SlotStat{Slot: a.Slot}, users: map[string]bool{}}
			bySlot[a.Slot] = s
			order = append(order, s)
		}
		if a.Kind != "" {
			s.Kind = a.Kind
		}
		s.Answers++
		s.users[a.UserID] = true
		s.values.add(a.Value)
	}
	out := make([]SlotStat, len(order))
	for i, s := range order {
		s.Users = len(s.users)
		s.Values = s.values.counts()
		out[i] = s.SlotStat
	}
	slices.SortStableFunc(out, func(a, b SlotStat) int {
		return cmp.Or(cmp.Compare(b.Answers, a.Answers), cmp.Compare(a.Slot, b.Slot))
	})
	return out
}

// overrides lists, per slot and best guess offered, the answers that chose
// something else; best guesses nobody overrode are left out.
func overrides(answers []store.Answer) []Override {
	type key struct{ slot, best string }
	type stat struct {
		Override
		chosen tally
	}
	byKey := map[key]*stat{}
	var order []*stat
	for _, a := range answers {
		if a.BestGuess == "" {
			continue
		}
		k := key{a.Slot, a.BestGuess}
		s := byKey[k]
		if s == nil {
			s = &stat{Override: Override{Slot: a.Slot, Kind: a.Kind, BestGuess: a.BestGuess}}
			byKey[k] = s
			order = append(order, s)
		}
		s.Answers++
		if chosenOption(a.Value) != a.BestGuess {
			s.Overridden++
			s.chosen.add(a.Value)
		}
	}
	out := []Override{}
	for _, s := range order {
		if s.Overridden == 0 {
			continue
		}
		s.Chosen = s.chosen.counts()
		out = append(out, s.Override)
	}
	slices.SortStableFunc(out, func(a, b Override) int {
		return cmp.Or(cmp.Compare(b.Overridden, a.Overridden), cmp.Compare(b.Answers, a.Answers), cmp.Compare(a.Slot, b.Slot))
	})
	return out
}

// chosenOption is the option id an answer chose, or "" for typed text.
// Answers are "opt:" + id or "text:" + text; a bare id (written before the
// prefix was used) is an id.
func chosenOption(value string) string {
	if id, ok := strings.CutPrefix(value, "opt:"); ok {
		return id
	}
	if strings.HasPrefix(value, "text:") {
		return ""
	}
	return value
}

// typedText is the text an answer typed, or "".
func typedText(value string) string {
	t, _ := strings.CutPrefix(value, "text:")
	if t == value {
		return ""
	}
	return strings.TrimSpace(t)
}
