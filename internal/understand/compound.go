// Compound questions, read last: "how many wounds are open in each clinic
// and what is the average area of them" asks two things. One answer
// computes one thing, so the second question is named in the answer
// rather than dropped without a word.

package understand

// questionWords start a second question after "and".
var questionWords = map[string]bool{"what": true, "how": true, "which": true, "who": true, "when": true, "where": true, "whats": true}

// secondQuestion finds a question that starts after an "and" and whose
// aggregate or measure words nothing used, and keeps its words as
// LeftOut.
func (b *builder) secondQuestion() {
	toks := b.l.toks
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].Text != "and" {
			continue
		}
		j := i + 1
		for j < len(toks) && (toks[j].Text == "also" || toks[j].Text == "then" || toks[j].Text == "the" || toks[j].Text == "their") {
			j++
		}
		if j >= len(toks) {
			return
		}
		starts := questionWords[toks[j].Text]
		unused := false
		for _, m := range b.ms {
			if m.start < j || m.used {
				continue
			}
			switch m.kind {
			case kAgg, kCount:
				unused = true
				if m.start == j {
					starts = true
				}
			case kMeasure:
				unused = true
			}
		}
		if starts && unused {
			b.in.LeftOut = b.in.Question[toks[j].Start:toks[len(toks)-1].End]
			return
		}
	}
}
