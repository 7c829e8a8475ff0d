package clarify

import (
	"strconv"
	"strings"

	"github.com/clarify-sql/clarify/internal/understand"
	"github.com/clarify-sql/clarify/internal/understand/text"
)

var yesWords = map[string]bool{"yes": true, "y": true, "yeah": true, "yep": true, "yup": true, "sure": true, "ok": true,
	"okay": true, "correct": true, "right": true, "exactly": true, "that's right": true, "that is right": true, "yes please": true,
	"да": true, "ага": true, "угу": true, "верно": true, "точно": true, "конечно": true}

var skipWords = map[string]bool{"skip": true, "i don't know": true, "i dont know": true, "don't know": true, "dont know": true,
	"idk": true, "not sure": true, "no idea": true, "whatever": true, "you decide": true, "you choose": true, "any": true,
	"use your best judgment": true, "use your best judgement": true, "best guess": true, "your call": true,
	"не знаю": true, "пропустить": true, "пропусти": true, "неважно": true, "все равно": true, "всё равно": true}

// Interpret reads a reply to a clarification about slot s: an option
// number, "yes" (the best guess), "skip", an option label (a
// case-insensitive part of exactly one label) or an option id; anything
// else is free text for the slot to understand.
func Interpret(reply string, s *understand.Slot) understand.Resolution {
	t := strings.TrimSpace(reply)
	low := strings.ToLower(strings.Trim(t, " .!?"))
	if n, err := strconv.Atoi(low); err == nil && n >= 1 && n <= len(s.Options) {
		return understand.Resolution{OptionID: s.Options[n-1].ID}
	}
	if yesWords[low] {
		if b := s.Best(); b >= 0 {
			return understand.Resolution{OptionID: s.Options[b].ID}
		}
	}
	if skipWords[low] {
		return understand.Resolution{Skipped: true}
	}
	for _, o := range s.Options {
		if strings.EqualFold(o.ID, low) {
			return understand.Resolution{OptionID: o.ID}
		}
	}
	var hit *understand.Option
	n := 0
	for _, o := range s.Options {
		if low != "" && strings.Contains(strings.ToLower(o.Label), low) {
			hit = o
			n++
		}
	}
	if n == 1 {
		return understand.Resolution{OptionID: hit.ID}
	}
	if o := optionByWords(low, s.Options); o != nil {
		return understand.Resolution{OptionID: o.ID}
	}
	return understand.Resolution{FreeText: t}
}

// fillerWords say nothing about which option is meant: "the infected
// ones", "only those that are infected", "I mean large".
var fillerWords = map[string]bool{"the": true, "a": true, "an": true, "one": true, "ones": true, "only": true, "just": true,
	"those": true, "these": true, "them": true, "that": true, "which": true, "are": true, "is": true, "i": true, "mean": true,
	"please": true, "with": true, "of": true, "by": true, "use": true, "want": true, "show": true, "me": true, "option": true}

// optionByWords picks the one option whose label holds every content
// word, number and operator of the reply, compared by stem ("infected ones" is the option
// "Infected wounds"); nil when none or several do. Descriptions are not
// read: they say how an option is computed ("quantity × price"), and a
// reply naming a part of that means something else.
func optionByWords(reply string, opts []*understand.Option) *understand.Option {
	var words []string
	for _, tok := range text.Tokenize(text.Normalize(reply)) {
		// numbers and operators count too: "above 30%" is a condition of
		// its own, not the option "above the average"
		if tok.Kind != text.Word || !fillerWords[tok.Text] {
			words = append(words, tok.Stem)
		}
	}
	if len(words) == 0 {
		return nil
	}
	var hit *understand.Option
	for _, o := range opts {
		have := map[string]bool{}
		for _, tok := range text.Tokenize(text.Normalize(o.Label)) {
			have[tok.Stem] = true
		}
		all := true
		for _, w := range words {
			all = all && have[w]
		}
		if all {
			if hit != nil {
				return nil
			}
			hit = o
		}
	}
	return hit
}

// LooksLikeQuestion reports whether a reply reads as a new question rather
// than an answer ("how many clinics are there?").
func LooksLikeQuestion(reply string) bool {
	t := strings.ToLower(strings.TrimSpace(reply))
	if len(strings.Fields(t)) < 3 {
		return false
	}
	if strings.HasSuffix(t, "?") {
		return true
	}
	for _, w := range []string{"how ", "what ", "which ", "who ", "show ", "list ", "count ", "plot ", "give ", "find ", "tell ", "покажи", "сколько", "какие"} {
		if strings.HasPrefix(t, w) {
			return true
		}
	}
	return false
}
