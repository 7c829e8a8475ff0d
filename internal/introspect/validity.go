package introspect

import (
	"slices"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
)

// startWords and endWords mark the two date columns that bound when a row
// holds: from_date and to_date, start_date and end_date, valid_from and
// valid_to, effective_from and effective_until.
var (
	startWords = []string{"from", "start", "begin", "since", "effective"}
	endWords   = []string{"to", "end", "until", "till", "thru", "through", "expiry", "expires", "expiration"}
)

// validity finds the columns bounding when a row of e holds: two date or
// timestamp columns named alike but for a start and an end word
// (from_date and to_date). It returns "", "" when there is no such pair,
// or more than one.
func validity(e *entity) (from, to string) {
	var found [][2]string
	for _, s := range e.cols {
		if s.role != model.RoleTime {
			continue
		}
		i := wordIndex(s.words, startWords)
		if i < 0 {
			continue
		}
		for _, t := range e.cols {
			if t == s || t.role != model.RoleTime {
				continue
			}
			j := wordIndex(t.words, endWords)
			if j < 0 || j != i || len(t.words) != len(s.words) {
				continue
			}
			// the same name but for the start and the end word
			a := slices.Delete(slices.Clone(s.words), i, i+1)
			b := slices.Delete(slices.Clone(t.words), j, j+1)
			if strings.Join(a, " ") == strings.Join(b, " ") {
				found = append(found, [2]string{s.c.Name, t.c.Name})
			}
		}
	}
	if len(found) != 1 {
		return "", ""
	}
	return found[0][0], found[0][1]
}

// wordIndex is the index of the first of w among words, or -1.
func wordIndex(w, words []string) int {
	for i, x := range w {
		if slices.Contains(words, x) {
			return i
		}
	}
	return -1
}
