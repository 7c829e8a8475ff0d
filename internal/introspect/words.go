package introspect

import (
	"strings"
	"unicode"
)

// splitName splits an identifier into lower-case words at underscores,
// hyphens, spaces, dots and camelCase boundaries: "OrderDate" and
// "order_date" both give [order date]; "HTTPStatus" gives [http status].
func splitName(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == ' ' || r == '.':
			flush()
			continue
		case unicode.IsUpper(r) && len(cur) > 0:
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// humanize joins an identifier's words with spaces.
func humanize(s string) string { return strings.Join(splitName(s), " ") }

// irregular plurals and words that are the same in both numbers.
var (
	irregularSingular = map[string]string{
		"people": "person", "persons": "person", "children": "child", "men": "man", "women": "woman",
		"feet": "foot", "teeth": "tooth", "mice": "mouse", "geese": "goose", "criteria": "criterion",
		"phenomena": "phenomenon", "indices": "index", "matrices": "matrix", "vertices": "vertex",
		"analyses": "analysis", "diagnoses": "diagnosis", "theses": "thesis", "crises": "crisis",
		"axes": "axis", "knives": "knife", "wives": "wife", "lives": "life", "shelves": "shelf",
		"halves": "half", "wolves": "wolf", "leaves": "leave", "movies": "movie", "cookies": "cookie",
		"pies": "pie", "ties": "tie", "lies": "lie", "calories": "calorie", "zombies": "zombie",
		"species": "species", "series": "series", "news": "news", "data": "data", "metadata": "metadata",
		"media": "media", "staff": "staff", "equipment": "equipment", "information": "information",
		"sheep": "sheep", "fish": "fish", "aircraft": "aircraft", "software": "software", "feedback": "feedback",
	}
	irregularPlural = map[string]string{
		"person": "people", "child": "children", "man": "men", "woman": "women", "foot": "feet",
		"tooth": "teeth", "mouse": "mice", "goose": "geese", "criterion": "criteria", "phenomenon": "phenomena",
		"analysis": "analyses", "diagnosis": "diagnoses", "thesis": "theses", "crisis": "crises", "axis": "axes",
		"knife": "knives", "wife": "wives", "life": "lives", "shelf": "shelves", "half": "halves", "wolf": "wolves",
		"species": "species", "series": "series", "news": "news", "data": "data", "metadata": "metadata",
		"media": "media", "staff": "staff", "equipment": "equipment", "information": "information",
		"sheep": "sheep", "fish": "fish", "aircraft": "aircraft", "software": "software", "feedback": "feedback",
	}
)

// singular returns the singular of an English noun (one lower-case word):
// categories → category, statuses → status, addresses → address,
// people → person. Words that already look singular are kept.
func singular(w string) string {
	if s, ok := irregularSingular[w]; ok {
		return s
	}
	n := len(w)
	switch {
	case n <= 3:
		return w
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w // address, status, analysis
	case strings.HasSuffix(w, "ies"):
		return w[:n-3] + "y" // categories
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"),
		strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "zzes"):
		return w[:n-2] // addresses, boxes, matches, wishes
	case strings.HasSuffix(w, "uses"):
		// statuses, buses, bonuses, viruses — but houses, causes, excuses
		if c := w[n-5]; c == 'o' || c == 'a' || c == 'c' {
			return w[:n-1]
		}
		return w[:n-2]
	case strings.HasSuffix(w, "oes") && !strings.HasSuffix(w, "shoes") && !strings.HasSuffix(w, "toes"):
		return w[:n-2] // heroes, potatoes
	case strings.HasSuffix(w, "s"):
		return w[:n-1]
	}
	return w
}

// plural returns the plural of an English noun (one lower-case word).
func plural(w string) string {
	if p, ok := irregularPlural[w]; ok {
		return p
	}
	if _, ok := irregularSingular[w]; ok && singular(w) != w {
		return w // already plural
	}
	n := len(w)
	switch {
	case n == 0:
		return w
	case strings.HasSuffix(w, "y") && n > 1 && !isVowel(w[n-2]):
		return w[:n-1] + "ies"
	case strings.HasSuffix(w, "s"), strings.HasSuffix(w, "x"), strings.HasSuffix(w, "z"),
		strings.HasSuffix(w, "ch"), strings.HasSuffix(w, "sh"):
		return w + "es"
	}
	return w + "s"
}

func isVowel(b byte) bool { return strings.IndexByte("aeiou", b) >= 0 }

// singularPhrase singularizes the last word of a phrase ("order lines" →
// "order line").
func singularPhrase(words []string) string {
	if len(words) == 0 {
		return ""
	}
	out := append([]string{}, words...)
	out[len(out)-1] = singular(out[len(out)-1])
	return strings.Join(out, " ")
}

// pluralPhrase pluralizes the last word of a phrase.
func pluralPhrase(s string) string {
	words := strings.Fields(s)
	if len(words) == 0 {
		return s
	}
	words[len(words)-1] = plural(words[len(words)-1])
	return strings.Join(words, " ")
}

// normPhrase is the form two phrases are compared in: lower case, each word
// singular, so "Orders" and "order" collide.
func normPhrase(s string) string {
	words := strings.Fields(strings.ToLower(strings.NewReplacer("_", " ", "-", " ").Replace(s)))
	for i, w := range words {
		words[i] = singular(w)
	}
	return strings.Join(words, " ")
}

// participles maps nouns and verbs that name an event to the word a
// question uses for it: "hire" → "hired", "birth" → "born".
var participles = map[string]string{
	"birth": "born", "publication": "published", "publish": "published", "registration": "registered",
	"creation": "created", "delivery": "delivered", "payment": "paid", "pay": "paid", "purchase": "purchased",
	"sale": "sold", "sell": "sold", "buy": "bought", "shipment": "shipped", "shipping": "shipped", "ship": "shipped",
	"expiry": "expired", "expiration": "expired", "completion": "completed", "admission": "admitted",
	"departure": "departed", "arrival": "arrived", "submission": "submitted", "approval": "approved",
	"enrollment": "enrolled", "enrolment": "enrolled", "graduation": "graduated", "termination": "terminated",
	"cancellation": "cancelled", "signup": "signed up", "begin": "began", "end": "ended", "stop": "stopped",
	"plan": "planned", "drop": "dropped", "log": "logged", "split": "split", "set": "set", "put": "put",
	"done": "done", "do": "done", "finish": "finished", "complete": "completed",
	"open": "opened", "opening": "opened", "production": "produced", "manufacture": "manufactured",
	"construction": "built", "foundation": "founded", "founding": "founded", "release": "released",
	"hire": "hired", "fire": "fired", "issue": "issued", "close": "closed", "receive": "received",
	"write": "written", "send": "sent", "take": "taken", "give": "given", "make": "made", "pick": "picked",
	"dispatch": "dispatched", "modification": "modified", "update": "updated", "insert": "inserted",
	"death": "died", "join": "joined", "marriage": "married", "transfer": "transferred",
	"order": "ordered", "due": "", "birthday": "", "dob": "born", "valid": "", "effective": "",
}

// irregularPast are past participles that do not end in -ed.
var irregularPast = wordSet(`paid sold sent built bought made held kept left lost won spent taught written given
	taken done seen born shown grown known drawn thrown flown driven ridden begun run found bound brought caught
	fought thought told read led fed met put set cut hit shut split spread laid`)

// notVerbs are endings of words that name a thing or a quality, never an
// event a question would put in the past tense ("transaction", "effective").
var notVerbs = []string{"tion", "sion", "ment", "ness", "ity", "ance", "ence", "ive", "al", "ous", "ful",
	"ic", "ing", "ship", "hood", "ure", "age", "ery", "ary", "ory", "ism", "ist", "or", "ee", "day", "time",
	"year", "month", "week", "date", "stamp", "period", "event", "last", "next", "first"}

// participle returns the past participle of a word naming an event
// ("order" → "ordered", "hire" → "hired"), or "" when the word does not
// look like a verb.
func participle(w string) string {
	if p, ok := participles[w]; ok {
		return p
	}
	if irregularPast[w] {
		return w // paid_on: "paid", not "paided"
	}
	if strings.HasSuffix(w, "ed") {
		return w
	}
	if len(w) < 3 {
		return ""
	}
	for _, suf := range notVerbs {
		if strings.HasSuffix(w, suf) {
			return ""
		}
	}
	n := len(w)
	switch {
	case strings.HasSuffix(w, "e"):
		return w + "d"
	case strings.HasSuffix(w, "y") && !isVowel(w[n-2]):
		return w[:n-1] + "ied"
	case n <= 4 && n >= 3 && !isVowel(w[n-1]) && isVowel(w[n-2]) && !isVowel(w[n-3]) && !strings.ContainsRune("wxy", rune(w[n-1])):
		return w + w[n-1:] + "ed" // trip → tripped
	}
	return w + "ed"
}

// titleWord capitalizes a word for an area name ("sales" → "Sales").
func titleWord(w string) string {
	if w == "" {
		return w
	}
	r := []rune(w)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}
